// The training lab's parts that run without a browser: its text in both
// languages, the trainer options of each run, the test-only step count, the
// reader's guess as the learner store keeps it, and the reading worded from
// a contrast's numbers (worked examples with made-up runs, each sentence
// chosen by the thresholds it names).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { createMemoryLearnerStore } from '../../web/src/learner.js';
import { readPredictions, writePrediction } from '../../web/src/predictions.js';
import {
  LEARNED_BELOW,
  RATIO_COLLAPSED,
  STALLED_WITHIN,
  finalLoss,
  gradientRatios,
  labConclusions,
  runOutcome,
} from '../../web/src/lab/conclusions.js';
import { GROWTH_FACTOR, PINNED_WITHIN, float32Text, layerNormsReading } from '../../web/src/lab/layer-norms.js';
import { LAB_DEFAULTS, LAB_RUNS, LAB_STEPS, labSteps, runOptions } from '../../web/src/lab/runs.js';
import { cellKey, cellSummary, sweepReading, sweepTable, sweepVerdict } from '../../web/src/lab/sweep.js';
import { LAB_DICTIONARIES, labText } from '../../web/src/lab/text.js';

const sweep = JSON.parse(readFileSync(new URL('../../web/data/train-sweep.json', import.meta.url), 'utf8'));

const placeholders = (text) => [...text.matchAll(/\{([a-zA-Z][a-zA-Z0-9]*)\}/g)].map((m) => m[1]).sort();

