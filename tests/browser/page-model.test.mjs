// The demo panel's model-driven views in headless Chromium: every figure
// comes from the wasm model, the chapter's shapes show up (a residual stream
// that grows with depth, norm outputs pinned near sqrt(1024) = 32), the
// auto-run walks the layers and hands over, the settings recompute the views,
// and the gradient view's reading states the measured numbers. Opened from file://, the
// way a student double-clicks dist/index.html; one check runs over HTTP too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { formatClaims } from '../../web/src/claim-params.js';
import { decimals, fixed, significant } from '../../web/src/format.js';
import en from '../../web/src/i18n/en.js';
import { fill } from '../../web/src/i18n/index.js';
import zhCN from '../../web/src/i18n/zh-CN.js';
import { pageClaims } from '../../web/src/lab/claims.js';
import { fileUrl, gradientsDone, openPage, settle, shareBrowserAndServer } from './page-support.mjs';

// The lab's committed tables: the gradient panel's last paragraph quotes
// their counts (web/src/lab/claims.js).
const table = (name) => JSON.parse(readFileSync(new URL(`../../web/data/${name}`, import.meta.url), 'utf8'));
const SWEEP = table('train-sweep.json');
const ROBUSTNESS = table('lab-robustness.json');

const shared = shareBrowserAndServer();

// Opens the page, runs check(page), then asserts nothing went wrong.
// options.http: over web/serve.mjs instead of file:// (query then names the file).
async function withPage(query, check, options = {}) {
  const { page, problems, close } = await openPage(
    shared.browser,
    `${options.http ? shared.server.url : fileUrl}${query}`,
    options,
  );
  try {
    await page.waitForSelector('[data-widget="layer-breakdown"] [data-box]');
    await check(page);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
}

const number = async (page, selector) => Number(await page.textContent(selector));
const boxStat = (page, box, stat = 'l2') => number(page, `[data-box="${box}"] [data-stat="${stat}"] dd`);
const autorunStatus = (page) => page.getAttribute('[data-widget="autorun"]', 'data-status');

// The walk's status once the layer chart is in view, as a reader scrolls to
// it, and a walk has had the time to start by itself.
async function autorunStatusInView(page) {
  await page.locator('[data-widget="layer-chart"]').scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);
  return autorunStatus(page);
}

async function setLayer(page, layer) {
  await page.fill('#layer-select', String(layer));
  await settle(page);
}

// The reader moves the layer selector during or after a walk: the walk is
// done, it stays so, and the layer stays the reader's.
async function takeOver(page, layer) {
  await setLayer(page, layer);
  assert.equal(await autorunStatus(page), 'done');
  await page.waitForTimeout(600);
  assert.equal(await page.inputValue('#layer-select'), String(layer));
  assert.equal(await autorunStatus(page), 'done');
}

// Rows of a widget's data table as arrays of cell texts.
async function tableRows(page, widget) {
  return page
    .locator(`[data-widget="${widget}"] tbody tr`)
    .evaluateAll((rows) => rows.map((tr) => [...tr.cells].map((c) => c.textContent)));
}

// The attention view is painted when it comes near the screen (or in idle
// time after a change): a test brings it into view before reading it, as a
// reader scrolls to it.
async function showAttention(page) {
  await page.locator('[data-widget="attention"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-widget="attention"] tbody tr', { state: 'attached' });
  await settle(page);
  await settle(page);
}

const nearSqrtD = (value, what) => assert.ok(Math.abs(value - 32) < 3.2, `${what} is ${value}, not near 32`);

