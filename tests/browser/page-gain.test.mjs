// The learned-gain widget's two sources, in Chromium, in both languages: the
// synthetic sample is the default and says so; before any lab run the
// trained source is disabled, with its reason; after a short lab run (the
// test-only window.NORMLAB_LAB_STEPS) the trained source shows exactly the
// gains, counts, extremes, RMS and output length of a trainer made in the
// page with the lab's options and stepped as far; axe finds nothing serious
// in the widget with trained gains shown.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { fixed, significant } from '../../web/src/format.js';
import { fill, lookup } from '../../web/src/i18n/index.js';
import { LAB_DEFAULTS, runOptions } from '../../web/src/lab/runs.js';
import { LAB as lab, bringLabIn, openPage, seriousViolations, settle, shareBrowserAndServer } from './page-support.mjs';

const shared = shareBrowserAndServer();
const TEXTS = {
  'zh-CN': readFileSync(new URL('../../web/data/training-text.zh.txt', import.meta.url), 'utf8'),
  en: readFileSync(new URL('../../web/data/training-text.en.txt', import.meta.url), 'utf8'),
};
const STEPS = 3;
const GAIN = '[data-widget="gain"]';
// The runs trained here: pre-norm and post-norm with warmup (the lab's
// default settings otherwise).
const SETTINGS = { ...LAB_DEFAULTS, runs: ['pre', 'warmup'] };

const readout = (page, name) => page.locator(`${GAIN} [data-readout="${name}"]`).textContent();
const barValues = (page) =>
  page.locator(`${GAIN} rect.gain-bar`).evaluateAll((rects) => rects.map((r) => r.__data__.value));
const visibleText = (page, selector) =>
  page.locator(`${GAIN} ${selector}`).evaluate((node) => (node.hidden ? null : node.textContent));

// What a trainer made in the page with run id's options, stepped STEPS
// times, holds: each layer's gains and its norms' output lengths.
async function trainerGains(page, id, lang) {
  const options = runOptions(id, SETTINGS, STEPS, TEXTS[lang]);
  return page.evaluate(async (o) => {
    const nl = await window.normlab.loadNormlab();
    const trainer = await nl.createTrainer(o);
    try {
      trainer.step(o.steps);
      const g = trainer.gains();
      const probe = trainer.layerNorms();
      const rows = (values) =>
        Array.from({ length: g.layers }, (_, l) => Array.from(values.subarray(l * g.hidden, (l + 1) * g.hidden)));
      const names = ['inputNorm', 'postAttentionNorm'];
      const stats = (values) => nl.stats(Float32Array.from(values)).rms[0];
      const gains = Object.fromEntries(names.map((n) => [n, rows(g.gain[n])]));
      return {
        gains,
        rms: Object.fromEntries(names.map((n) => [n, gains[n].map(stats)])),
        normOut: Object.fromEntries(names.map((n) => [n, Array.from(probe.norms[n].out)])),
      };
    } finally {
      trainer.delete();
    }
  }, options);
}

// The readouts the widget must show for these gains, and its length note
// after the math (the text that holds every number): the estimate sqrt(32)
// times the RMS beside the length the lab measured.
function expected(values, rms, measured, t) {
  const predicted = Math.sqrt(values.length) * rms;
  const params = {
    sqrtD: '5.66',
    rms: fixed(rms, 3),
    predicted: significant(predicted),
    measured: significant(measured),
    ratio: fixed(measured / predicted, 3),
  };
  const key = params.measured === params.predicted ? 'lengthTrainedMatches' : 'lengthTrained';
  return {
    readouts: {
      amplified: String(values.filter((g) => g > 1).length),
      suppressed: String(values.filter((g) => g < 1).length),
      min: fixed(Math.min(...values), 2),
      max: fixed(Math.max(...values), 2),
      rms: fixed(rms, 3),
    },
    lengthTail: t(key, params).split('$').at(-1),
  };
}

async function shownReadouts(page) {
  const names = ['amplified', 'suppressed', 'min', 'max', 'rms'];
  const values = await Promise.all(names.map((n) => readout(page, n)));
  return Object.fromEntries(names.map((n, i) => [n, values[i]]));
}

async function guessAndStart(page) {
  await page.uncheck('#lab-run-post');
  await page.locator(`${lab} .lab-predict button`).first().click();
  await page.waitForFunction((sel) => !document.querySelector(`${sel} .lab-start`).disabled, lab);
  await page.locator(`${lab} .lab-start`).click();
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.phase === 'done', lab, {
    timeout: 15 * 60 * 1000,
  });
  await settle(page);
}

