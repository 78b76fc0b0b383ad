// How the training lab's setup was chosen, measured in the build readers
// run (WebAssembly SIMD128 under Node) on the committed Chinese text:
//
//   1. Why pre-norm sat on the unigram plateau at the old setup (initial
//      weights of std 0.02, GPT-2's, at width 32): the trainer's own probes
//      every PROBE_EVERY steps of a pre-norm run, at the old and the
//      current initialization: the loss, each layer's stream length
//      (trainer.layerNorms().residual), the embedding's share of the final
//      norm's input (residual[0] / residual[L]), how alike the tokens'
//      vectors are where the head reads them (tokenSimilarity[L]), how spread
//      attention is (attentionEntropy, averaged over layers), and the first
//      and last layers' relative update size (updateFirst, updateLast).
//   2. What each candidate setup did: the lab's contrast (its three runs and
//      6-layer post-norm) over seeds 1..10 for each candidate, every change
//      applied alike to every run.
//
//   node tests/bench/lab-setup.mjs [--threads N]
//
// Writes web/data/lab-setup.json and, from it, web/data/lab-setup.md (every
// number in that text comes from the JSON). ./build.sh sweep runs it.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadNormlab } from '../../dist/normlab.mjs';
import { LAB_DEFAULTS, LAB_STEPS } from '../../web/src/lab/runs.js';
import { CONTRAST_RUNS, contrastOptions, robustnessCounts } from './lab-contrast.mjs';
import { runPool } from './train-pool.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const threads = Number(args[args.indexOf('--threads') + 1] || availableParallelism());
const TEXT = readFileSync(join(ROOT, 'web/data/training-text.zh.txt'), 'utf8');
const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);
const PROBE_EVERY = 10;
const PROBE_SEEDS = [1, 2, 3, 4];
// GPT-2's initial std, which the trainer used at every width before.
const GPT2_STD = 0.02;

// The candidates, each a change to the lab's default options (applied to
// every run of the contrast).
const CANDIDATES = [
  { id: 'old', change: { initStd: GPT2_STD, warmup: 100 } },
  { id: 'old-800', change: { initStd: GPT2_STD, warmup: 100, steps: 800 } },
  { id: 'old-lr2', change: { initStd: GPT2_STD, warmup: 100, lr: 2e-3 } },
  { id: 'fanin', change: { initStd: 1 / Math.sqrt(32) } },
  { id: 'width-w100', change: { warmup: 100 } },
];
// The lab's own setup is the last candidate: its runs are the robustness
// table's Chinese contrast (lab-robustness.json, the same options and so
// the same bits), read from there rather than trained twice.
const robustness = JSON.parse(readFileSync(join(ROOT, 'web/data/lab-robustness.json'), 'utf8'));

function candidateOptions(run, seed, change) {
  const { warmup, ...rest } = change;
  const options = { ...contrastOptions(run, seed, TEXT), ...rest };
  if (warmup !== undefined && run === 'warmup') options.warmup = warmup;
  return options;
}

// Part 1: the probes along one pre-norm run.
async function probeRun(nl, initStd, seed) {
  const options = candidateOptions('pre', seed, initStd === null ? {} : { initStd });
  const trainer = await nl.createTrainer(options);
  try {
    const L = trainer.config.layers;
    const points = [];
    const measure = (step, loss, updateFirst, updateLast) => {
      const p = trainer.layerNorms();
      const entropy = Array.from(p.attentionEntropy);
      points.push({
        step,
        loss,
        streamMid: p.residual[L / 2],
        streamLast: p.residual[L],
        embeddingShare: p.residual[0] / p.residual[L],
        tokenSimilarity: p.tokenSimilarity[L],
        attentionEntropy: entropy.reduce((s, v) => s + v, 0) / entropy.length,
        updateFirst,
        updateLast,
      });
    };
    measure(0, null, null, null);
    for (let s = 0; s < LAB_STEPS; s += PROBE_EVERY) {
      const r = trainer.step(PROBE_EVERY);
      const mean = (a) => a.reduce((x, v) => x + v, 0) / a.length;
      measure(s + PROBE_EVERY, mean(r.loss), mean(r.updateFirst), mean(r.updateLast));
    }
    return { initStd: trainer.config.initStd, seed, entropy: trainer.unigramEntropy, points };
  } finally {
    trainer.delete();
  }
}

const started = Date.now();
const nl = await loadNormlab({ backend: 'simd128' });
const probes = [];
for (const initStd of [GPT2_STD, null]) {
  for (const seed of PROBE_SEEDS) {
    probes.push(await probeRun(nl, initStd, seed));
    console.log(`probes: initStd ${probes.at(-1).initStd}, seed ${seed}`);
  }
}
nl.dispose();

// Part 2: the candidates' contrasts.
const jobs = CANDIDATES.flatMap(({ id, change }) =>
  SEEDS.flatMap((seed) =>
    CONTRAST_RUNS.map((run) => ({ candidate: id, seed, run, options: candidateOptions(run, seed, change) })),
  ),
);
const summaries = await runPool(jobs, {
  threads,
  onResult: (i, s) =>
    console.log(
      `  ${jobs[i].candidate.padEnd(10)} seed ${String(jobs[i].seed).padStart(2)} ${jobs[i].run.padEnd(6)} ${s.outcome}`,
    ),
});
const trained = jobs.map(({ options, ...job }, i) => {
  const { curves, ...summary } = summaries[i];
  return { lang: 'zh-CN', ...job, ...summary };
});
const candidate = (id, change, rows) => ({
  id,
  change,
  initStd: candidateOptions('pre', 1, change).initStd ?? null,
  counts: robustnessCounts(rows)['zh-CN'],
  rows: rows.map(({ lang, candidate: c, curves, lossCurve, ...row }) => row),
});
const candidates = [
  ...CANDIDATES.map(({ id, change }) =>
    candidate(
      id,
      change,
      trained.filter((row) => row.candidate === id),
    ),
  ),
  candidate(
    'lab',
    {},
    robustness.rows.filter((row) => row.lang === 'zh-CN'),
  ),
];

const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const table = {
  what: 'how the lab setup was chosen: probes along pre-norm runs, and candidate setups over seeds',
  command: 'node tests/bench/lab-setup.mjs (./build.sh sweep)',
  made: {
    date: new Date().toISOString().slice(0, 16) + 'Z',
    commit,
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    seconds: Math.round((Date.now() - started) / 1000),
  },
  defaults: { ...LAB_DEFAULTS, steps: LAB_STEPS },
  defaultInitStd: probes.at(-1).initStd,
  entropy: probes[0].entropy,
  seeds: SEEDS,
  probeEvery: PROBE_EVERY,
  probes,
  candidates,
};
writeFileSync(join(ROOT, 'web/data/lab-setup.json'), JSON.stringify(table, null, 1) + '\n');
const { writeLabSetupReport } = await import('./lab-setup-report.mjs');
writeLabSetupReport(table, join(ROOT, 'web/data/lab-setup.md'));
console.log(`wrote web/data/lab-setup.json and lab-setup.md in ${table.made.seconds} s`);
