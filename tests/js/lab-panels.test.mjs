// The training lab's panels that run without a browser: the reading's and
// the map's sentences, each parameter shown by the format its panel gives
// its name (every parameter the committed tables and the runs can put in
// them has one), in both languages.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { labConclusions } from '../../web/src/lab/conclusions.js';
import { LAB_DEFAULTS, LAB_DEPTHS, LAB_LRS } from '../../web/src/lab/runs.js';
import { formatParams } from '../../web/src/lab/sentences.js';
import {
  robustnessTable,
  seedsReading,
  sweepReading,
  sweepTable,
  variantReading,
  variantSweepTable,
} from '../../web/src/lab/sweep.js';
import { labText } from '../../web/src/lab/text.js';

const sweepJson = JSON.parse(readFileSync(new URL('../../web/data/train-sweep.json', import.meta.url), 'utf8'));
const robustJson = JSON.parse(readFileSync(new URL('../../web/data/lab-robustness.json', import.meta.url), 'utf8'));
const variantJson = JSON.parse(readFileSync(new URL('../../web/data/variant-sweep.json', import.meta.url), 'utf8'));
const LANGS = ['en', 'zh-CN'];
const byLang = (fn) => Object.fromEntries(LANGS.map((lang) => [lang, fn(lang)]));
const SWEEPS = byLang((lang) => sweepTable(sweepJson, lang));
const ROBUSTNESS = byLang((lang) => robustnessTable(robustJson, lang));
// The committed tables as web/build.mjs gives them to lab.js (tables.js).
globalThis.NORMLAB_TRAIN_SWEEP = SWEEPS;
globalThis.NORMLAB_LAB_ROBUSTNESS = ROBUSTNESS;
globalThis.NORMLAB_VARIANT_SWEEP = variantSweepTable(variantJson);
const { mapPanel } = await import('../../web/src/lab/panels/map.js');
const { readingPanel } = await import('../../web/src/lab/panels/reading.js');

const namesOf = (sentences) => new Set(sentences.flatMap(({ params }) => Object.keys(params)));
const unformatted = (names, formats) => [...names].filter((name) => !(name in formats));

test("the map's sentences: every parameter at every depth and rate of the lab has its format", () => {
  for (const lang of LANGS) {
    const names = namesOf(
      LAB_DEPTHS.flatMap((layers) => LAB_LRS.flatMap((lr) => sweepReading(SWEEPS[lang], { layers, lr }))),
    );
    assert.ok(names.has('learnedAt') && names.has('postLr') && names.has('warmupCount'), [...names].join());
    assert.deepEqual(unformatted(names, mapPanel.formats), [], lang);
  }
  const en = labText('en');
  assert.deepEqual(
    formatParams(
      { run: 'warmup', lr: 0.003, learnedAt: [6, 12], failedAt: [], seeds: 5, layers: 24, postLr: 0.001 },
      mapPanel.formats,
      en,
    ),
    {
      run: 'post-norm + warmup',
      lr: '0.003',
      learnedAt: '6 and 12',
      failedAt: 'none of them',
      seeds: '5',
      layers: '24',
      postLr: '0.001',
    },
  );
  assert.deepEqual(
    formatParams({ run: 'warmup', learnedAt: [6, 12], failedAt: [] }, mapPanel.formats, labText('zh-CN')),
    { run: '后置归一化 + 预热', learnedAt: '6 和 12', failedAt: '没有一组' },
  );
});

