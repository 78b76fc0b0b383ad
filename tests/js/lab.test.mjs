// The training lab's parts that run without a browser: its text in both
// languages, the trainer options of each run, the test-only step count, the
// reader's guess as the learner store keeps it, and the reading worded from
// a contrast's numbers (worked examples with made-up runs, each sentence
// chosen by the thresholds it names).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
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
  outcomeOf,
  ratioMedian,
  runOutcome,
  updateRatio,
} from '../../web/src/lab/conclusions.js';
import { GROWTH_FACTOR, PINNED_WITHIN, float32Text, layerNormsReading } from '../../web/src/lab/layer-norms.js';
import {
  DEFAULT_SAMPLE_PROMPTS,
  LAB_DEFAULTS,
  LAB_DEPTHS,
  LAB_LRS,
  LAB_RUNS,
  LAB_STEPS,
  labSteps,
  runOptions,
  samplePrompt,
  VARIANT_RUNS,
} from '../../web/src/lab/runs.js';
import {
  cellKey,
  cellSummary,
  robustnessTable,
  seedsReading,
  sweepReading,
  sweepTable,
} from '../../web/src/lab/sweep.js';
import { utf8Parts } from '../../web/src/lab/utf8.js';
import { LAB_DICTIONARIES, labText } from '../../web/src/lab/text.js';

const sweep = JSON.parse(readFileSync(new URL('../../web/data/train-sweep.json', import.meta.url), 'utf8'));
const robustness = JSON.parse(readFileSync(new URL('../../web/data/lab-robustness.json', import.meta.url), 'utf8'));

const placeholders = (text) => [...text.matchAll(/\{([a-zA-Z][a-zA-Z0-9]*)\}/g)].map((m) => m[1]).sort();