test('the lab says the same things in both languages, and every key it uses exists', () => {
  const { en, 'zh-CN': zh } = LAB_DICTIONARIES;
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const [key, text] of Object.entries(en)) {
    assert.ok(typeof text === 'string' && text.trim() && zh[key].trim(), key);
    assert.deepEqual(placeholders(zh[key]), placeholders(text), `placeholders of ${key}`);
  }
  const source = ['lab-widget.js', 'conclusions.js', 'sweep.js', 'layer-norms.js']
    .map((f) => readFileSync(new URL(`../../web/src/lab/${f}`, import.meta.url), 'utf8'))
    .join('\n');
  const used = new Set(
    [
      ...source.matchAll(/\bt\('([a-zA-Z]+)'/g),
      ...source.matchAll(/key: '([a-zA-Z]+)'/g),
      ...source.matchAll(
        /(?:[{,]\s*|\? |: )'(run[A-Z][a-zA-Z]+|ratio[A-Z][a-zA-Z]+|warmup[A-Z][a-zA-Z]+|guess[A-Z][a-zA-Z]+|sweep[A-Z][a-zA-Z]+)'/g,
      ),
    ].map((m) => m[1]),
  );
  assert.ok(used.size > 40, `only ${used.size} keys found`);
  for (const key of used) assert.ok(key in en, `en lacks ${key}`);
  assert.equal(labText('zh-CN').t('stepOf', { step: 3, steps: 30 }), '第 3 步，共 30 步');
  assert.equal(labText('en').list(['pre-norm', 'post-norm']), 'pre-norm and post-norm');
  assert.throws(() => labText('en').t('nope'), /missing lab string "nope" for en/);
});

test('each run of the contrast is the demonstration config with its placement and warmup', () => {
  const shape = { hidden: 32, heads: 4, seq: 64, batch: 8, layers: 24, norm: 'rmsnorm', lr: 3e-3, steps: 400, seed: 1 };
  assert.deepEqual(
    LAB_RUNS.map((id) => runOptions(id, LAB_DEFAULTS, LAB_STEPS)),
    [
      { ...shape, placement: 'pre', warmup: 0 },
      { ...shape, placement: 'post', warmup: 0 },
      { ...shape, placement: 'post', warmup: 100 },
    ],
  );
  assert.equal(runOptions('pre', { ...LAB_DEFAULTS, text: 'own words' }, 5).text, 'own words');
});

test('NORMLAB_LAB_STEPS shortens the runs for tests; anything but an integer in 1..400 is ignored', () => {
  assert.equal(labSteps({}), 400);
  assert.equal(labSteps({ NORMLAB_LAB_STEPS: 30 }), 30);
  for (const bad of [0, 401, 2.5, '30', NaN, null])
    assert.equal(labSteps({ NORMLAB_LAB_STEPS: bad }), 400, String(bad));
});

test('the guess is kept in the learner store as a list of runs, and a bad record reads as absent', () => {
  const store = createMemoryLearnerStore();
  writePrediction(store, 'l', { g: ['pre', 'warmup'] });
  assert.deepEqual(readPredictions(store).l, { g: ['pre', 'warmup'] });
  writePrediction(store, 'l', { g: [] });
  assert.deepEqual(readPredictions(store).l, { g: [] });
  writePrediction(store, 'l', { s: 1 });
  assert.deepEqual(readPredictions(store).l, { s: 1 });
  for (const bad of [{ g: ['pre', 'pre'] }, { g: ['deep'] }, { g: 'pre' }, { g: [], x: 1 }]) {
    assert.throws(() => writePrediction(store, 'l', bad), /prediction l is not a valid record/);
  }
  store.write('predictions', { l: { g: ['sideways'] } });
  assert.equal(readPredictions(store).l, undefined);
});

// A run record as the runner keeps it: every step's loss `final` except the
// first, which the final loss (the mean of the last 20) must leave out in a
// run of more than 20 steps; ratios: first/last per step; the held-out loss
// 0.25 above the final one.
const H = 4.25;
function run(id, final, ratios, extra = {}) {
  return {
    id,
    status: 'done',
    heldout: final + 0.25,
    entropy: H,
    loss: ratios.map((_, i) => (i === 0 && ratios.length > 20 ? 9 : final)),
    gradFirst: ratios.map((r) => r * 0.5),
    gradLast: ratios.map(() => 0.5),
    divergedAt: null,
    ...extra,
  };
}

test("a run learned, stalled, sits between, stays above or diverged by the issue's thresholds", () => {
  assert.equal(LEARNED_BELOW, 0.3);
  assert.equal(STALLED_WITHIN, 0.2);
  assert.equal(runOutcome(run('pre', H - 0.31, [1])), 'learned');
  assert.equal(runOutcome(run('pre', H - 0.29, [1])), 'between');
  assert.equal(runOutcome(run('pre', H - 0.21, [1])), 'between');
  assert.equal(runOutcome(run('pre', H - 0.19, [1])), 'stalled');
  assert.equal(runOutcome(run('pre', H + 0.19, [1])), 'stalled');
  assert.equal(runOutcome(run('pre', H + 0.21, [1])), 'above');
  assert.equal(runOutcome(run('pre', NaN, [1], { status: 'diverged' })), 'diverged');
  assert.equal(runOutcome(run('pre', NaN, [1], { status: 'training' })), 'none');
  assert.deepEqual(gradientRatios(run('pre', 2, [0.5, 2])), [0.5, 2]);
  assert.equal(finalLoss({ loss: [9, ...Array(20).fill(3)] }), 3);
  assert.equal(finalLoss({ loss: [5, 3] }), 4);
});

test("the reading of the issue's contrast: pre-norm and warmup learn, post-norm stalls with a collapsed gradient", () => {
  const runs = [run('pre', 3.0, [1.2, 0.9, 1.1]), run('post', 4.2, [1, 1e-4, 1e-7]), run('warmup', 2.4, [1, 0.8, 0.7])];
  const sentences = labConclusions(runs, {
    settings: { warmup: 100, lr: 3e-3 },
    steps: 400,
    guess: { g: ['pre', 'post'] },
  });
  assert.deepEqual(sentences, [
    { key: 'runLearned', params: { run: 'pre', final: 3.0, window: 3, heldout: 3.25, entropy: H, gap: H - 3.0 } },
    {
      key: 'runStalled',
      params: { run: 'post', final: 4.2, window: 3, heldout: 4.45, entropy: H, gap: STALLED_WITHIN },
    },
    { key: 'runLearned', params: { run: 'warmup', final: 2.4, window: 3, heldout: 2.65, entropy: H, gap: H - 2.4 } },
    { key: 'ratioKept', params: { run: 'pre', low: 0.9, high: 1.2 } },
    { key: 'ratioCollapsed', params: { run: 'post', ratio: 1e-7, low: 1e-7, lowStep: 3 } },
    { key: 'ratioKept', params: { run: 'warmup', low: 0.7, high: 1 } },
    { key: 'warmupHelped', params: { warmup: 100, warm: 2.4, cold: 4.2 } },
    { key: 'guessDiffer', params: { guessed: ['pre', 'post'], learned: ['pre', 'warmup'] } },
  ]);
  assert.ok(1e-7 < RATIO_COLLAPSED);
});

test('a short run: nothing learned yet, a warmup longer than the run, a diverged run, a guess that matched', () => {
  const runs = [run('post', 4.6, [1, 0.02]), run('warmup', NaN, [1], { status: 'diverged', divergedAt: 7 })];
  const sentences = labConclusions(runs, { settings: { warmup: 100, lr: 1e-2 }, steps: 30, guess: { g: [] } });
  assert.deepEqual(
    sentences.map((s) => s.key),
    ['runAbove', 'runDiverged', 'ratioKept', 'warmupLonger', 'guessMatch'],
  );
  assert.equal(sentences[0].params.gap.toFixed(6), (4.6 - H).toFixed(6));
  assert.deepEqual(sentences[1].params, { run: 'warmup', step: 7 });
  assert.deepEqual(sentences[3].params, { warmup: 100, steps: 30, lr: 1e-2 });
  assert.deepEqual(sentences[4].params, { guessed: [], learned: [] });
  // Without a guess (skipped), no comparison.
  assert.equal(
    labConclusions(runs, { settings: { warmup: 100, lr: 1e-2 }, steps: 30, guess: null }).at(-1).key,
    'warmupLonger',
  );
});

test("the map's table holds every cell of the committed sweep, measured or not, without the curves", () => {
  const table = sweepTable(sweep);
  assert.deepEqual(table.grid, { layers: [6, 12, 24, 48], lr: [1e-3, 3e-3, 5e-3, 1e-2], seeds: [1, 2, 3] });
  assert.equal(table.steps, 400);
  assert.equal(table.warmup, 100);
  assert.equal(table.entropy, sweep.text.unigram_entropy);
  assert.equal(Object.keys(table.cells).length, 4 * 4 * 3);
  const entries = Object.values(table.cells).flat();
  assert.equal(entries.length, 144);
  assert.equal(entries.filter((e) => e.verdict === 'not run').length, sweep.not_run.length);
  assert.equal(entries.filter((e) => e.verdict !== 'not run').length, sweep.runs.length);
  for (const cell of Object.values(table.cells))
    assert.deepEqual(
      cell.map((e) => e.seed),
      [1, 2, 3],
    );
  // One row as committed.
  const row = sweep.runs.find((r) => r.layers === 24 && r.lr === 3e-3 && r.variant === 'post' && r.seed === 1);
  assert.deepEqual(table.cells[cellKey('post', 24, 3e-3)][0], {
    seed: 1,
    verdict: row.verdict,
    final: row.final_train_loss,
    heldout: row.heldout,
    divergedAt: null,
    build: row.build,
  });
  assert.deepEqual(table.builds.map((b) => b.commit).sort(), [...new Set(sweep.runs.map((r) => r.build))].sort());
  assert.ok(JSON.stringify(table).length < sweep.runs.length * 200, 'no curves');
});

test("a map cell: the seeds' marks, the median held-out loss, the verdict most seeds reached", () => {
  const e = (seed, verdict, heldout) => ({ seed, verdict, heldout });
  assert.deepEqual(cellSummary([e(1, 'learned', 3), e(2, 'stalled', 4.5), e(3, 'learned', 2)]), {
    verdicts: ['learned', 'stalled', 'learned'],
    median: 3,
    verdict: 'learned',
    counts: { diverged: 0, stalled: 1, learned: 2 },
  });
  assert.equal(cellSummary([e(1, 'learned', 3), e(2, 'stalled', 4)]).median, 3.5);
  assert.equal(
    cellSummary([e(1, 'learned', 3), e(2, 'stalled', 4)]).verdict,
    'stalled',
    'a tie goes to the worse verdict',
  );
  assert.deepEqual(cellSummary([{ seed: 1, verdict: 'not run' }]), {
    verdicts: ['not run'],
    median: null,
    verdict: 'not run',
    counts: { diverged: 0, stalled: 0, learned: 0 },
  });
  assert.equal(sweepVerdict(false, 3.95, 4.25), 'learned');
  assert.equal(sweepVerdict(false, 3.96, 4.25), 'stalled');
  assert.equal(sweepVerdict(true, 2, 4.25), 'diverged');
});

test('what the committed sweep says at 24 layers and lr 3e-3: post-norm stalls past 6 layers; tuned, it ends lower', () => {
  const sentences = sweepReading(sweepTable(sweep), { layers: 24, lr: 3e-3 });
  assert.deepEqual(
    sentences.map((s) => [s.key, s.params.run, s.params.learnedAt, s.params.failedAt]),
    [
      ['sweepDepths', 'pre', [6, 12, 24], [48]],
      ['sweepDepths', 'post', [6, 12], [24, 48]],
      ['sweepDepths', 'warmup', [6, 12, 24], [48]],
      ['sweepTunedPostLower', undefined, undefined, undefined],
    ],
  );
  const tuned = sentences[3].params;
  const heldout = (variant, lr) =>
    sweep.runs
      .filter((r) => r.layers === 24 && r.lr === lr && r.variant === variant)
      .map((r) => r.heldout)
      .sort((a, b) => a - b)[1];
  assert.deepEqual(tuned, {
    layers: 24,
    post: heldout('post', 1e-3),
    postLr: 1e-3,
    pre: heldout('pre', 1e-3),
    preLr: 1e-3,
    preCount: 4,
    postCount: 1,
    total: 4,
  });
  // A depth and learning rate outside the grid: nothing to say.
  assert.deepEqual(sweepReading(sweepTable(sweep), { layers: 7, lr: 2e-3 }), []);
});

test('the layer-norm reading: growth from first layer to last, norm outputs against sqrt(d)', () => {
  const sqrt32 = Math.sqrt(32);
  // A pre-norm probe of 3 layers whose stream goes 0.2 -> 0.9 (x 4.5) and
  // whose norm outputs stay within 2% of sqrt(32).
  const norms = (outs, ins = [1, 1, 1]) => ({
    inputNorm: { in: ins, out: outs.slice(0, 3) },
    postAttentionNorm: { in: ins, out: outs.slice(3) },
  });
  const pinned = [0.99, 1, 1.01, 1.02, 0.98, 1].map((f) => f * sqrt32);
  const pre = { step: 0, residual: [0.2, 0.4, 0.6, 0.9], norms: norms(pinned) };
  const reading = layerNormsReading(pre, { when: 'before', placement: 'pre', hidden: 32 });
  assert.deepEqual(
    reading.map((s) => s.key),
    ['streamGrows', 'normsPinned'],
  );
  assert.ok(Math.abs(reading[0].params.factor - 4.5) < 1e-12);
  assert.equal(reading[0].params.lastLayer, 2);
  assert.deepEqual([reading[1].params.low, reading[1].params.high], [0.98 * sqrt32, 1.02 * sqrt32]);
  assert.ok(Math.abs(reading[1].params.percent - 2) < 1e-9);

  // Post-norm: the MLP-side norms' inputs are the sums that grow; outputs
  // spread to 1.5 sqrt(32) by their gains.
  const spread = [1, 1.5, 1, 1, 1, 1].map((f) => f * sqrt32);
  const post = { step: 30, residual: [0.2, sqrt32, sqrt32, sqrt32], norms: norms(spread, [2, 2.5, 2.9]) };
  const postReading = layerNormsReading(post, { when: 'after', placement: 'post', hidden: 32 });
  assert.deepEqual(
    postReading.map((s) => s.key),
    ['sumsLevel', 'normsSpread'],
  );
  assert.ok(Math.abs(postReading[0].params.factor - 1.45) < 1e-12);
  assert.ok(Math.abs(postReading[1].params.percent - 50) < 1e-9);
  // Just at the thresholds.
  assert.equal(
    layerNormsReading({ residual: [1, GROWTH_FACTOR], norms: null }, { when: 'after', placement: 'pre', hidden: 32 })[0]
      .key,
    'streamGrows',
  );
  assert.equal(
    layerNormsReading(
      { residual: [1, 1 / GROWTH_FACTOR], norms: null },
      { when: 'after', placement: 'pre', hidden: 32 },
    )
      .map((s) => s.key)
      .join(),
    'streamShrinks',
  );
  const edge = (f) =>
    layerNormsReading(
      { residual: [1, 1], norms: norms([f, 1, 1, 1, 1, 1].map((g) => g * sqrt32)) },
      { when: 'after', placement: 'pre', hidden: 32 },
    )[1].key;
  assert.equal(edge(1 + 0.999 * PINNED_WITHIN), 'normsPinned');
  assert.equal(edge(1 - 1.001 * PINNED_WITHIN), 'normsSpread');
});

test('float32Text writes the shortest decimal that reads back as the same float32', () => {
  for (const v of [Math.sqrt(32), 0.1, 1 / 3, 5.656854, 123456.78, 1e-7, 2 ** -20]) {
    const f = Math.fround(v);
    const text = float32Text(f);
    assert.equal(Math.fround(Number(text)), f, text);
    // One digit fewer would not read back as the same float32.
    const digits = text.replace(/^0\.0*|[.-]|e.*$/g, '').length;
    if (digits > 1) assert.notEqual(Math.fround(Number(f.toPrecision(digits - 1))), f, text);
  }
  assert.equal(float32Text(Math.fround(Math.sqrt(32))), '5.656854');
  assert.equal(float32Text(0.5), '0.5');
  assert.equal(float32Text(NaN), 'NaN');
});
