// The trainer's sweep, in the build every reader runs (WebAssembly SIMD128,
// under Node): depth x learning rate x the lab's three runs (pre-norm,
// post-norm, post-norm with warmup) x seeds, each run to the lab's full
// length on each page language's committed text, with the options the lab
// itself builds (web/src/lab/runs.js) for that cell. It is the table the
// lab's map and learning-rate window draw: a pressed map cell trains its
// seed-1 run again in the page and gets the same bits.
//
//   node tests/bench/train-sweep.mjs [--seeds 5] [--threads N] [--out web/data/train-sweep.json] [--fresh]
//
// ./build.sh sweep runs it (about an hour and a half on two cores). The file
// is rewritten after every run, so a partial sweep can be read, and a run
// already in it (same defaults and text) is not trained again unless
// --fresh. tests/js/train-sweep.test.mjs checks it against the lab's
// defaults, and the page's claims against it; a browser test trains two of
// its cells again.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { LAB_DEFAULTS, LAB_DEPTHS, LAB_LRS, LAB_RUNS, LAB_STEPS, runOptions } from '../../web/src/lab/runs.js';
import { LAB_TEXT_FILES } from './lab-contrast.mjs';
import { runPool } from './train-pool.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const seeds = Array.from({ length: Number(arg('--seeds', 5)) }, (_, i) => i + 1);
const threads = Number(arg('--threads', availableParallelism()));
const out = arg('--out', join(ROOT, 'web/data/train-sweep.json'));

const texts = Object.fromEntries(
  Object.entries(LAB_TEXT_FILES).map(([lang, file]) => [lang, readFileSync(join(ROOT, file), 'utf8')]),
);
const textInfo = Object.fromEntries(
  Object.entries(LAB_TEXT_FILES).map(([lang, file]) => [
    lang,
    { file, bytes: Buffer.byteLength(texts[lang]), sha256: createHash('sha256').update(texts[lang]).digest('hex') },
  ]),
);
const defaults = { ...LAB_DEFAULTS, steps: LAB_STEPS };
const key = (r) => `${r.lang}|${r.layers}|${r.lr}|${r.run}|${r.seed}`;

// Runs kept from an earlier sweep of the same setup.
const kept = new Map();
if (!args.includes('--fresh') && existsSync(out)) {
  const earlier = JSON.parse(readFileSync(out, 'utf8'));
  if (
    JSON.stringify(earlier.defaults) === JSON.stringify(defaults) &&
    JSON.stringify(earlier.texts) === JSON.stringify(textInfo)
  ) {
    for (const row of earlier.rows) kept.set(key(row), row);
  }
}

const jobs = [];
for (const lang of Object.keys(texts)) {
  for (const layers of LAB_DEPTHS) {
    for (const lr of LAB_LRS) {
      for (const run of LAB_RUNS) {
        for (const seed of seeds) {
          const cell = { lang, layers, lr, run, seed };
          if (kept.has(key(cell))) continue;
          const options = runOptions(run, { ...LAB_DEFAULTS, layers, lr, seed, text: null }, LAB_STEPS, texts[lang]);
          jobs.push({ ...cell, options });
        }
      }
    }
  }
}
// The deepest first, so the cores finish together.
jobs.sort((a, b) => b.layers - a.layers);

const commit = (() => {
  try {
    return execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const started = Date.now();
const loadBefore = loadavg()[0];
const rows = [...kept.values()];
const order = (r) => [Object.keys(texts).indexOf(r.lang), r.layers, r.lr, LAB_RUNS.indexOf(r.run), r.seed];
function write() {
  rows.sort((a, b) => {
    const x = order(a);
    const y = order(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
  });
  const table = {
    what: 'the trainer sweep: depth x learning rate x the lab runs x seeds, wasm SIMD128 under Node',
    command: 'node tests/bench/train-sweep.mjs (./build.sh sweep)',
    made: {
      date: new Date().toISOString().slice(0, 16) + 'Z',
      commit,
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      threads,
      seconds: Math.round((Date.now() - started) / 1000),
      loadBefore: Number(loadBefore.toFixed(2)),
      loadAfter: Number(loadavg()[0].toFixed(2)),
    },
    defaults,
    grid: { layers: LAB_DEPTHS, lr: LAB_LRS, runs: LAB_RUNS, seeds },
    texts: textInfo,
    complete:
      rows.length === Object.keys(texts).length * LAB_DEPTHS.length * LAB_LRS.length * LAB_RUNS.length * seeds.length,
    rows,
  };
  writeFileSync(out, JSON.stringify(table, null, 1) + '\n');
}

console.log(`trainer sweep: ${jobs.length} runs of ${LAB_STEPS} steps on ${threads} threads (${kept.size} kept)`);
await runPool(jobs, {
  threads,
  onResult: (i, s) => {
    const { options, ...cell } = jobs[i];
    const { curves, ...summary } = s;
    rows.push({ ...cell, ...summary });
    write();
    console.log(
      `  ${cell.lang.padEnd(5)} L ${String(cell.layers).padStart(2)} lr ${String(cell.lr).padEnd(6)} ${cell.run.padEnd(6)} ` +
        `seed ${cell.seed}: ${s.outcome.padEnd(8)} final ${s.final.toFixed(3)}`,
    );
  },
});
write();
console.log(`wrote ${out} (${rows.length} runs) in ${Math.round((Date.now() - started) / 1000)} s`);