describe('the single-layer breakdown', () => {
  test('layer 22\'s "Input RMSNorm input" outgrows layer 0\'s while the outputs stay near 32', () =>
    withPage('?layer=0', async (page) => {
      assert.equal(await page.textContent('[data-box="inputNormIn"] .stat-title'), 'Input RMSNorm input');
      const in0 = await boxStat(page, 'inputNormIn');
      const out0 = await boxStat(page, 'inputNormOut');
      await setLayer(page, 22);
      assert.equal(await page.textContent('#layer-select + output'), 'layer 22 (0–23)');
      const in22 = await boxStat(page, 'inputNormIn');
      const out22 = await boxStat(page, 'inputNormOut');
      assert.ok(in22 > 3 * in0, `Input RMSNorm input: layer 0 ${in0}, layer 22 ${in22}`);
      nearSqrtD(out0, "layer 0's output");
      nearSqrtD(out22, "layer 22's output");
      nearSqrtD(await boxStat(page, 'postNormOut'), "layer 22's post-attention output");
      // Before the gain the length is sqrt(1024) exactly.
      assert.equal(await page.textContent('[data-box="inputNormOut"] .stat-normed'), 'before the gain: L2/tok 32.0');
      // RMS = L2 / sqrt(d) for every box, as the glossary says.
      const rms = await boxStat(page, 'inputNormIn', 'rms');
      assert.ok(Math.abs(rms * 32 - in22) / in22 < 0.01, `RMS ${rms} vs L2 ${in22}`);
      // The chart's marker and read-out follow the selector.
      assert.equal(await page.getAttribute('[data-widget="layer-chart"] .chart-readout', 'data-layer'), '22');

      // The exercise's buttons jump between its two layers.
      await page.click('[data-widget="layer-breakdown"] button[data-layer="0"]');
      await settle(page);
      assert.equal(await page.inputValue('#layer-select'), '0');
      assert.equal(await boxStat(page, 'inputNormIn'), in0);
    }));

  test('the boxes follow the placement and the norm, and name a missing norm', () =>
    withPage('?layer=3', async (page) => {
      await page.selectOption('#model-placement', 'post');
      await settle(page);
      const order = await page.locator('[data-box]').evaluateAll((boxes) => boxes.map((b) => b.dataset.box));
      assert.deepEqual(order, ['attentionOut', 'inputNormIn', 'inputNormOut', 'mlpOut', 'postNormIn', 'postNormOut']);
      assert.match(await page.textContent('[data-box="inputNormIn"] .stat-what'), /x \+ A\(x\)/);

      await page.selectOption('#model-norm', 'layernorm');
      await settle(page);
      // In post-norm the first norm sits after attention, and is named so.
      assert.equal(await page.textContent('[data-box="inputNormOut"] .stat-title'), 'After-attention LayerNorm output');
      nearSqrtD(await boxStat(page, 'inputNormOut'), "LayerNorm's output");

      await page.selectOption('#model-norm', 'none');
      await settle(page);
      const noNorm = await page.locator('[data-box]').evaluateAll((boxes) => boxes.map((b) => b.dataset.box));
      assert.deepEqual(noNorm, ['streamIn', 'attentionOut', 'streamMid', 'mlpOut']);
      assert.match(await page.textContent('[data-widget="layer-breakdown"] .widget-note'), /there is no norm/);
    }));
});

