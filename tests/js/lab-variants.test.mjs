// The lab's parts for the variants that run without a browser: which runs
// the trainer takes (runAccepted, read from its option table), the presets,
// each step's largest logit over the layers (stepMaxLogits), the maxLogit
// series through a patch and a checkpoint's record, every run's label in
// both languages, and the reading of a contrast that has variants in it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { formatVariants } from '../../web/src/claim-params.js';
import { CHECKPOINT_VERSION, recordAt } from '../../web/src/lab/checkpoints.js';
import { variantClaimProblems, variantClaims } from '../../web/src/lab/claims.js';
import { labConclusions, outcomeOf, runOutcome } from '../../web/src/lab/conclusions.js';
import { layerNormsReading, streamNormed } from '../../web/src/lab/layer-norms.js';
import { RUN_LABEL } from '../../web/src/lab/labels.js';
import { applyPatch, emptySeries, stepMaxLogits } from '../../web/src/lab/run-work.js';
import {
  CONTRAST_PRESETS,
  LAB_RUNS,
  RUN_CHANGES,
  RUN_CHOICES,
  VARIANT_RUNS,
  runAccepted,
} from '../../web/src/lab/runs.js';
import { LAB_DICTIONARIES } from '../../web/src/lab/text.js';

const OPTIONS = JSON.parse(readFileSync(new URL('../../dist/normlab-options.json', import.meta.url), 'utf8'));

test('a run is offered when the trainer takes each option it changes, a choice among its choices', () => {
  const rows = [
    { name: 'placement', kind: 'choice', choices: ['pre', 'post'] },
    { name: 'norm', kind: 'choice', choices: ['rmsnorm', 'layernorm', 'none'] },
    { name: 'warmup', kind: 'integer' },
  ];
  assert.equal(runAccepted('pre', rows), true);
  assert.equal(runAccepted('warmup', rows), true);
  assert.equal(runAccepted('sandwich', rows), false, 'a placement the trainer has no choice for');
  assert.equal(runAccepted('qknorm', rows), false, 'an option the trainer has no row for');
  assert.equal(runAccepted('dyt', rows), false, 'a norm the trainer has no choice for');
  const later = [
    { name: 'placement', kind: 'choice', choices: ['pre', 'post', 'sandwich', 'output', 'deepnorm'] },
    { name: 'norm', kind: 'choice', choices: ['rmsnorm', 'layernorm', 'none', 'dyt'] },
    { name: 'qkNorm', kind: 'boolean' },
  ];
  for (const id of VARIANT_RUNS) assert.equal(runAccepted(id, later), true, id);
});

test("the presets: the chapter's three, and what current models do as far as this trainer takes it", () => {
  assert.deepEqual(CONTRAST_PRESETS.chapter, LAB_RUNS);
  assert.deepEqual(
    CONTRAST_PRESETS.current,
    VARIANT_RUNS.filter((id) => runAccepted(id, OPTIONS.trainer)),
  );
  assert.deepEqual(CONTRAST_PRESETS.current.slice(0, 2), ['pre', 'post']);
  // Every run offered once, the chapter's first.
  assert.deepEqual(RUN_CHOICES.slice(0, 3), LAB_RUNS);
  assert.equal(new Set(RUN_CHOICES).size, RUN_CHOICES.length);
  for (const id of RUN_CHOICES) assert.ok(id in RUN_CHANGES, id);
});

test('every run has a label in both languages, each its own', () => {
  for (const lang of ['en', 'zh-CN']) {
    const labels = Object.keys(RUN_CHANGES).map((id) => LAB_DICTIONARIES[lang][RUN_LABEL[id]]);
    for (const label of labels) assert.equal(typeof label, 'string');
    assert.equal(new Set(labels).size, labels.length, `${lang}: labels differ`);
  }
  // Written in Chinese, not left in English.
  for (const id of ['qknorm', 'sandwich', 'output', 'dyt']) {
    assert.match(LAB_DICTIONARIES['zh-CN'][RUN_LABEL[id]], /[\u4e00-\u9fff]/, id);
  }
});

test("each step's largest logit is the max over its layers, NaN where a layer is NaN", () => {
  const layers = 3;
  const byLayer = Float32Array.of(1.5, 2.25, -1, 0.1, 0.3, 0.2, 7, NaN, 1);
  assert.deepEqual(stepMaxLogits(byLayer, layers).slice(0, 2), [2.25, 0.30000001192092896]);
  assert.ok(Number.isNaN(stepMaxLogits(byLayer, layers)[2]));
  assert.deepEqual(stepMaxLogits(new Float32Array(0), layers), []);
});

test('maxLogit goes through a patch into the record and into a checkpoint up to its step', () => {
  assert.deepEqual(emptySeries().maxLogit, []);
  const run = { ...emptySeries(), layerNorms: {}, nextChars: {}, status: 'waiting' };
  const append = { loss: [5, 4, 3], gradFirst: [1, 1, 1], gradLast: [1, 1, 1] };
  append.updateFirst = [1, 1, 1];
  append.updateLast = [1, 1, 1];
  append.maxLogit = [0.5, 0.75, 1.25];
  applyPatch(run, { status: 'training', append, set: {} });
  assert.deepEqual(run.maxLogit, [0.5, 0.75, 1.25]);
  assert.deepEqual(recordAt(run, 2).maxLogit, [0.5, 0.75]);
  // Records saved before maxLogit was kept are of another version.
  assert.equal(CHECKPOINT_VERSION, 2);
});

