// What every committed table of trained runs says about itself (the sweeps,
// the robustness table): where and how it was made, and which committed
// texts it trained on, so that a table made with other defaults or another
// text is recognised as such.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { LAB_DEFAULTS, LAB_STEPS, runOptions } from '../../web/src/lab/runs.js';
import { LAB_TEXT_FILES } from './lab-contrast.mjs';
import { runPool } from './train-pool.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// The value after `name` in argv, or fallback.
export function argOf(args, name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
}

// Each page language's committed training text, and what a table records
// of it ({ file, bytes, sha256 }).
export function committedTexts(langs = Object.keys(LAB_TEXT_FILES)) {
  const texts = Object.fromEntries(langs.map((lang) => [lang, readFileSync(join(ROOT, LAB_TEXT_FILES[lang]), 'utf8')]));
  const info = Object.fromEntries(
    langs.map((lang) => [
      lang,
      {
        file: LAB_TEXT_FILES[lang],
        bytes: Buffer.byteLength(texts[lang]),
        sha256: createHash('sha256').update(texts[lang]).digest('hex'),
      },
    ]),
  );
  return { texts, info };
}

// Every cell of a sweep's grid, in the table's order (language, depth,
// learning rate, run, seed), each with the trainer options the lab's own
// code builds for it at full length: { lang, layers, lr, run, seed, options }.
export function gridCells(texts, grid) {
  const cells = [];
  for (const lang of Object.keys(texts))
    for (const layers of grid.layers)
      for (const lr of grid.lr)
        for (const run of grid.runs)
          for (const seed of grid.seeds) {
            const settings = { ...LAB_DEFAULTS, layers, lr, seed, text: null };
            cells.push({ lang, layers, lr, run, seed, options: runOptions(run, settings, LAB_STEPS, texts[lang]) });
          }
  return cells;
}

// A clock for one table: made() gives its `made` record at any time.
export function madeRecorder(threads) {
  const started = Date.now();
  const loadBefore = loadavg()[0];
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    // Not a checkout: the table says so.
  }
  return () => ({
    date: new Date().toISOString().slice(0, 16) + 'Z',
    commit,
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    threads,
    seconds: Math.round((Date.now() - started) / 1000),
    loadBefore: Number(loadBefore.toFixed(2)),
    loadAfter: Number(loadavg()[0].toFixed(2)),
  });
}

// Trains a sweep's jobs on a pool of threads (train-pool.mjs) into a table
// rewritten after every run, so a partial sweep can be read; a run already
// in an earlier table of the same defaults and texts is kept, not trained
// again, unless `fresh`.
//   spec: { out, what, command, threads, defaults, grid, textInfo, fresh,
//           cells: every cell of the grid in the table's order, each
//                  { ...keys, options } (createTrainer's options),
//           keys: the names that identify a cell (e.g. lang, layers, lr, run, seed),
//           line(cell, summary): the console line of a finished run }
//   A row is the cell's keys and runSummary's figures (train-summary.mjs)
//   without its curves, unless keepCurves(summary.curves) returns some.
export async function runSweep(spec) {
  const { out, cells, keys, threads } = spec;
  const key = (row) => keys.map((k) => row[k]).join('|');
  const position = new Map(cells.map((cell, i) => [key(cell), i]));
  const kept = new Map();
  if (!spec.fresh && existsSync(out)) {
    const earlier = JSON.parse(readFileSync(out, 'utf8'));
    if (
      JSON.stringify(earlier.defaults) === JSON.stringify(spec.defaults) &&
      JSON.stringify(earlier.texts) === JSON.stringify(spec.textInfo)
    ) {
      for (const row of earlier.rows) if (position.has(key(row))) kept.set(key(row), row);
    }
  }
  // The slowest first (the deepest), so the cores finish together.
  const jobs = cells.filter((cell) => !kept.has(key(cell))).sort((a, b) => b.options.layers - a.options.layers);
  const made = madeRecorder(threads);
  const rows = [...kept.values()];
  const write = () => {
    rows.sort((a, b) => position.get(key(a)) - position.get(key(b)));
    const table = {
      what: spec.what,
      command: spec.command,
      made: made(),
      defaults: spec.defaults,
      grid: spec.grid,
      texts: spec.textInfo,
      complete: rows.length === cells.length,
      rows,
    };
    writeFileSync(out, JSON.stringify(table, null, 1) + '\n');
  };
  console.log(`${spec.what}: ${jobs.length} runs on ${threads} threads (${kept.size} kept)`);
  await runPool(jobs, {
    threads,
    onResult: (i, summary) => {
      const cell = Object.fromEntries(keys.map((k) => [k, jobs[i][k]]));
      const { curves, ...figures } = summary;
      rows.push({ ...cell, ...figures, ...(spec.keepCurves?.(curves) ?? {}) });
      write();
      console.log(`  ${spec.line(cell, summary)}`);
    },
  });
  write();
  console.log(`wrote ${out} (${rows.length} runs) in ${made().seconds} s`);
}