for (const lang of ['en', 'zh-CN']) {
  describe(`the learned-gain widget's sources (${lang})`, () => {
    const t = (key, params) => fill(lookup(lang, `gain.${key}`), params);

    test('synthetic by default; trained disabled before a run; after one, exactly the trainer’s gains', async () => {
      // Over HTTP with the CSP bypassed: axe reads the stylesheets itself.
      const { page, problems, close } = await openPage(shared.browser, `${shared.server.url}index.html?lang=${lang}`, {
        initScript: `window.NORMLAB_LAB_STEPS = ${STEPS};`,
        bypassCSP: true,
      });
      try {
        await page.locator(GAIN).scrollIntoViewIfNeeded();
        await settle(page);
        // Before any run: the synthetic sample, said to be synthetic; the
        // trained source disabled, its reason shown and tied to it.
        assert.equal(await page.isChecked('#gain-source-synthetic'), true);
        assert.equal(await page.isDisabled('#gain-source-trained'), true);
        assert.equal(await visibleText(page, '.gain-unavailable'), t('trainedUnavailable'));
        assert.equal(await page.getAttribute('#gain-source-trained', 'aria-describedby'), 'gain-trained-unavailable');
        assert.equal(await page.locator(`${GAIN} .gain-picks`).isHidden(), true);
        assert.equal(await visibleText(page, '.synthetic-note'), t('synthetic'));
        const synthetic = await barValues(page);
        assert.equal(synthetic.length, 48);

        await bringLabIn(page);
        await guessAndStart(page);
        await page.locator(GAIN).scrollIntoViewIfNeeded();
        await settle(page);
        // A run changes no choice: the synthetic sample stays until the
        // reader picks the trained gains.
        assert.equal(await page.isChecked('#gain-source-synthetic'), true);
        assert.equal(await page.isDisabled('#gain-source-trained'), false);
        assert.equal(await page.locator(`${GAIN} .gain-unavailable`).isHidden(), true);
        assert.deepEqual(await barValues(page), synthetic);

        await page.check('#gain-source-trained');
        await settle(page);
        const pre = await trainerGains(page, 'pre', lang);
        // The first run, layer 0, its attention-side norm.
        assert.deepEqual(await page.locator('#gain-run option').allTextContents(), [
          t('runOption', { name: t('runPre'), layers: 24, lr: '0.003' }),
          t('runOption', { name: t('runWarmup', { warmup: 200 }), layers: 24, lr: '0.003' }),
        ]);
        assert.deepEqual(
          [
            await page.inputValue('#gain-run'),
            await page.inputValue('#gain-layer'),
            await page.inputValue('#gain-side'),
          ],
          ['pre', '0', 'inputNorm'],
        );
        assert.equal(await page.locator('#gain-layer option').count(), 24);
        const check = async (gains, rms, measured) => {
          assert.deepEqual(await barValues(page), gains);
          const want = expected(gains, rms, measured, t);
          assert.deepEqual(await shownReadouts(page), want.readouts);
          const length = await visibleText(page, '.gain-length');
          assert.ok(length.endsWith(want.lengthTail), `${length} ends with ${want.lengthTail}`);
        };
        await check(pre.gains.inputNorm[0], pre.rms.inputNorm[0], pre.normOut.inputNorm[0]);
        assert.equal(pre.gains.inputNorm[0].length, 32);
        assert.ok(
          pre.gains.inputNorm[0].some((g) => g !== 1),
          'three steps moved the gains',
        );
        // The RMS the widget reads is the gains' own, in double precision too.
        const rmsDouble = Math.sqrt(pre.gains.inputNorm[0].reduce((s, g) => s + g * g, 0) / 32);
        assert.ok(Math.abs(rmsDouble - pre.rms.inputNorm[0]) < 1e-6);
        const described = await visibleText(page, '.gain-described');
        const params = {
          run: t('runPre'),
          layers: 24,
          lr: '0.003',
          steps: STEPS,
          layer: 0,
          side: t('sideAttention'),
          norm: t('rmsNorm'),
          hidden: 32,
        };
        assert.equal(described, t('trainedSource', params));
        assert.equal(await visibleText(page, '.synthetic-note'), t('trainedNote', { hidden: 32 }));

        // Another layer and the MLP-side norm.
        await page.selectOption('#gain-layer', '17');
        await page.selectOption('#gain-side', 'postAttentionNorm');
        await settle(page);
        await check(pre.gains.postAttentionNorm[17], pre.rms.postAttentionNorm[17], pre.normOut.postAttentionNorm[17]);
        assert.equal(
          await visibleText(page, '.gain-described'),
          t('trainedSource', { ...params, layer: 17, side: t('sideMlp') }),
        );
        assert.deepEqual(await seriousViolations(page, GAIN), []);

        // The other run: its own gains, from layer 0.
        await page.selectOption('#gain-run', 'warmup');
        await settle(page);
        const warmup = await trainerGains(page, 'warmup', lang);
        assert.equal(await page.inputValue('#gain-layer'), '0');
        await check(
          warmup.gains.postAttentionNorm[0],
          warmup.rms.postAttentionNorm[0],
          warmup.normOut.postAttentionNorm[0],
        );
        assert.notDeepEqual(warmup.gains.postAttentionNorm[0], pre.gains.postAttentionNorm[0]);

        // And back to the synthetic sample.
        await page.check('#gain-source-synthetic');
        await settle(page);
        assert.deepEqual(await barValues(page), synthetic);
        assert.equal(await page.locator(`${GAIN} .gain-picks`).isHidden(), true);
        assert.equal(await visibleText(page, '.synthetic-note'), t('synthetic'));
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  });
}