test('the reading of a contrast with a variant: each run from its own numbers, the guess about the chapter’s runs', () => {
  const H = 4.25;
  const run = (id, final, ratio, extra = {}) => ({
    id,
    status: 'done',
    heldout: final + 0.25,
    entropy: H,
    loss: [final, final],
    gradFirst: [ratio, ratio],
    gradLast: [1, 1],
    updateFirst: [1, 1],
    updateLast: [1, 1],
    divergedAt: null,
    ...extra,
  });
  const runs = [
    run('pre', 3, 1),
    run('post', 4.2, 1e-4, { updateFirst: [1e-4, 1e-4] }),
    run('qknorm', 2.9, 1),
    run('sandwich', 4.3, 0.5),
    run('deepnorm', NaN, 1, { status: 'diverged', divergedAt: 17 }),
  ];
  const sentences = labConclusions(runs, { settings: { warmup: 200, lr: 3e-3 }, steps: 2, guess: { g: ['pre'] } });
  assert.deepEqual(
    sentences.map((s) => [s.key, s.params.run]),
    [
      ['runLearned', 'pre'],
      ['runCollapsed', 'post'],
      ['runLearned', 'qknorm'],
      ['runPlateau', 'sandwich'],
      ['runDiverged', 'deepnorm'],
      ['guessMatch', undefined],
    ],
  );
  // qknorm learned too, but the guess was about the chapter's runs.
  assert.deepEqual(sentences.at(-1).params, { guessed: ['pre'], learned: ['pre'] });
  // A contrast of variants only says nothing of the guess.
  const only = labConclusions([run('qknorm', 2.9, 1)], { settings: {}, steps: 2, guess: { g: ['pre'] } });
  assert.deepEqual(
    only.map((s) => s.key),
    ['runLearned'],
  );
});

test('DeepNorm is read as post-norm: the sums its norms receive, not its normed stream', () => {
  const probe = {
    residual: [1, 5.6, 5.6, 5.6],
    norms: {
      inputNorm: { in: [1, 6, 7], out: [5.6, 5.6, 5.6] },
      postAttentionNorm: { in: [6, 7, 8], out: [5.6, 5.6, 5.6] },
    },
  };
  assert.equal(streamNormed('deepnorm'), true);
  assert.equal(streamNormed('output'), false);
  assert.equal(streamNormed('sandwich'), false);
  const key = (placement) => layerNormsReading(probe, { when: 'after', placement, hidden: 32 })[0].key;
  assert.equal(key('deepnorm'), 'sumsLevel');
  assert.equal(key('post'), 'sumsLevel');
  assert.equal(key('output'), 'streamGrows');
  assert.equal(key('sandwich'), 'streamGrows');
});

test("After pre-norm's claims: the committed table's figures, and a table that stops saying them fails", () => {
  const table = JSON.parse(readFileSync(new URL('../../web/data/variant-sweep.json', import.meta.url), 'utf8'));
  const v = variantClaims(table);
  assert.deepEqual(variantClaimProblems(v), []);
  assert.equal(v.runsEach, 45);
  // Pre-norm's largest logit climbs with the rate; QK-norm's stays under its lowest.
  assert.ok(v.runs.qknorm.logitPeak < v.runs.pre.logitPeakAt[0]);
  const zh = formatVariants(v, 'zh-CN');
  assert.deepEqual([zh.depths, zh.rates, zh.widthRatio], ['6、24 和 48', '0.003、0.01 和 0.03', 8]);
  // QK-norm no longer bounding the logits, DeepNorm learning no more than
  // post-norm, DyT learning away from the lab's setting: each caught.
  const changed = (run, change) => ({ ...v, runs: { ...v.runs, [run]: { ...v.runs[run], ...change } } });
  assert.deepEqual(variantClaimProblems(changed('qknorm', { logitPeak: 500 })), [
    "QK-norm's largest score 500 is not under pre-norm's at the lowest rate",
  ]);
  assert.deepEqual(variantClaimProblems(changed('deepnorm', { learned: v.runs.post.learned })), [
    `DeepNorm learned ${v.runs.post.learned}, post-norm ${v.runs.post.learned}`,
  ]);
  assert.deepEqual(variantClaimProblems(changed('dyt', { learned: v.runs.dyt.learnedAtLab + 1 })), [
    "DyT learned away from the lab's setting",
  ]);
});

test('a stall with no gradient left is told apart from the other two', () => {
  const steps = 30;
  const record = (gradFirst, gradLast) => ({
    id: 'dyt',
    status: 'done',
    loss: Array(steps).fill(4.25),
    entropy: 4.25,
    heldout: 4.5,
    gradFirst: Array(steps).fill(gradFirst),
    gradLast: Array(steps).fill(gradLast),
    updateFirst: Array(steps).fill(0),
    updateLast: Array(steps).fill(0),
  });
  // Every gradient exactly zero over the last 20 steps (a DyT run at lr 0.03).
  assert.equal(runOutcome(record(0, 0)), 'vanished');
  // The last layer's zero and the first's not: no ratio to take either.
  assert.equal(runOutcome(record(1e-3, 0)), 'vanished');
  assert.equal(runOutcome(record(1e-5, 1e-2)), 'collapsed');
  assert.equal(runOutcome(record(1e-2, 1e-2)), 'plateau');
  // A table keeps the ratio that is not a number as null: the same verdict.
  assert.equal(outcomeOf({ diverged: false, final: 4.25, entropy: 4.25, gradRatio: null }), 'vanished');
  assert.equal(outcomeOf({ diverged: false, final: 3.5, entropy: 4.25, gradRatio: null }), 'learned');
  const [said] = labConclusions([record(0, 0)], { settings: { warmup: 200, lr: 0.03 }, steps, guess: null });
  assert.equal(said.key, 'runVanished');
  for (const lang of ['en', 'zh-CN']) assert.ok(LAB_DICTIONARIES[lang].runVanished.length > 100, lang);
});
