// The sweep of the normalization choices current models make, in the build
// every reader runs (WebAssembly SIMD128, under Node): depth x learning rate
// x variant (web/src/lab/runs.js: VARIANT_RUNS, plain pre- and post-norm
// beside QK-norm, sandwich, output norms, DeepNorm and DyT) x seeds, each at
// the lab's full length, with the lab's own options for the cell, on the
// committed Chinese text (the text the lab's setup was chosen on,
// web/data/lab-setup.md; one text keeps the sweep near an hour on two cores).
// Besides each run's outcome and losses it keeps
// the two probes the variants are about: the largest attention logit and
// the stream's norm layer by layer (train-summary.mjs).
//
//   node tests/bench/variant-sweep.mjs [--seeds 5] [--langs zh-CN] [--threads N]
//                                      [--out web/data/variant-sweep.json] [--fresh]
//
// ./build.sh sweep runs it. As train-sweep.mjs, the file is rewritten after
// every run and a run already in it (same defaults and text) is kept.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

import { LAB_DEFAULTS, LAB_STEPS, VARIANT_DEPTHS, VARIANT_LRS, VARIANT_RUNS } from '../../web/src/lab/runs.js';
import { CURVE_EVERY } from './train-summary.mjs';
import { argOf, committedTexts, gridCells, ROOT, runSweep } from './sweep-file.mjs';

const args = process.argv.slice(2);
const seeds = Array.from({ length: Number(argOf(args, '--seeds', 5)) }, (_, i) => i + 1);
const { texts, info } = committedTexts(argOf(args, '--langs', 'zh-CN').split(','));

const grid = { layers: VARIANT_DEPTHS, lr: VARIANT_LRS, runs: VARIANT_RUNS, seeds };

await runSweep({
  out: argOf(args, '--out', join(ROOT, 'web/data/variant-sweep.json')),
  what: 'the variant sweep: depth x learning rate x normalization variant x seeds, wasm SIMD128 under Node',
  command: 'node tests/bench/variant-sweep.mjs (./build.sh sweep)',
  threads: Number(argOf(args, '--threads', availableParallelism())),
  fresh: args.includes('--fresh'),
  defaults: { ...LAB_DEFAULTS, steps: LAB_STEPS },
  grid: { ...grid, curveEvery: CURVE_EVERY },
  textInfo: info,
  cells: gridCells(texts, grid),
  keys: ['lang', 'layers', 'lr', 'run', 'seed'],
  // The loss and the largest logit every CURVE_EVERY steps, for the page's charts.
  keepCurves: (curves) => ({ lossCurve: curves.loss, logitCurve: curves.maxLogit }),
  line: (c, s) =>
    `${c.lang.padEnd(5)} L ${String(c.layers).padStart(2)} lr ${String(c.lr).padEnd(6)} ${c.run.padEnd(8)} ` +
    `seed ${c.seed}: ${s.outcome.padEnd(8)} final ${s.final.toFixed(3)} logit peak ${s.logitPeak} ` +
    `stream growth ${s.streamGrowth}`,
});