describe('the layer chart', () => {
  test('pre-norm: the stream climbs about tenfold, the norm outputs stay at about 32', () =>
    withPage('?layer=0', async (page) => {
      const rows = await tableRows(page, 'layer-chart');
      assert.equal(rows.length, 25, "layers 0..23 and the final norm's input");
      const residual = rows.map((r) => Number(r[1]));
      const ratio = residual.at(-1) / residual[0];
      assert.ok(ratio > 5 && ratio < 20, `residual grows ${ratio}x`);
      for (const row of rows.slice(0, 24)) {
        nearSqrtD(Number(row[2]), `input norm output at layer ${row[0]}`);
        nearSqrtD(Number(row[3]), `post-attention norm output at layer ${row[0]}`);
      }
      assert.match(
        await page.textContent('[data-widget="layer-chart"] .chart-summary'),
        /^Over 24 layers the residual stream goes from [\d.]+ to [\d.]+ per token/,
      );
      // Charts off screen are drawn when they first come into view.
      await page.locator('[data-widget="layer-chart"]').scrollIntoViewIfNeeded();
      assert.equal(await page.locator('[data-widget="layer-chart"] .rule-sqrt-d text').textContent(), '√1024 = 32');
      assert.equal(await page.locator('[data-widget="layer-chart"] .chart-legend li').count(), 3);

      // Linear scale redraws the same numbers on another axis.
      const logPath = await page.getAttribute('[data-widget="layer-chart"] .chart-box .series-residual path', 'd');
      await page.selectOption('#layer-chart-scale', 'linear');
      await settle(page);
      assert.notEqual(
        await page.getAttribute('[data-widget="layer-chart"] .chart-box .series-residual path', 'd'),
        logPath,
      );

      // Pointing at the chart reads out a layer.
      const overlay = page.locator('[data-widget="layer-chart"] .hover-overlay');
      await overlay.scrollIntoViewIfNeeded();
      const box = await overlay.boundingBox();
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
      await settle(page);
      assert.match(
        await page.textContent('[data-widget="layer-chart"] .chart-readout'),
        /^After layer 23: residual stream [\d.]+/,
      );
    }));

  test('post-norm pins the stream near 32; no norm lets it run away', () =>
    withPage('?layer=0', async (page) => {
      const preRows = await tableRows(page, 'layer-chart');
      await page.selectOption('#model-placement', 'post');
      await settle(page);
      const postRows = await tableRows(page, 'layer-chart');
      assert.notDeepEqual(postRows, preRows);
      for (const row of postRows.slice(1)) nearSqrtD(Number(row[1]), `post-norm residual at ${row[0]}`);

      await page.selectOption('#model-norm', 'none');
      await settle(page);
      const noneRows = await tableRows(page, 'layer-chart');
      assert.equal(noneRows[0].length, 2, 'no norm columns without a norm');
      const growth = Number(noneRows.at(-1)[1]) / Number(noneRows[0][1]);
      assert.ok(growth > 50, `without a norm the stream grows ${growth}x`);
      assert.match(await page.textContent('[data-widget="layer-chart"] .chart-summary'), /nothing holds it back/);
      assert.equal(await page.locator('[data-widget="layer-chart"] .series-norm-input').count(), 0);
    }));

  test('the depth control changes the number of layers everywhere', () =>
    withPage('?layer=20', async (page) => {
      await page.fill('#model-depth', '8');
      await settle(page);
      assert.equal(await page.textContent('#model-depth + output'), '8 layers');
      assert.equal((await tableRows(page, 'layer-chart')).length, 9);
      await showAttention(page);
      assert.equal((await tableRows(page, 'attention')).length, 8);
      assert.equal(await page.getAttribute('#layer-select', 'max'), '7');
      assert.equal(await page.inputValue('#layer-select'), '7');
      assert.equal(await page.isDisabled('[data-widget="layer-breakdown"] button[data-layer="22"]'), true);
      assert.match(await page.textContent('.exercise-aside p'), /set the depth to 23 or more/);
    }));
});

