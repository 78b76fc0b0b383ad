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
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

import { LAB_DEFAULTS, LAB_STEPS } from '../../web/src/lab/runs.js';
import { contrastJobs, ROBUSTNESS_CLAIMS, robustnessCounts } from './lab-contrast.mjs';
import { argOf, committedTexts, madeRecorder, ROOT } from './sweep-file.mjs';
import { runPool } from './train-pool.mjs';

const args = process.argv.slice(2);
const arg = (name, fallback) => argOf(args, name, fallback);
const seeds = Array.from({ length: Number(arg('--seeds', 10)) }, (_, i) => i + 1);
const threads = Number(arg('--threads', availableParallelism()));
const out = arg('--out', join(ROOT, 'web/data/lab-robustness.json'));

const { texts, info } = committedTexts();
const jobs = contrastJobs(texts, seeds);
const made = madeRecorder(threads);
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

// Each run's loss every CURVE_EVERY steps (train-summary.mjs) stays, for a
// reader who wants the seeds' curves; the other curves do not.
const rows = jobs.map((job, i) => {
  const { curves, ...s } = summaries[i];
  return { lang: job.lang, seed: job.seed, run: job.run, ...s, lossCurve: curves.loss };
});
const table = {
  what: 'the training lab default contrast over seeds, wasm SIMD128 under Node',
  command: 'node tests/bench/lab-robustness.mjs (./build.sh sweep)',
  made: made(),
  defaults: { ...LAB_DEFAULTS, steps: LAB_STEPS },
  texts: info,
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
