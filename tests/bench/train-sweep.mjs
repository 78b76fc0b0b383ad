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
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

import { LAB_DEFAULTS, LAB_DEPTHS, LAB_LRS, LAB_RUNS, LAB_STEPS } from '../../web/src/lab/runs.js';
import { argOf, committedTexts, gridCells, ROOT, runSweep } from './sweep-file.mjs';

const args = process.argv.slice(2);
const seeds = Array.from({ length: Number(argOf(args, '--seeds', 5)) }, (_, i) => i + 1);
const { texts, info } = committedTexts();

const grid = { layers: LAB_DEPTHS, lr: LAB_LRS, runs: LAB_RUNS, seeds };

await runSweep({
  out: argOf(args, '--out', join(ROOT, 'web/data/train-sweep.json')),
  what: 'the trainer sweep: depth x learning rate x the lab runs x seeds, wasm SIMD128 under Node',
  command: 'node tests/bench/train-sweep.mjs (./build.sh sweep)',
  threads: Number(argOf(args, '--threads', availableParallelism())),
  fresh: args.includes('--fresh'),
  defaults: { ...LAB_DEFAULTS, steps: LAB_STEPS },
  grid,
  textInfo: info,
  cells: gridCells(texts, grid),
  keys: ['lang', 'layers', 'lr', 'run', 'seed'],
  line: (c, s) =>
    `${c.lang.padEnd(5)} L ${String(c.layers).padStart(2)} lr ${String(c.lr).padEnd(6)} ${c.run.padEnd(6)} ` +
    `seed ${c.seed}: ${s.outcome.padEnd(8)} final ${s.final.toFixed(3)}`,
});