describe('the auto-run', () => {
  // The test-only walk speed (demo-controller.js): 300 ms per narrated step.
  const fast = {
    initScript: () => {
      window.NORMLAB_WALK_STEP_MS = 300;
    },
  };

  test('walks the layers once the prediction is in or skipped, then hands control over', () =>
    withPage(
      '',
      async (page) => {
        assert.equal(await autorunStatus(page), 'waiting');
        assert.equal(await autorunStatusInView(page), 'waiting', 'in view, the walk waits for the prediction');
        await page.click('#predict-skip');
        await page.waitForFunction(
          () => document.querySelector('[data-widget="autorun"]').dataset.status === 'running',
        );
        // Both strips, the page's and the compact copy beside the chart,
        // highlight the stage; the chart's marker moves with the walk.
        await page.waitForSelector('.strip-compact .strip-stage.is-current[data-stage="layers"]');
        assert.equal(await page.locator('.strip-stage.is-current[data-stage="layers"]').count(), 2);
        const markerX = () => page.getAttribute('[data-widget="layer-chart"] .marker line', 'x1');
        const first = await markerX();
        await page.waitForFunction(
          (x) => document.querySelector('[data-widget="layer-chart"] .marker line').getAttribute('x1') !== x,
          first,
        );
        assert.match(
          await page.textContent('.autorun-where'),
          /^Layers (\d+)–(\d+) \(of 0–23\): the stream arrives at L2\/tok [\d.]+ at layer \1 and [\d.]+ at layer \2; the input RMSNorm hands attention vectors of L2\/tok [\d.]+ to [\d.]+\.$/,
        );

        await page.waitForFunction(
          () => document.querySelector('[data-widget="autorun"]').dataset.status === 'done',
          null,
          { timeout: 30_000 },
        );
        assert.equal(await page.inputValue('#layer-select'), '23');
        assert.equal(await page.locator('.strip-stage.is-current').count(), 0);
        assert.match(await page.textContent('.autorun-status'), /^Done: the controls are yours/);
        assert.equal(
          await page.getAttribute('#autorun-progress', 'value'),
          await page.getAttribute('#autorun-progress', 'max'),
        );
        assert.equal(await page.getAttribute('#autorun-progress', 'max'), '11');

        // The reader's choice stays.
        await takeOver(page, 5);
      },
      fast,
    ));

  test('pause, resume, next step and replay; moving the selector takes over', () =>
    withPage(
      '?layer=2',
      async (page) => {
        // A link that names a layer keeps it: no walk starts by itself, and no
        // prediction is asked.
        assert.equal(await autorunStatusInView(page), 'off');
        assert.equal(await page.getAttribute('[data-widget="autorun"]', 'data-prediction'), 'none');
        assert.equal(await page.inputValue('#layer-select'), '2');

        await page.click('#autorun-play');
        await page.waitForFunction(() => Number(document.getElementById('layer-select').value) >= 3);
        await page.click('#autorun-pause');
        await settle(page);
        assert.equal(await autorunStatus(page), 'paused');
        const paused = await page.inputValue('#layer-select');
        await page.waitForTimeout(700);
        assert.equal(await page.inputValue('#layer-select'), paused);
        // Step on click: the rest of the group of four layers at once.
        await page.click('#autorun-next');
        await settle(page);
        const stepped = Number(await page.inputValue('#layer-select'));
        assert.ok(stepped % 4 === 3 && stepped >= Number(paused), `next step from layer ${paused} to ${stepped}`);
        await page.click('#autorun-pause');
        await page.waitForFunction((layer) => document.getElementById('layer-select').value !== layer, String(stepped));
        assert.equal(await autorunStatus(page), 'running');

        await takeOver(page, 1);
      },
      fast,
    ));

  test('respects prefers-reduced-motion', () =>
    withPage(
      '',
      async (page) => {
        assert.equal(await autorunStatusInView(page), 'off');
        assert.match(await page.textContent('.autorun-status'), /reduced motion/);
      },
      { reducedMotion: 'reduce' },
    ));
});

