// The training lab's default contrast over many seeds, in the build every
// reader runs (WebAssembly SIMD128, here under Node: its arithmetic has no
// fused or relaxed operations, so a run gives the same bits in every
// engine), on each language's committed text. Every run's options are built
// by the lab's own code (web/src/lab/runs.js: LAB_DEFAULTS, runOptions) with
// only the seed changed; besides the lab's three runs (pre-norm, post-norm,
// post-norm with warmup) each seed also trains post-norm at 6 layers.
//
//   node tests/bench/lab-robustness.mjs [--seeds 10] [--threads N] [--out web/data/lab-robustness.json]
//
// ./build.sh sweep runs it. The table is committed; tests/js/lab-robustness.test.mjs
// checks the lab's claims on it, that it was made with the lab's current
// defaults, and trains a few of its rows again to compare them bit for bit.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { LAB_DEFAULTS, LAB_STEPS } from '../../web/src/lab/runs.js';
import { contrastJobs, LAB_TEXT_FILES, ROBUSTNESS_CLAIMS, robustnessCounts } from './lab-contrast.mjs';
import { runPool } from './train-pool.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const seeds = Array.from({ length: Number(arg('--seeds', 10)) }, (_, i) => i + 1);
const threads = Number(arg('--threads', availableParallelism()));
const out = arg('--out', join(ROOT, 'web/data/lab-robustness.json'));

const texts = Object.fromEntries(
  Object.entries(LAB_TEXT_FILES).map(([lang, file]) => [lang, readFileSync(join(ROOT, file), 'utf8')]),
);
const jobs = contrastJobs(texts, seeds);
const started = Date.now();
const loadBefore = loadavg()[0];
console.log(`lab robustness: ${jobs.length} runs of ${LAB_STEPS} steps on ${threads} threads`);
const summaries = await runPool(jobs, {
  threads,
  onResult: (i, s) =>
    console.log(
      `  ${jobs[i].lang.padEnd(5)} seed ${String(jobs[i].seed).padStart(2)} ${jobs[i].run.padEnd(6)} ` +
        `${s.outcome.padEnd(8)} final ${s.final.toFixed(3)} (entropy ${s.entropy.toFixed(3)}) ` +
        `update first/last ${s.updateRatio.toExponential(1)} grad ${s.gradRatio.toExponential(1)}`,
    ),
});

const commit = (() => {
  try {
    return execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
// Each run's loss every CURVE_EVERY steps (train-summary.mjs) stays, for a
// reader who wants the seeds' curves; the other curves do not.
const rows = jobs.map((job, i) => {
  const { curves, ...s } = summaries[i];
  return { lang: job.lang, seed: job.seed, run: job.run, ...s, lossCurve: curves.loss };
});
const table = {
  what: 'the training lab default contrast over seeds, wasm SIMD128 under Node',
  command: 'node tests/bench/lab-robustness.mjs (./build.sh sweep)',
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
  defaults: { ...LAB_DEFAULTS, steps: LAB_STEPS },
  texts: Object.fromEntries(
    Object.entries(LAB_TEXT_FILES).map(([lang, file]) => [
      lang,
      { file, bytes: Buffer.byteLength(texts[lang]), sha256: createHash('sha256').update(texts[lang]).digest('hex') },
    ]),
  ),
  seeds,
  claims: ROBUSTNESS_CLAIMS,
  counts: robustnessCounts(rows),
  rows,
};
writeFileSync(out, JSON.stringify(table, null, 1) + '\n');
console.log(`wrote ${out} in ${table.made.seconds} s`);
for (const [lang, byRun] of Object.entries(table.counts)) {
  console.log(
    `  ${lang}: ${Object.entries(byRun)
      .map(([run, c]) => `${run} ${JSON.stringify(c)}`)
      .join('; ')}`,
  );
}