test("the variants' map sentence: each variant's learned seeds at a cell of its grid, none off it", () => {
  const table = globalThis.NORMLAB_VARIANT_SWEEP;
  assert.equal(table.lang, 'zh-CN');
  assert.deepEqual(table.runs, ['pre', 'post', 'qknorm', 'sandwich', 'output', 'deepnorm', 'dyt']);
  assert.deepEqual(variantReading(table, { layers: 12, lr: 0.003 }), []);
  assert.deepEqual(variantReading(table, { layers: 24, lr: 0.002 }), []);
  const [sentence] = variantReading(table, { layers: 24, lr: 0.003 });
  // Counted here from the committed rows, not through the table.
  const learned = (run) =>
    variantJson.rows.filter((r) => r.run === run && r.layers === 24 && r.lr === 0.003 && r.outcome === 'learned')
      .length;
  assert.deepEqual(
    sentence.params.counts,
    table.runs.map((run) => ({ run, learned: learned(run) })),
  );
  assert.equal(sentence.params.counts.find((c) => c.run === 'post').learned, 0);
  for (const lang of LANGS) {
    const text = labText(lang);
    const shown = formatParams(sentence.params, mapPanel.formats, text);
    assert.deepEqual(unformatted(Object.keys(sentence.params), mapPanel.formats), []);
    assert.ok(shown.counts.includes(text.t('variantCount', { run: text.t('runPost'), learned: 0 })), shown.counts);
    assert.equal(shown.lr, '0.003');
  }
});

// A finished run as the runner keeps it: 40 steps at loss `final`, the
// gradient and update ratios first/last `ratio`, the plateau at 4.25.
function run(id, final, ratio, extra = {}) {
  const steps = Array(40).fill(0);
  return {
    id,
    status: 'done',
    heldout: final + 0.25,
    entropy: 4.25,
    loss: steps.map(() => final),
    gradFirst: steps.map(() => ratio * 0.5),
    gradLast: steps.map(() => 0.5),
    updateFirst: steps.map(() => ratio * 0.002),
    updateLast: steps.map(() => 0.002),
    divergedAt: null,
    ...extra,
  };
}

test("the reading's sentences: every parameter of the runs' and the tables' sentences has its format", () => {
  const settings = { ...LAB_DEFAULTS, warmup: 50 };
  // Learned, collapsed but moving, diverged; a warmup longer than the runs;
  // warmup against none; the guess.
  const runs = [
    run('pre', 3.5, 1),
    run('post', 4.2, 1e-3, { updateFirst: Array(40).fill(0.002) }),
    run('warmup', NaN, 1, { status: 'diverged', divergedAt: 17 }),
  ];
  const sentences = [
    ...labConclusions(runs, { settings, steps: 40, guess: { g: ['pre'] } }),
    ...labConclusions([run('post', 4.2, 1), run('warmup', 3.6, 1)], { settings: LAB_DEFAULTS, steps: 30, guess: null }),
  ];
  for (const lang of LANGS) {
    const tables = { sweep: SWEEPS[lang], robust: ROBUSTNESS[lang] };
    const finals = (final) => ['pre', 'post', 'warmup'].map((id) => ({ id, final }));
    // The defaults (the robustness table's counts), then another cell of the sweep.
    sentences.push(...seedsReading(tables, LAB_DEFAULTS, tables.sweep.steps, finals(3)));
    sentences.push(...seedsReading(tables, { ...LAB_DEFAULTS, layers: 6 }, tables.sweep.steps, finals(3)));
  }
  const names = namesOf(sentences);
  for (const name of ['step', 'gap', 'update', 'guessed', 'warm', 'count', 'learnedCount', 'committed'])
    assert.ok(names.has(name), `no sentence here has ${name}: ${[...names].join()}`);
  assert.deepEqual(unformatted(names, readingPanel.formats), []);
  assert.deepEqual(
    formatParams(
      {
        run: 'post',
        final: 3.14159265,
        committed: 3.1415,
        seed: 3,
        ratio: 0.001234,
        heldout: 3.391,
        guessed: ['pre', 'warmup'],
        learned: [],
      },
      readingPanel.formats,
      labText('en'),
    ),
    {
      run: 'post-norm',
      final: '3.1416',
      committed: '3.1415',
      seed: '3',
      ratio: '0.0012',
      heldout: '3.39',
      guessed: 'pre-norm and post-norm + warmup',
      learned: 'none of them',
    },
  );
});