describe("the model's other views", () => {
  test("the learned gains are a fixed sample of the model's own", () =>
    withPage('', async (page) => {
      const read = (name) => number(page, `[data-widget="gain"] [data-readout="${name}"]`);
      const amplified = await read('amplified');
      const suppressed = await read('suppressed');
      await page.locator('[data-widget="gain"]').scrollIntoViewIfNeeded();
      await page.waitForSelector('[data-widget="gain"] rect.gain-bar');
      assert.equal(await page.locator('[data-widget="gain"] rect.gain-bar').count(), 48);
      assert.equal(await page.locator('[data-widget="gain"] rect.gain-bar.is-above').count(), amplified);
      assert.equal(await page.locator('[data-widget="gain"] rect.gain-bar.is-below').count(), suppressed);
      assert.ok(amplified + suppressed <= 48 && amplified > 0 && suppressed > 0);
      const values = (await tableRows(page, 'gain')).map((r) => Number(r[1]));
      assert.equal(values.length, 48);
      assert.equal(await read('min'), Number(Math.min(...values).toFixed(2)));
      assert.equal(await read('max'), Number(Math.max(...values).toFixed(2)));
      assert.match(await page.textContent('[data-widget="gain"]'), /Synthetic gains/);
    }));

  test('attention stays spread out in pre-norm and saturates without a norm', () =>
    withPage('', async (page) => {
      const deepMax = async () => {
        await showAttention(page);
        return Number((await tableRows(page, 'attention')).at(-1)[1]);
      };
      const pre = await deepMax();
      assert.ok(pre < 0.5, `pre-norm's deepest layer averages ${pre}`);
      await page.selectOption('#model-norm', 'none');
      await settle(page);
      const none = await deepMax();
      assert.ok(none > 0.9, `without a norm the deepest layer averages ${none}`);
      assert.match(await page.textContent('[data-widget="attention"] .chart-summary'), /layers average 0\.9 or more/);
    }));

  test("the attention view, off screen when the prompt changes, shows the new prompt's figures as it scrolls in", () =>
    withPage(
      '?layer=0',
      async (page) => {
        await showAttention(page);
        const before = await tableRows(page, 'attention');
        // The page learns that the view left the screen a frame after the scroll.
        await page.locator('#model-prompt').scrollIntoViewIfNeeded();
        await settle(page);
        await page.fill('#model-prompt', 'Norms keep it steady');
        await settle(page);
        await page.waitForSelector('.token-chip:nth-child(21)', { state: 'attached' });
        assert.equal(await page.locator('.token-chip').count(), 20);
        const below = await page.evaluate(
          () => document.querySelector('[data-widget="attention"]').getBoundingClientRect().top / innerHeight,
        );
        assert.ok(below > 1.5, `the attention view is ${below} screens down, within the distance it is painted at`);
        await settle(page);
        assert.deepEqual(await tableRows(page, 'attention'), before, 'the view off screen waits');

        await showAttention(page);
        const expected = await page.evaluate(async () => {
          const nl = await window.normlab.loadNormlab();
          const model = nl.createModel({ layers: 24, norm: 'rmsnorm', placement: 'pre' });
          try {
            const run = model.forward('Norms keep it steady', { topK: 1 });
            return { maxProb: Array.from(run.attention.meanMaxProb), entropy: Array.from(run.attention.meanEntropy) };
          } finally {
            model.delete();
          }
        });
        const rows = expected.maxProb.map((p, l) => [String(l), fixed(p, 3), significant(expected.entropy[l])]);
        assert.deepEqual(await tableRows(page, 'attention'), rows);
        assert.notDeepEqual(rows, before);
        assert.equal(
          await page.getAttribute('[data-widget="attention"] .series-attention-max', 'data-values'),
          expected.maxProb.join(','),
        );
      },
      {
        // Only scrolling brings the view up to date here: the page is never
        // given idle time.
        initScript: () => {
          window.requestIdleCallback = () => 0;
        },
      },
    ));

  // The reading's sentences, filled with numbers computed here from fresh
  // models through the page's own normlab API, and formatted as the page
  // formats them: every sentence is the dictionary's with the live numbers.
  async function expectedReading(page, { depth, norm, prompt, lang }) {
    const raw = await page.evaluate(
      async ({ depth, norm, prompt }) => {
        const nl = await window.normlab.loadNormlab();
        const run = (placement) => {
          const model = nl.createModel({ layers: depth, norm, placement });
          try {
            const g = model.gradients(prompt);
            const f = placement === 'pre' ? model.forward(prompt, { topK: 1 }) : null;
            const l2 = (probe) => Array.from(f.probes[probe].mean.l2);
            return {
              layer: Array.from(g.layer),
              residual: Array.from(g.residual),
              loss: g.loss,
              rescale: g.postNorm && Array.from(g.postNorm.meanRescale),
              stream: f && [...l2('residual.in'), f.final['finalNorm.in'].mean.l2],
              inputIn: f && l2('inputNorm.in'),
              inputOut: f && l2('inputNorm.out'),
              top: f && f.next.probs[0],
            };
          } finally {
            model.delete();
          }
        };
        return { pre: run('pre'), post: run('post') };
      },
      { depth, norm, prompt },
    );
    const { pre, post } = raw;
    const L = depth;
    const dictionary = lang === 'en' ? en : zhCN;
    const uniform = Math.log(256);
    const params = {
      depth: L,
      last: L - 1,
      vocabulary: 256,
      preRatio: significant(pre.layer[0] / pre.layer[L - 1], 2),
      postRatio: significant(post.layer[0] / post.layer[L - 1], 2),
      lossPre: decimals(pre.loss, 2),
      lossPost: decimals(post.loss, 2),
      uniform: decimals(uniform, 2),
      oddsPre: significant(Math.exp(pre.loss), 2),
      oddsPost: significant(Math.exp(post.loss), 2),
      topPre: decimals(pre.top, 2),
      topShare: significant(pre.top * 256, 2),
    };
    if (norm !== 'none') {
      const later = post.rescale.slice(1);
      Object.assign(params, {
        streamFirst: significant(pre.stream[0]),
        streamLast: significant(pre.stream[L - 1]),
        factorFirst: significant(pre.inputOut[0] / pre.inputIn[0], 2),
        factorLast: significant(pre.inputOut[L - 1] / pre.inputIn[L - 1], 2),
        streamGradRatio: significant(pre.residual[1] / pre.residual[L], 2),
        postFactorLo: significant(Math.min(...later), 2),
        postFactorHi: significant(Math.max(...later), 2),
      });
    }
    const claims = formatClaims(pageClaims(SWEEP, ROBUSTNESS, lang), lang);
    const sentence = (key) => fill(dictionary.gradient[key], key === 'readingInit' ? claims : params);
    return { raw, params, sentence };
  }

  const readingParagraphs = (page) =>
    page
      .locator('[data-widget="gradient-flow"] .reading-text p')
      .evaluateAll((ps) => ps.map((p) => [p.dataset.reading, p.textContent]));
  const gradientReadouts = (page) =>
    page
      .locator('[data-widget="gradient-flow"] dd[data-readout]')
      .evaluateAll((dds) => Object.fromEntries(dds.map((dd) => [dd.dataset.readout, dd.textContent])));

  test('the gradient view: every sentence of its reading carries the live numbers', () =>
    withPage('', async (page) => {
      await gradientsDone(page);
      const prompt = 'Each layer adds to the stream.';
      const { raw, params, sentence } = await expectedReading(page, { depth: 24, norm: 'rmsnorm', prompt, lang: 'en' });
      // The chapter's mechanism at the default settings: the stream grows about
      // tenfold, the pre-norm factor falls with it, the first layers get more.
      assert.equal(params.streamFirst, '9.60');
      assert.ok(raw.pre.stream[24] / raw.pre.stream[0] > 9, `stream growth ${raw.pre.stream[24] / raw.pre.stream[0]}`);
      assert.ok(
        Number(params.preRatio) > 2 && Number(params.postRatio) > 0.5 && Number(params.postRatio) < 2,
        JSON.stringify(params),
      );

      assert.deepEqual(await gradientReadouts(page), {
        'pre-ratio': `${params.preRatio}×`,
        'post-ratio': `${params.postRatio}×`,
        stream: `${params.streamFirst} → ${params.streamLast}`,
        factor: `${params.factorFirst} → ${params.factorLast}`,
        loss: `${params.lossPre} / ${params.lossPost} nats`,
      });
      const keys = [
        'readingRatios',
        'readingMechanism',
        'readingPreFalls',
        'readingPostLevel',
        'readingInit',
        'trainingRun',
        'readingLossAbove',
      ];
      assert.deepEqual(
        await readingParagraphs(page),
        keys.map((key) => [key, sentence(key)]),
      );
      const reading = await page.textContent('[data-widget="gradient-flow"] .reading');
      assert.match(reading, /^What the numbers say/);
      // The loss read-out, explained: above an even guess's ln 256.
      assert.ok(raw.pre.loss > Math.log(256) && raw.post.loss > Math.log(256));
      assert.match(sentence('readingLossAbove'), /above ln 256 = 5\.55 nats/);
      // Nothing argues against the chapter: no "not the whole story", no
      // reproduced / not reproduced, no product of rescalings.
      assert.doesNotMatch(reading, /whole story|gives back|reproduce|product|multiply with depth/i);
      // The citation stays, for what the paper showed: training with and without warm-up.
      assert.match(reading, /Xiong et al\. \(2020\) saw the same in their experiments: post-norm needed the warm-up/);

      const rows = await tableRows(page, 'gradient-flow');
      assert.equal(rows.length, 24);
      assert.deepEqual(rows[23].slice(5), [
        significant(raw.pre.stream[23]),
        significant(raw.pre.inputOut[23] / raw.pre.inputIn[23]),
        significant(raw.post.rescale[46]),
      ]);

      // Another depth, another norm: the view recomputes once the slider
      // settles, and the reading with it.
      await page.fill('#grad-depth', '6');
      await settle(page);
      await gradientsDone(page);
      assert.equal((await tableRows(page, 'gradient-flow')).length, 6);
      const at6 = await expectedReading(page, { depth: 6, norm: 'rmsnorm', prompt, lang: 'en' });
      assert.deepEqual(
        (await readingParagraphs(page)).map(([, text]) => text),
        keys.map((key) => at6.sentence(key)),
      );
      assert.match(
        await page.textContent('[data-widget="gradient-flow"] figure[data-chart="factor"] .chart-caption'),
        /√d·rms\(g\)\/‖x‖/,
      );
      await page.selectOption('#model-norm', 'layernorm');
      // The frame after the input marks the view busy; then the passes run.
      await settle(page);
      await gradientsDone(page);
      const ln = await expectedReading(page, { depth: 6, norm: 'layernorm', prompt, lang: 'en' });
      assert.deepEqual(
        (await readingParagraphs(page)).map(([, text]) => text),
        keys.map((key) => ln.sentence(key)),
      );

      // Without a norm the layouts coincide, and the reading says so; there is
      // no norm to have a factor.
      await page.selectOption('#model-norm', 'none');
      await page.waitForFunction(() =>
        /same network/.test(document.querySelector('[data-widget="gradient-flow"] .reading').textContent),
      );
      const none = await expectedReading(page, { depth: 6, norm: 'none', prompt, lang: 'en' });
      const readouts = await gradientReadouts(page);
      assert.equal(readouts['pre-ratio'], readouts['post-ratio']);
      assert.deepEqual(
        (await readingParagraphs(page)).map(([key]) => key),
        ['readingRatios', 'readingNoNorm', 'readingLossAbove'],
      );
      assert.equal(await page.locator('[data-widget="gradient-flow"] figure[data-chart="factor"]').isVisible(), false);
      assert.equal((await readingParagraphs(page))[2][1], none.sentence('readingLossAbove'));
    }));

  test('the gradient view reads the same in Chinese, with the same numbers', () =>
    withPage('?lang=zh-CN', async (page) => {
      await gradientsDone(page);
      const { sentence } = await expectedReading(page, {
        depth: 24,
        norm: 'rmsnorm',
        prompt: '每层都加回残差流。',
        lang: 'zh-CN',
      });
      const keys = [
        'readingRatios',
        'readingMechanism',
        'readingPreFalls',
        'readingPostLevel',
        'readingInit',
        'trainingRun',
        'readingLossAbove',
      ];
      assert.deepEqual(
        (await readingParagraphs(page)).map(([, text]) => text),
        keys.map((key) => sentence(key)),
      );
    }));
});