test('the lab says the same things in both languages, and every key it uses exists', () => {
  const { en, 'zh-CN': zh } = LAB_DICTIONARIES;
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const [key, text] of Object.entries(en)) {
    assert.ok(typeof text === 'string' && text.trim() && zh[key].trim(), key);
    assert.deepEqual(placeholders(zh[key]), placeholders(text), `placeholders of ${key}`);
  }
  // The lab's code that names strings: the widget, its panels and what they share.
  const lab = new URL('../../web/src/lab/', import.meta.url);
  const source = [
    'lab-widget.js',
    'labels.js',
    'sentences.js',
    'step-charts.js',
    'chart-figure.js',
    'conclusions.js',
    'sweep.js',
    'layer-norms.js',
    ...readdirSync(new URL('panels/', lab)).map((f) => `panels/${f}`),
  ]
    .map((f) => readFileSync(new URL(f, lab), 'utf8'))
    .join('\n');
  const used = new Set(
    [
      ...source.matchAll(/\bt\('([a-zA-Z]+)'/g),
      ...source.matchAll(/key: '([a-zA-Z]+)'/g),
      ...source.matchAll(
        /(?:[{,]\s*|\? |: )'((?:run|ratio|warmup|guess|sweep|seeds|outcome|status|map)[A-Z][a-zA-Z0-9]+(?<!Count)|sameBits|otherBits)'/g,
      ),
    ].map((m) => m[1]),
  );
  assert.ok(used.size > 40, `only ${used.size} keys found`);
  for (const key of used) assert.ok(key in en, `en lacks ${key}`);
  assert.equal(labText('zh-CN').t('stepOf', { step: 3, steps: 30 }), '第 3 步，共 30 步');
  assert.equal(labText('en').list(['pre-norm', 'post-norm']), 'pre-norm and post-norm');
  assert.throws(() => labText('en').t('nope'), /missing lab string "nope" for en/);
});

test("each run of the contrast is the lab's default config with its placement, warmup and language's text", () => {
  const shape = { hidden: 32, heads: 4, seq: 64, batch: 8, layers: 24, norm: 'rmsnorm', lr: 3e-3, steps: 400, seed: 1 };
  assert.deepEqual(
    LAB_RUNS.map((id) => runOptions(id, LAB_DEFAULTS, LAB_STEPS, 'the page text')),
    [
      { ...shape, placement: 'pre', warmup: 0, text: 'the page text' },
      { ...shape, placement: 'post', warmup: 0, text: 'the page text' },
      { ...shape, placement: 'post', warmup: 200, text: 'the page text' },
    ],
  );
  assert.equal(runOptions('pre', { ...LAB_DEFAULTS, text: 'own words' }, 5, 'the page text').text, 'own words');
  // The variants: pre-norm's options with one change each (DyT replaces whichever norm is set).
  const variants = Object.fromEntries(
    VARIANT_RUNS.map((id) => [id, runOptions(id, { ...LAB_DEFAULTS, norm: 'layernorm' }, 7, 'the page text')]),
  );
  const base = { ...shape, norm: 'layernorm', steps: 7, placement: 'pre', warmup: 0, text: 'the page text' };
  assert.deepEqual(variants, {
    pre: base,
    post: { ...base, placement: 'post' },
    qknorm: { ...base, qkNorm: true },
    sandwich: { ...base, placement: 'sandwich' },
    output: { ...base, placement: 'output' },
    deepnorm: { ...base, placement: 'deepnorm' },
    dyt: { ...base, norm: 'dyt' },
  });
  // The sample's prompt: a word of each language's text, or the reader's first characters.
  assert.equal(samplePrompt(LAB_DEFAULTS, 'zh-CN'), '归一化');
  assert.equal(samplePrompt(LAB_DEFAULTS, 'en'), 'norm');
  assert.equal(samplePrompt({ ...LAB_DEFAULTS, text: '  Hello world' }, 'en'), 'Hel');
  for (const [lang, file] of [
    ['zh-CN', 'zh'],
    ['en', 'en'],
  ]) {
    const text = readFileSync(new URL(`../../web/data/training-text.${file}.txt`, import.meta.url), 'utf8');
    assert.ok(text.split(DEFAULT_SAMPLE_PROMPTS[lang]).length > 20, `${lang}: the prompt is common in the text`);
  }
});

test('utf8Parts: whole characters as text, every other byte on its own', () => {
  const bytes = (...b) => Uint8Array.from(b);
  assert.deepEqual(utf8Parts(new TextEncoder().encode('归一 ok')), [{ text: '归一 ok' }]);
  // 归 is E5 BD 92: cut after two bytes, then a stray continuation byte.
  assert.deepEqual(utf8Parts(bytes(0x61, 0xe5, 0xbd, 0x62, 0x92, 0xff, 0x63)), [
    { text: 'a' },
    { byte: 0xe5 },
    { byte: 0xbd },
    { text: 'b' },
    { byte: 0x92 },
    { byte: 0xff },
    { text: 'c' },
  ]);
  // An overlong or surrogate encoding is no character either.
  assert.deepEqual(utf8Parts(bytes(0xc0, 0x80)), [{ byte: 0xc0 }, { byte: 0x80 }]);
  assert.deepEqual(utf8Parts(bytes(0xed, 0xa0, 0x80)), [{ byte: 0xed }, { byte: 0xa0 }, { byte: 0x80 }]);
  assert.deepEqual(utf8Parts(bytes()), []);
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
// run of more than 20 steps; ratios: first/last per step (of the gradient,
// and of the update unless `updates` gives its own); the held-out loss 0.25
// above the final one.
const H = 4.25;
function run(id, final, ratios, extra = {}, updates = ratios) {
  return {
    id,
    status: 'done',
    heldout: final + 0.25,
    entropy: H,
    loss: ratios.map((_, i) => (i === 0 && ratios.length > 20 ? 9 : final)),
    gradFirst: ratios.map((r) => r * 0.5),
    gradLast: ratios.map(() => 0.5),
    updateFirst: updates.map((r) => r * 0.002),
    updateLast: updates.map(() => 0.002),
    divergedAt: null,
    ...extra,
  };
}

test('a run learned, left the plateau, stalled in one of two ways, stayed above or diverged', () => {
  assert.equal(LEARNED_BELOW, 0.3);
  assert.equal(STALLED_WITHIN, 0.2);
  assert.equal(RATIO_COLLAPSED, 1e-2);
  assert.equal(runOutcome(run('pre', H - 0.31, [1])), 'learned');
  assert.equal(runOutcome(run('pre', H - 0.29, [1])), 'between');
  assert.equal(runOutcome(run('pre', H - 0.21, [1])), 'between');
  assert.equal(runOutcome(run('pre', H - 0.19, [1])), 'plateau');
  assert.equal(runOutcome(run('pre', H + 0.19, [1])), 'plateau');
  assert.equal(runOutcome(run('pre', H + 0.21, [1])), 'above');
  // The gradient reaching the first layer collapsed: whatever Adam's updates did.
  assert.equal(runOutcome(run('post', H - 0.1, [0.009])), 'collapsed');
  assert.equal(runOutcome(run('post', H + 0.19, [0.009], {}, [1])), 'collapsed');
  // Above the plateau is not a stall yet, collapsed gradient or not.
  assert.equal(runOutcome(run('post', H + 0.3, [0.009], {}, [1])), 'above');
  assert.equal(runOutcome(run('post', H - 0.1, [0.011])), 'plateau');
  // Learned is learned, collapsed gradient or not.
  assert.equal(runOutcome(run('post', H - 0.5, [1e-5])), 'learned');
  assert.equal(runOutcome(run('pre', NaN, [1], { status: 'diverged' })), 'diverged');
  assert.equal(runOutcome(run('pre', NaN, [1], { status: 'training' })), 'none');
  assert.equal(outcomeOf({ diverged: false, final: H - 0.1, entropy: H, gradRatio: 1e-3 }), 'collapsed');
  assert.equal(outcomeOf({ diverged: true, final: NaN, entropy: H, gradRatio: NaN }), 'diverged');
  assert.deepEqual(gradientRatios(run('pre', 2, [0.5, 2])), [0.5, 2]);
  assert.equal(finalLoss({ loss: [9, ...Array(20).fill(3)] }), 3);
  assert.equal(finalLoss({ loss: [5, 3] }), 4);
  // The ratios' median over the last 20 steps, NaN and Inf left out.
  assert.equal(ratioMedian([...Array(30).fill(100), 1, 2, 3], [...Array(33).fill(1)]), 100);
  assert.equal(ratioMedian([1, 3, NaN, 2], [1, 1, 1, 0]), 2);
  assert.ok(Number.isNaN(ratioMedian([NaN], [1])));
  assert.equal(updateRatio(run('pre', 2, [1, 1], {}, [0.25, 0.5])), 0.375);
});

test("the reading of the lab's contrast: pre-norm and warmup learn, post-norm stalls with its first layers cut off", () => {
  const runs = [
    run('pre', 3.0, [1.2, 0.9, 1.1]),
    run('post', 4.2, [1, 1e-4, 1e-7], {}, [1, 1e-3, 1e-3]),
    run('warmup', 2.4, [1, 0.8, 0.7]),
  ];
  const sentences = labConclusions(runs, {
    settings: { warmup: 200, lr: 3e-3 },
    steps: 400,
    guess: { g: ['pre', 'post'] },
  });
  const params = (r, final, ratio, update) => ({
    run: r,
    final,
    window: 3,
    heldout: final + 0.25,
    entropy: H,
    gap: Math.abs(H - final),
    ratio,
    update,
  });
  assert.deepEqual(sentences, [
    { key: 'runLearned', params: params('pre', 3.0, 1.1, 1.1) },
    { key: 'runCollapsed', params: params('post', 4.2, 1e-4, 1e-3) },
    { key: 'runLearned', params: params('warmup', 2.4, 0.8, 0.8) },
    { key: 'warmupHelped', params: { warmup: 200, warm: 2.4, cold: 4.2 } },
    { key: 'guessDiffer', params: { guessed: ['pre', 'post'], learned: ['pre', 'warmup'] } },
  ]);
  // Warmup's sentence follows the two final losses: helped, held back
  // (still warming up, so the run moved less), or no clear difference.
  const warmup = (cold, warm) =>
    labConclusions([run('post', cold, [1]), run('warmup', warm, [1])], { settings: {}, steps: 400, guess: null })
      .map((s) => s.key)
      .filter((k) => k.startsWith('warmup'));
  assert.deepEqual(warmup(4.2, 2.4), ['warmupHelped']);
  assert.deepEqual(warmup(3.7, 4.95), ['warmupSlower']);
  assert.deepEqual(warmup(4.2, 4.1), ['warmupSame']);
  // A collapsed gradient that Adam still moves: its own sentence.
  const moving = labConclusions([run('post', 4.2, [1e-4], {}, [0.5])], { settings: {}, steps: 400, guess: null });
  assert.equal(moving[0].key, 'runCollapsedMoving');
  // On the plateau with live gradients: a slow start, never "kept learning".
  const slow = labConclusions([run('pre', 4.22, [3, 4, 5])], { settings: {}, steps: 400, guess: null });
  assert.equal(slow[0].key, 'runPlateau');
  for (const lang of ['en', 'zh-CN']) {
    const text = LAB_DICTIONARIES[lang];
    assert.doesNotMatch(text.runPlateau + text.runCollapsed + text.runCollapsedMoving, /kept learning|继续学习/);
  }
});

test('a short run: nothing learned yet, a warmup longer than the run, a diverged run, a guess that matched', () => {
  const runs = [run('post', 4.6, [1, 0.02]), run('warmup', NaN, [1], { status: 'diverged', divergedAt: 7 })];
  const sentences = labConclusions(runs, { settings: { warmup: 100, lr: 1e-2 }, steps: 30, guess: { g: [] } });
  assert.deepEqual(
    sentences.map((s) => s.key),
    ['runAbove', 'runDiverged', 'warmupLonger', 'guessMatchNone'],
  );
  assert.equal(sentences[0].params.gap.toFixed(6), (4.6 - H).toFixed(6));
  assert.deepEqual(sentences[1].params, { run: 'warmup', step: 7 });
  assert.deepEqual(sentences[2].params, { warmup: 100, steps: 30, lr: 1e-2 });
  assert.deepEqual(sentences[3].params, { guessed: [], learned: [] });
  // Without a guess (skipped), no comparison.
  assert.equal(
    labConclusions(runs, { settings: { warmup: 100, lr: 1e-2 }, steps: 30, guess: null }).at(-1).key,
    'warmupLonger',
  );
});

test("the map's table: every cell of the committed sweep in the page's language, no curves", () => {
  for (const lang of ['en', 'zh-CN']) {
    const table = sweepTable(sweep, lang);
    assert.deepEqual(table.grid, { layers: LAB_DEPTHS, lr: LAB_LRS, seeds: sweep.grid.seeds });
    assert.equal(table.steps, LAB_STEPS);
    assert.equal(table.warmup, LAB_DEFAULTS.warmup);
    assert.equal(table.entropy, sweep.rows.find((r) => r.lang === lang).entropy);
    assert.equal(Object.keys(table.cells).length, LAB_DEPTHS.length * LAB_LRS.length * LAB_RUNS.length);
    for (const cell of Object.values(table.cells))
      assert.deepEqual(
        cell.map((e) => e.seed),
        sweep.grid.seeds,
      );
    // One row as committed.
    const row = sweep.rows.find(
      (r) => r.lang === lang && r.layers === 24 && r.lr === 3e-3 && r.run === 'post' && r.seed === 1,
    );
    assert.deepEqual(table.cells[cellKey('post', 24, 3e-3)][0], {
      seed: 1,
      outcome: row.outcome,
      final: row.final,
      heldout: row.heldout,
      divergedAt: row.divergedAt,
    });
    assert.ok(JSON.stringify(table).length < sweep.rows.length * 100, 'no curves, one language');
  }
});

test("a map cell: the seeds' outcomes, the median final loss, the verdict most seeds reached", () => {
  const e = (seed, outcome, final) => ({ seed, outcome, final });
  assert.deepEqual(cellSummary([e(1, 'learned', 3), e(2, 'collapsed', 4.5), e(3, 'learned', 2)]), {
    outcomes: ['learned', 'collapsed', 'learned'],
    median: 3,
    verdict: 'learned',
    counts: { diverged: 0, stalled: 1, learned: 2 },
  });
  assert.equal(cellSummary([e(1, 'learned', 3), e(2, 'plateau', 4)]).median, 3.5);
  assert.equal(
    cellSummary([e(1, 'learned', 3), e(2, 'between', 4)]).verdict,
    'stalled',
    'a tie goes to the worse verdict',
  );
  assert.equal(cellSummary([e(1, 'diverged', NaN), e(2, 'plateau', 4)]).verdict, 'diverged');
  assert.equal(cellSummary([e(1, 'diverged', NaN)]).median, null);
});

test("what the sweep says at the lab defaults: the depths at its learning rate, each run's window", () => {
  for (const lang of ['en', 'zh-CN']) {
    const table = sweepTable(sweep, lang);
    const sentences = sweepReading(table, LAB_DEFAULTS);
    const verdict = (run, layers, lr) => cellSummary(table.cells[cellKey(run, layers, lr)]).verdict;
    for (const [i, run] of ['pre', 'post', 'warmup'].entries()) {
      const { learnedAt, failedAt } = sentences[i].params;
      assert.equal(sentences[i].params.run, run);
      assert.deepEqual(
        learnedAt,
        LAB_DEPTHS.filter((l) => verdict(run, l, LAB_DEFAULTS.lr) === 'learned'),
      );
      assert.deepEqual(
        failedAt,
        LAB_DEPTHS.filter((l) => verdict(run, l, LAB_DEFAULTS.lr) !== 'learned'),
      );
    }
    const windows = sentences.find((s) => s.key === 'sweepWindows').params;
    for (const [run, count] of [
      ['pre', windows.preCount],
      ['post', windows.postCount],
      ['warmup', windows.warmupCount],
    ])
      assert.equal(count, LAB_LRS.filter((lr) => verdict(run, LAB_DEFAULTS.layers, lr) === 'learned').length, run);
    assert.equal(windows.total, LAB_LRS.length);
    // A depth and learning rate outside the grid: nothing to say.
    assert.deepEqual(sweepReading(table, { layers: 7, lr: 2.5e-3 }), []);
  }
});

test('what the tables say of a contrast: the seeds at the defaults, a cell elsewhere, the same bits', () => {
  const lang = 'en';
  const tables = { sweep: sweepTable(sweep, lang), robust: robustnessTable(robustness, lang) };
  const committed = (run, layers, lr, seed) =>
    sweep.rows.find((r) => r.lang === lang && r.run === run && r.layers === layers && r.lr === lr && r.seed === seed);
  const finals = LAB_RUNS.map((id) => ({ id, final: committed(id, 24, 3e-3, 1).final }));
  const at = seedsReading(tables, { ...LAB_DEFAULTS, text: null }, LAB_STEPS, finals);
  assert.deepEqual(
    at.map((s) => [s.key, s.params.run, s.params.count]),
    [
      ['seedsLearned', 'pre', robustness.counts.en.pre.learned],
      ['seedsCollapsed', 'post', robustness.counts.en.post.collapsed],
      ['seedsLearned', 'warmup', robustness.counts.en.warmup.learned],
      ['seedsPost6', 'post6', robustness.counts.en.post6.learned],
      ['sameBits', 'pre', undefined],
      ['sameBits', 'post', undefined],
      ['sameBits', 'warmup', undefined],
    ],
  );
  // One bit off the committed final loss: said so.
  const off = seedsReading(tables, { ...LAB_DEFAULTS, runs: ['pre'] }, LAB_STEPS, [
    { id: 'pre', final: finals[0].final + 2 ** -40 },
  ]);
  assert.equal(off.at(-1).key, 'otherBits');
  // Another cell: its seeds' tally; a shortened run or the reader's text: nothing.
  const cell = seedsReading(tables, { ...LAB_DEFAULTS, layers: 6, runs: ['post'] }, LAB_STEPS, [
    { id: 'post', final: null },
  ]);
  assert.equal(cell.length, 1);
  assert.equal(cell[0].key, 'seedsCell');
  assert.equal(cell[0].params.seeds, sweep.grid.seeds.length);
  assert.deepEqual(seedsReading(tables, LAB_DEFAULTS, 30, finals), []);
  assert.deepEqual(seedsReading(tables, { ...LAB_DEFAULTS, text: 'mine', layers: 6 }, LAB_STEPS, finals), []);
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
  // Outputs the same to the 3 digits shown: one length, not a range.
  assert.equal(edge(1 + 1e-5), 'normsPinnedAt');
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