describe('the prompt and the link', () => {
  test('a prompt the model cannot take gets a message and the last result stays', () =>
    withPage('?layer=4', async (page) => {
      const before = await boxStat(page, 'inputNormIn');
      await page.fill('#model-prompt', 'a'.repeat(70));
      await settle(page);
      assert.equal(
        await page.textContent('#model-prompt-error'),
        'That is 70 tokens (UTF-8 bytes); the model reads at most 64.',
      );
      assert.equal(await page.getAttribute('#model-prompt', 'aria-invalid'), 'true');
      assert.equal(await boxStat(page, 'inputNormIn'), before);
      assert.match(
        await page.textContent('[data-widget="model-controls"] .widget-note'),
        /^Still showing the results for the last prompt/,
      );

      await page.fill('#model-prompt', '');
      await settle(page);
      assert.equal(await page.textContent('#model-prompt-error'), 'Type at least one character.');

      // One token is enough for the forward views, not for the gradients.
      await page.fill('#model-prompt', 'x');
      await settle(page);
      assert.equal(await page.isVisible('#model-prompt-error'), false);
      assert.match(
        await page.textContent('[data-widget="layer-breakdown"] .widget-note >> nth=1'),
        /over the prompt’s 1 tokens/,
      );
      await page.waitForFunction(() =>
        /at least 2 tokens/.test(document.querySelector('[data-widget="gradient-flow"] .input-error').textContent),
      );

      // A Chinese character is three tokens.
      await page.fill('#model-prompt', '残差');
      await settle(page);
      assert.equal(await page.locator('.token-chip').count(), 6);
      assert.match(await page.textContent('#model-prompt-hint'), /^6 of at most 64 tokens/);
      await page.click('text=Example prompt');
      await settle(page);
      assert.equal(await page.inputValue('#model-prompt'), 'Each layer adds to the stream.');
    }));

  test('the settings live in the link; invalid ones fall back with a note', () =>
    withPage(
      '?norm=layernorm&placement=post&depth=12&layer=5&gdepth=8&scale=linear&prompt=hello%20world',
      async (page) => {
        assert.equal(await page.locator('#notices .notice').count(), 0);
        assert.equal(await page.inputValue('#model-norm'), 'layernorm');
        assert.equal(await page.inputValue('#model-placement'), 'post');
        assert.equal(await page.inputValue('#model-depth'), '12');
        assert.equal(await page.inputValue('#layer-select'), '5');
        assert.equal(await page.inputValue('#grad-depth'), '8');
        assert.equal(await page.inputValue('#layer-chart-scale'), 'linear');
        assert.equal(await page.inputValue('#model-prompt'), 'hello world');
        assert.equal(await page.textContent('[data-box="inputNormIn"] .stat-title'), 'After-attention LayerNorm input');

        await page.selectOption('#model-norm', 'rmsnorm');
        await page.fill('#layer-select', '7');
        await page.waitForFunction(() => location.search.includes('layer=7') && !location.search.includes('norm='));
        const bad = await openPage(shared.browser, `${fileUrl}?norm=bogus&placement=side&depth=99&gdepth=3&scale=x`);
        try {
          assert.equal(await bad.page.locator('#notices .notice').count(), 5);
          assert.match(await bad.page.textContent('#notices'), /norm=bogus, which is not valid here/);
          assert.equal(await bad.page.inputValue('#model-norm'), 'rmsnorm');
          assert.equal(await bad.page.inputValue('#model-depth'), '24');
          assert.equal(await bad.page.inputValue('#grad-depth'), '24');
          assert.deepEqual(bad.problems, []);
        } finally {
          await bad.close();
        }
      },
    ));

  test('over HTTP, in Chinese: the same views, the Chinese example prompt', () =>
    withPage(
      'index.html?lang=zh-CN&layer=22',
      async (page) => {
        assert.equal(await page.inputValue('#model-prompt'), '每层都加回残差流。');
        assert.equal(await page.locator('.token-chip').count(), 27);
        assert.equal(await page.textContent('[data-box="inputNormIn"] .stat-title'), '注意力前的 RMSNorm：输入');
        nearSqrtD(await boxStat(page, 'inputNormOut'), "layer 22's output");
        assert.ok((await boxStat(page, 'inputNormIn')) > 64);
      },
      { http: true },
    ));
});
