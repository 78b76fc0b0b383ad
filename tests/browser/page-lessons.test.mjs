// The student's own work on the page, in both languages: the calculator's
// challenges (each settled by the kernels on the student's vector, the demo
// panel's figures quoted from its forward view; the five done in order,
// which leaves the zero vector, with every sentence it shows), the
// calculator's eps written out where it is not negligible, its float32
// overflow, the breakdown's std-vs-RMS pointer, the exercise's model answer
// in pre- and post-norm, and the quiz (hint first, explanation after a right
// or second wrong pick, first-try score, answers kept across a reload, "try
// again"). Every expected text is the page's own string filled with figures
// this test computes or reads from the demo panel's views.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { EXERCISE_LAYERS, MODEL_SHAPE } from '../../web/src/constants.js';
import { decimals, significant, vectorText } from '../../web/src/format.js';
import { lookup, plain } from '../../web/src/i18n/index.js';
import { depthList, formatClaims } from '../../web/src/claim-params.js';
import { pageClaims } from '../../web/src/lab/claims.js';
import { LAB_DEFAULTS, LAB_SHAPE } from '../../web/src/lab/runs.js';
import { fileUrl, openPage, settle, shareBrowserAndServer } from './page-support.mjs';

const shared = shareBrowserAndServer();

const STORE_KEY = 'normlab:learner:v1';

// What quiz question 2's explanation says of post-norm without warmup at the
// lab's learning rate: the depths where it learned in most of the committed
// sweep's seeds on the page language's text, and where it did not, read
// from the rows here.
const SWEEP = JSON.parse(readFileSync(new URL('../../web/data/train-sweep.json', import.meta.url), 'utf8'));
const ROBUSTNESS = JSON.parse(readFileSync(new URL('../../web/data/lab-robustness.json', import.meta.url), 'utf8'));
const QUIZ_LR = LAB_DEFAULTS.lr;
const depthsAt = (lang, run) => {
  const learned = (layers) => {
    const rows = SWEEP.rows.filter((r) => r.lang === lang && r.layers === layers && r.lr === QUIZ_LR && r.run === run);
    return rows.filter((r) => r.outcome === 'learned').length > rows.length / 2;
  };
  return { learnedAt: SWEEP.grid.layers.filter(learned), failedAt: SWEEP.grid.layers.filter((l) => !learned(l)) };
};
// What quiz question 6's explanation says of the learning-rate window: at
// how many of the sweep's rates a run learned in most seeds at a depth.
const ratesLearned = (lang, run, layers) =>
  SWEEP.grid.lr.filter((lr) => {
    const rows = SWEEP.rows.filter((r) => r.lang === lang && r.layers === layers && r.lr === lr && r.run === run);
    return rows.filter((r) => r.outcome === 'learned').length > rows.length / 2;
  }).length;
const FLOAT32_MAX = (2 - 2 ** -23) * 2 ** 127;

// A page string, filled as the page fills it.
const text = (lang, key, params) => plain(lookup(lang, key), params);
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Figures the page prints from a number it computed and the test cannot
// reproduce to the last digit (a ratio of two rounded read-outs): the
// expected text with every {name} in `loose` matched as a number.
function loosely(lang, key, params, loose) {
  const marks = Object.fromEntries(loose.map((name, i) => [name, `\u0000${i}\u0000`]));
  const escaped = escapeRe(text(lang, key, { ...params, ...marks }));
  return new RegExp(`^${escaped.replace(/\u0000\d+\u0000/g, '(-?[\\d.]+)')}$`);
}

// A number as the page prints it: plain digits, e-notation, or a power of
// ten written "a × 10ⁿ", with or without thousands separators.
const SUPERSCRIPT = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
  '⁻': '-',
  '−': '-',
};
function shownNumber(shown) {
  const s = shown
    .trim()
    .replace(/[,\u202f\u00a0 ](?=\d{3})/g, '')
    .replace(/−/g, '-');
  const power = s.match(/^(-?[\d.]+)\s*×\s*10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/);
  if (power) return Number(power[1]) * 10 ** Number([...power[2]].map((c) => SUPERSCRIPT[c]).join(''));
  const value = Number(s);
  assert.ok(Number.isFinite(value), `"${shown}" is not a finite number`);
  return value;
}
// The relative precision a printed number carries (half a unit of its last
// significant digit).
function shownPrecision(shown) {
  const mantissa = shown.trim().replace(/−/g, '-').split(/[e×]/)[0].replace(/[^\d]/g, '').replace(/^0+/, '');
  return 0.5 * 10 ** -(Math.max(mantissa.length, 1) - 1);
}
// The kernels' results are float32: no closer than its rounding (2^-24
// relative), however many digits are printed.
function closeAsShown(shown, expected, what) {
  const value = shownNumber(shown);
  const precision = Math.max(shownPrecision(shown), 2 ** -22);
  assert.ok(
    Math.abs(value - expected) <= 1.01 * precision * Math.abs(expected) + 1e-12,
    `${what}: shows ${shown}, expected about ${expected}`,
  );
}

// The demo model's per-layer statistics, computed here through the public
// API with the page's settings (not read from the page).
async function modelStats(page, { norm = 'rmsnorm', placement = 'pre', prompt, layers = 24 }) {
  return page.evaluate(
    async ({ config, prompt }) => {
      const nl = await window.normlab.loadNormlab({ backend: 'auto' });
      const model = nl.createModel(config);
      try {
        const run = model.forward(prompt, { topK: 1 });
        const out = {};
        for (const name of ['inputNorm.in', 'postAttentionNorm.in']) {
          const s = run.probes[name].mean;
          out[name] = { mean: Array.from(s.mean), std: Array.from(s.std), rms: Array.from(s.rms) };
        }
        return out;
      } finally {
        model.delete();
        nl.dispose();
      }
    },
    { config: { ...MODEL_SHAPE, norm, placement, layers, eps: 1e-6 }, prompt },
  );
}

const gapOf = (s, layer) => (s.rms[layer] - s.std[layer]) / s.rms[layer];

const stored = (page) => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}'), STORE_KEY);
// An input, its repaint and the repaint a store write it caused.
async function painted(page) {
  await settle(page);
  await settle(page);
}

const box = (page, name, stat = 'l2') => page.textContent(`[data-box="${name}"] [data-stat="${stat}"] dd`);
async function setLayer(page, layer) {
  await page.fill('#layer-select', String(layer));
  await painted(page);
}

for (const lang of ['en', 'zh-CN']) {
  const t = (key, params) => text(lang, key, params);
  const prompt = lookup(lang, 'model.defaultPrompt');

  describe(`the student's own work (${lang})`, () => {
    async function withPage(query, check) {
      const { page, problems, close } = await openPage(shared.browser, `${fileUrl}?lang=${lang}${query}`);
      try {
        await page.waitForSelector('[data-widget="layer-breakdown"] [data-box]');
        await check(page);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    }

    test("the calculator's five challenges, each settled by the kernels on the student's vector", () =>
      withPage('&layer=0', async (page) => {
        const item = (id) => page.locator(`[data-challenge="${id}"]`);
        const feedback = (id) => item(id).locator('.challenge-feedback p').allTextContents();
        const step = (name) => page.textContent(`[data-step="${name}"]`);
        assert.equal(await page.textContent('.challenge-progress'), t('challenges.progress', { done: 0, total: 5 }));
        assert.equal(await item('flat').getAttribute('data-done'), 'false');
        assert.equal(await item('flat').locator('.challenge-feedback').isVisible(), false);

        // A constant vector: LayerNorm zeros, RMSNorm ones.
        await item('flat').locator('.challenge-action').click();
        await painted(page);
        assert.equal(await page.inputValue('#calc-vector'), '3, 3, 3, 3');
        assert.equal(await step('ln-lnY'), '[0, 0, 0, 0]');
        assert.equal(await step('rms-y'), '[1, 1, 1, 1]');
        assert.equal(await item('flat').getAttribute('data-done'), 'true');
        assert.deepEqual(await feedback('flat'), [
          t('challenges.flat.result', {
            lead: t('challenges.source.now', { x: '[3, 3, 3, 3]' }),
            lnY: '[0, 0, 0, 0]',
            rmsY: '[1, 1, 1, 1]',
          }),
          t('challenges.flat.why', { mean: '3', std: '0.001', rms: '3' }),
        ]);

        // The same number added to every entry: typed by hand in one language,
        // with the button in the other.
        await page.fill('#calc-vector', '2, -1, 3, 0');
        await painted(page);
        assert.equal(await item('shift').getAttribute('data-done'), 'false');
        if (lang === 'en') await page.fill('#calc-vector', '12, 9, 13, 10');
        else await item('shift').locator('.challenge-action').click();
        await painted(page);
        assert.equal(await page.inputValue('#calc-vector'), '12, 9, 13, 10');
        const rmsAfter = Math.sqrt((144 + 81 + 169 + 100) / 4);
        const yAfter = [12, 9, 13, 10].map((v) => v / rmsAfter);
        const yBefore = [2, -1, 3, 0].map((v) => v / Math.sqrt(3.5));
        assert.equal(await step('rms-y'), vectorText(yAfter));
        assert.equal(await item('shift').getAttribute('data-done'), 'true');
        assert.deepEqual(await feedback('shift'), [
          t('challenges.shift.result', {
            lead: t('challenges.source.now', { x: '[12, 9, 13, 10]' }),
            before: '[2, -1, 3, 0]',
            c: '10',
            lnBefore: '[0.63, -1.26, 1.26, -0.63]',
            lnAfter: '[0.63, -1.26, 1.26, -0.63]',
            lnChange: '0',
            rmsBefore: '[1.07, -0.53, 1.6, 0]',
            rmsAfter: vectorText(yAfter),
            rmsChange: significant(Math.max(...yAfter.map((v, i) => Math.abs(v - yBefore[i]))), 2),
          }),
          t('challenges.shift.why', { c: '10', rmsBefore: '1.871', rmsAfter: decimals(rmsAfter, 3) }),
        ]);

        // "Is y a unit vector?": a wrong pick, then the right one; the figures
        // are the kernels' for the vector in the calculator.
        const unitFigures = { x: '[12, 9, 13, 10]', d: 4, meanSquare: '1', sum: '4', l2: '2', sqrtD: '2' };
        await item('unit').locator('[data-option="a"] input').check();
        await painted(page);
        assert.equal(await item('unit').locator('[data-option="a"]').getAttribute('data-mark'), 'wrong');
        assert.deepEqual(await feedback('unit'), [
          t('challenges.unit.result', { verdict: t('challenges.notQuite'), ...unitFigures }),
          t('challenges.unit.why'),
        ]);
        await item('unit').locator('[data-option="b"] input').check();
        await painted(page);
        assert.equal(await item('unit').locator('[data-option="b"]').getAttribute('data-mark'), 'correct');
        assert.equal(
          (await feedback('unit'))[0],
          t('challenges.unit.result', { verdict: t('challenges.right'), ...unitFigures }),
        );

        // "Does RMSNorm make activations smaller?": this vector shrinks, the
        // demo panel's layer 0 grows, with the breakdown's own figures.
        const in0 = await box(page, 'inputNormIn');
        const out0 = await box(page, 'inputNormOut');
        await setLayer(page, 23);
        const in23 = await box(page, 'inputNormIn');
        const out23 = await box(page, 'inputNormOut');
        await item('size').locator('[data-option="c"] input').check();
        await painted(page);
        const sizeText = await feedback('size');
        assert.equal(
          sizeText[0],
          t('challenges.size.smaller', {
            verdict: t('challenges.right'),
            x: '[12, 9, 13, 10]',
            before: decimals(Math.sqrt(494), 3),
            after: '2',
            d: 4,
            sqrtD: '2',
          }),
        );
        // The sentence, then the link to the breakdown.
        const link = ` ${t('challenges.size.link')}`;
        assert.ok(sizeText[1].endsWith(link), sizeText[1]);
        const model = sizeText[1].slice(0, -link.length).match(
          loosely(
            lang,
            'challenges.size.model',
            {
              norm: 'RMSNorm',
              placement: t('model.placementPre'),
              in0,
              out0,
              last: 23,
              inLast: in23,
              outLast: out23,
            },
            ['ratio0', 'ratioLast'],
          ),
        );
        assert.ok(model, `${sizeText[1]} does not quote the breakdown's ${in0} → ${out0} and ${in23} → ${out23}`);
        const [ratio0, ratioLast] = model.slice(1).map(Number);
        assert.ok(
          ratio0 > 3 && Math.abs(ratio0 - Number(out0) / Number(in0)) < 0.06 * ratio0,
          `layer 0 grows ×${ratio0}`,
        );
        assert.ok(
          ratioLast < 0.5 && Math.abs(ratioLast - Number(out23) / Number(in23)) < 0.06 * ratioLast,
          `layer 23 shrinks ×${ratioLast}`,
        );
        assert.equal(await item('size').locator('a').getAttribute('href'), '#demo-breakdown');
        assert.equal(sizeText[2], t('challenges.size.why'));

        // Mean zero: std = RMS and both outputs agree; the model's norm inputs
        // are close to it at every layer (computed here through the API).
        await item('zero').locator('.challenge-action').click();
        await painted(page);
        assert.equal(await page.inputValue('#calc-vector'), '1, -2, 2, -1');
        const stats = await modelStats(page, { prompt });
        const largest = Math.max(...Object.values(stats).flatMap((s) => s.rms.map((_, l) => gapOf(s, l))));
        assert.ok(largest > 0 && largest < 0.01, `largest std/RMS gap ${largest}`);
        assert.deepEqual(await feedback('zero'), [
          t('challenges.zero.result', {
            lead: t('challenges.source.now', { x: '[1, -2, 2, -1]' }),
            mean: '0',
            std: '1.581',
            rms: '1.581',
            lnY: '[0.63, -1.26, 1.26, -0.63]',
            rmsY: '[0.63, -1.26, 1.26, -0.63]',
          }),
          t('challenges.zero.why'),
          t('challenges.zero.model', { depth: 24, gap: significant(largest * 100, 2), norm: 'RMSNorm' }),
        ]);

        assert.equal(await page.textContent('.challenge-progress'), t('challenges.progress', { done: 5, total: 5 }));
        assert.deepEqual((await stored(page)).challenges, { flat: 1, shift: 1, unit: 'b', size: 'c', zero: 1 });

        // A reload keeps the progress; the tasks done with earlier vectors show
        // their point again on the task's example, computed anew.
        await page.waitForFunction(() => new URL(location.href).searchParams.get('x') === '1, -2, 2, -1');
        await page.reload();
        await page.waitForFunction(() => document.getElementById('backend')?.dataset.backend !== 'loading');
        await painted(page);
        assert.equal(await page.textContent('.challenge-progress'), t('challenges.progress', { done: 5, total: 5 }));
        assert.equal(
          (await feedback('flat'))[0],
          t('challenges.flat.result', {
            lead: t('challenges.source.example', { x: '[3, 3, 3, 3]' }),
            lnY: '[0, 0, 0, 0]',
            rmsY: '[1, 1, 1, 1]',
          }),
        );
        assert.match(
          (await feedback('shift'))[0],
          new RegExp(`^${escapeRe(t('challenges.source.example', { x: '[12, 9, 13, 10]' }))}`),
        );
        assert.equal(await item('unit').locator('[data-option="b"] input').isChecked(), true);
        assert.equal((await feedback('zero'))[0].startsWith(t('challenges.source.now', { x: '[1, -2, 2, -1]' })), true);
      }));

    test('3, 3, 3, 3, then Add 10, then Subtract the mean: the zero vector explained, and no false sentence', () =>
      withPage('&layer=0', async (page) => {
        const item = (id) => page.locator(`[data-challenge="${id}"]`);
        const feedback = (id) => item(id).locator('.challenge-feedback p').allTextContents();
        const step = (name) => page.textContent(`[data-step="${name}"]`);
        const note = (name) => page.textContent(`[data-eps-note="${name}"]`);
        assert.equal(await page.textContent('.challenge-rule'), t('challenges.rule', { least: '0.1' }));

        await item('flat').locator('.challenge-action').click();
        await painted(page);
        // A constant vector: LayerNorm's std is eps alone, and says so.
        assert.equal(await step('ln-std'), '0.001 = √(0 + 10⁻⁶)');
        assert.equal(await note('ln'), t('calculator.lnFlat', { eps: '10⁻⁶', std: '0.001' }));
        assert.equal(await page.isVisible('[data-eps-note="rms"]'), false);
        assert.equal(await step('rms-rmsValue'), '3');

        // "Add 10" on a constant vector: nothing to compare, and it says why.
        await item('shift').locator('.challenge-action').click();
        await painted(page);
        assert.equal(await page.inputValue('#calc-vector'), '13, 13, 13, 13');
        assert.equal(await item('shift').getAttribute('data-done'), 'false');
        const constant = (source) =>
          t('challenges.shift.constant', {
            lead: t(`challenges.source.${source}`, { x: '[13, 13, 13, 13]' }),
            before: '[3, 3, 3, 3]',
            c: '10',
          });
        assert.deepEqual(await feedback('shift'), [constant('now')]);
        await item('unit').locator('[data-option="b"] input').check();
        await item('size').locator('[data-option="c"] input').check();
        await painted(page);

        await item('zero').locator('.challenge-action').click();
        await painted(page);
        assert.equal(await page.inputValue('#calc-vector'), '0, 0, 0, 0');
        // The calculator: the RMS is √eps, written out, and why.
        assert.equal(await step('rms-rmsValue'), '0.001 = √(0 + 10⁻⁶)');
        assert.equal(await step('rms-outL2'), '0');
        assert.equal(await note('rms'), t('calculator.rmsZero', { eps: '10⁻⁶', rms: '0.001' }));
        // The checks: the zero-mean task explained and not done; the
        // questions without a √d claim; the shift's note kept as earlier.
        assert.equal(await item('zero').getAttribute('data-done'), 'false');
        assert.deepEqual(await feedback('zero'), [
          t('challenges.zero.allZero', { lead: t('challenges.source.now', { x: '[0, 0, 0, 0]' }), rms: '0.001' }),
        ]);
        const verdict = t('challenges.right');
        assert.deepEqual(await feedback('unit'), [
          t('challenges.unit.zero', { verdict, least: '0.1' }),
          t('challenges.zeroVector', { rms: '0.001', std: '0.001', sqrtD: '2' }),
        ]);
        const size = await feedback('size');
        assert.equal(size[0], t('challenges.size.zero', { verdict }));
        assert.ok(size[1].endsWith(` ${t('challenges.size.link')}`), size[1]);
        assert.equal(size[2], t('challenges.size.why'));
        assert.deepEqual(await feedback('shift'), [constant('earlier')]);
        assert.equal(
          (await feedback('flat'))[0],
          t('challenges.flat.result', {
            lead: t('challenges.source.earlier', { x: '[13, 13, 13, 13]' }),
            lnY: '[0, 0, 0, 0]',
            rmsY: '[1, 1, 1, 1]',
          }),
        );
        assert.equal(await page.textContent('.challenge-progress'), t('challenges.progress', { done: 3, total: 5 }));
        const shown = await page.locator('[data-widget="challenges"]').innerText();
        assert.doesNotMatch(shown, /0\.001 → |√4 = 2）：它本来|already had that length/);

        // Both tasks left can still be done: Example A, then Subtract the
        // mean (a shift by −1 as well), then Add 10.
        await page.getByRole('button', { name: t('calculator.exampleA'), exact: true }).click();
        await painted(page);
        await item('zero').locator('.challenge-action').click();
        await painted(page);
        assert.equal(await page.inputValue('#calc-vector'), '1, -2, 2, -1');
        assert.equal(await item('zero').getAttribute('data-done'), 'true');
        assert.equal(await page.isVisible('[data-eps-note="rms"]'), false);
        assert.equal(await step('rms-rmsValue'), '1.581');
        assert.equal(
          (await feedback('shift'))[0].startsWith(`${t('challenges.source.now', { x: '[1, -2, 2, -1]' })}`),
          true,
        );
        assert.equal(await page.textContent('.challenge-progress'), t('challenges.progress', { done: 5, total: 5 }));
        assert.deepEqual((await stored(page)).challenges, { flat: 1, unit: 'b', size: 'c', zero: 1, shift: 1 });
      }));

    test('1e20 in the calculator: the double-precision steps the kernel falls back to, never Infinity', () =>
      withPage('', async (page) => {
        const step = (name) => page.textContent(`[data-step="${name}"]`);
        await page.fill('#calc-vector', '1e20, 2, 3');
        await painted(page);
        const shown = await page.locator('[data-widget="calculator"]').innerText();
        assert.doesNotMatch(shown, /Infinity|∞|NaN/);
        const max = significant(FLOAT32_MAX, 2);
        assert.equal(await page.textContent('[data-overflow="rms"]'), t('calculator.overflowRms', { max }));
        assert.equal(await page.textContent('[data-overflow="ln"]'), t('calculator.overflowLn', { max }));
        // The values a double-precision computation gives: x = 1e20 as float32.
        const x0 = Math.fround(1e20);
        const meanSquare = (x0 * x0 + 4 + 9) / 3;
        const rmsShown = await step('rms-rmsValue');
        closeAsShown(await step('rms-meanSquare'), meanSquare, 'mean(x²)');
        closeAsShown(rmsShown, Math.sqrt(meanSquare), 'RMS');
        const mean = (x0 + 5) / 3;
        const variance = ((x0 - mean) ** 2 + (2 - mean) ** 2 + (3 - mean) ** 2) / 3;
        closeAsShown(await step('ln-variance'), variance, 'variance');
        closeAsShown(await step('ln-std'), Math.sqrt(variance), 'std');
        assert.equal(
          await step('rms-y'),
          vectorText([Math.sqrt(3), 2 / Math.sqrt(meanSquare), 3 / Math.sqrt(meanSquare)]),
        );
        assert.equal(
          await page.getAttribute('[data-widget="calculator"] .calc-rms .calc-steps', 'data-precision'),
          'double',
        );

        // Back in range: float32 steps and no note.
        await page.fill('#calc-vector', '1e19, 2, 3');
        await painted(page);
        assert.equal(await page.isVisible('[data-overflow="rms"]'), false);
        assert.equal(await page.isVisible('[data-overflow="ln"]'), false);
        assert.equal(
          await page.getAttribute('[data-widget="calculator"] .calc-rms .calc-steps', 'data-precision'),
          'float',
        );
        closeAsShown(await step('rms-meanSquare'), (Math.fround(1e19) ** 2 + 13) / 3, 'mean(x²) at 1e19');
      }));

    test("the breakdown points out where std ≈ RMS, with the layer's own figures", () =>
      withPage('&layer=22', async (page) => {
        const stats = await modelStats(page, { prompt });
        for (const layer of [22, 0]) {
          if (layer === 0) await setLayer(page, 0);
          const s = stats['inputNorm.in'];
          const [, std] = (await box(page, 'inputNormIn', 'varStd')).split(' / ');
          assert.equal(
            await page.textContent('.mean-pointer'),
            t('meanPointer.near', {
              layer,
              box: await page.textContent('[data-box="inputNormIn"] .stat-title'),
              mean: await box(page, 'inputNormIn', 'mean'),
              std,
              rms: await box(page, 'inputNormIn', 'rms'),
              gap: significant(gapOf(s, layer) * 100, 2),
              share: significant((Math.abs(s.mean[layer]) / s.rms[layer]) * 100, 2),
            }),
          );
          assert.deepEqual(await page.locator('.has-mean-pointer').evaluateAll((n) => n.map((b) => b.dataset.box)), [
            'inputNormIn',
            'postNormIn',
          ]);
        }
        await page.selectOption('#model-norm', 'none');
        await painted(page);
        assert.equal(await page.isVisible('.mean-pointer'), false);
      }));

    test("the exercise's model answer quotes the demo panel, in pre- and post-norm", () =>
      withPage('&layer=0', async (page) => {
        const [first, second] = EXERCISE_LAYERS;
        // The boxes as the breakdown names them in the layout shown.
        const boxNames = async () => ({
          boxIn: await page.textContent('[data-box="inputNormIn"] .stat-title'),
          boxOut: await page.textContent('[data-box="inputNormOut"] .stat-title'),
        });
        let names = await boxNames();
        assert.equal(names.boxIn, t('breakdown.box.inputNormIn', { norm: 'RMSNorm' }));
        const residualColumn = () =>
          page
            .locator('[data-widget="layer-chart"] tbody tr')
            .evaluateAll((rows) => rows.map((tr) => tr.cells[1].textContent));
        async function figures() {
          const out = {};
          for (const layer of [first, second]) {
            await setLayer(page, layer);
            out[layer] = { in: await box(page, 'inputNormIn'), out: await box(page, 'inputNormOut') };
          }
          return out;
        }

        assert.equal(
          await page.textContent('#exercise .exercise-task'),
          t('exercise.task.pre', { first, second, ...names }),
        );
        assert.equal(
          await page.textContent('.exercise-aside p'),
          t('breakdown.exercise', { first, second, norm: 'RMSNorm' }),
        );
        assert.equal(await page.getAttribute('#exercise-reveal', 'aria-expanded'), 'false');
        assert.equal(await page.isVisible('#exercise-answer'), false);
        const pre = await figures();
        await page.click('#exercise-reveal');
        await painted(page);
        assert.equal(await page.getAttribute('#exercise-reveal', 'aria-expanded'), 'true');
        assert.deepEqual(
          await page.locator('.exercise-figures li').allTextContents(),
          [first, second].map((layer) =>
            t('exercise.figures.pre', {
              ...names,
              layer,
              in: pre[layer].in,
              out: pre[layer].out,
            }),
          ),
        );
        const reading = (await page.textContent('.exercise-reading')).match(
          loosely(lang, 'exercise.reading.pre', { first, second, sqrtD: '32' }, ['ratio']),
        );
        assert.ok(reading, await page.textContent('.exercise-reading'));
        const ratio = Number(reading[1]);
        assert.ok(
          ratio > 3 && Math.abs(ratio - Number(pre[second].in) / Number(pre[first].in)) < 0.06 * ratio,
          `input grows ×${ratio}`,
        );
        assert.equal(await page.textContent('.exercise-model'), t('exercise.model.pre'));
        assert.deepEqual((await stored(page)).exercise, { r: 1 });

        // Post-norm: the stream is renormalized after every sub-block; only
        // layer 0's embedding (and the first norm's input) is far from 32.
        await page.selectOption('#model-placement', 'post');
        await painted(page);
        names = await boxNames();
        // The breakdown's hands-on line asks what post-norm shows, too.
        assert.equal(await page.textContent('.exercise-aside p'), t('exercise.asidePost', { first, second, ...names }));
        assert.equal(
          await page.textContent('#exercise .exercise-task'),
          t('exercise.task.post', { first, second, ...names, series: t('layerChart.seriesResidual') }),
        );
        const post = await figures();
        const residual = await residualColumn();
        assert.equal(residual.length, 25);
        assert.deepEqual(
          await page.locator('.exercise-figures li').allTextContents(),
          [first, second].map((layer) =>
            t('exercise.figures.post', {
              ...names,
              layer,
              residual: residual[layer],
              in: post[layer].in,
              out: post[layer].out,
            }),
          ),
        );
        const later = residual.slice(1).sort((a, b) => Number(a) - Number(b));
        assert.equal(
          await page.textContent('.exercise-reading'),
          t('exercise.reading.post', {
            first,
            second,
            res0: residual[first],
            res1: residual[second],
            in0: post[first].in,
            lo: later[0],
            hi: later.at(-1),
          }),
        );
        assert.ok(
          Number(residual[0]) < 16 && Number(later[0]) > 28 && Number(later.at(-1)) < 36,
          `stream entering the layers: ${residual}`,
        );
        assert.equal(await page.textContent('.exercise-model'), t('exercise.model.post'));

        // Kept across a reload; closing it clears the store's section.
        await page.reload();
        await page.waitForFunction(() => document.getElementById('backend')?.dataset.backend !== 'loading');
        await page.waitForSelector('.exercise-figures li');
        assert.equal(await page.getAttribute('#exercise-reveal', 'aria-expanded'), 'true');
        await page.click('#exercise-reveal');
        await painted(page);
        assert.equal(await page.isVisible('#exercise-answer'), false);
        assert.equal((await stored(page)).exercise, undefined);
      }));

    test('the quiz: six questions, a hint first, the explanation after a right or second wrong pick, a first-try score kept across a reload', () =>
      withPage('', async (page) => {
        const question = (q) => page.locator(`[data-question="${q}"]`);
        const option = (q, o) => question(q).locator(`[data-option="${o}"]`);
        const explanation = (q) => question(q).locator('.quiz-explanation');
        const hint = (q) => question(q).locator('.quiz-hint span');
        const score = () => page.textContent('.quiz-score');
        assert.equal(await page.locator('[data-widget="quiz"] .quiz-question').count(), 7);
        assert.deepEqual(await page.locator('[data-widget="quiz"] .quiz-number').allTextContents(), [
          '1',
          '2',
          '3',
          '4',
          '5',
          '6',
          '7',
        ]);
        for (const q of ['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7']) {
          assert.equal(
            await question(q).locator('legend span:not(.quiz-number)').textContent(),
            t(`quiz.${q}.question`),
          );
          assert.equal(await question(q).locator('.quiz-option').count(), 3);
          assert.equal(await explanation(q).isVisible(), false);
        }
        assert.equal(await score(), t('quiz.scoreNone', { total: 7 }));
        assert.equal(await page.isDisabled('.quiz-reset'), true);

        // Q1 wrong first: a hint about that option, no explanation, no answer.
        await option('q1', 'a').click();
        await painted(page);
        assert.equal(await option('q1', 'a').getAttribute('data-mark'), 'wrong');
        assert.equal(await question('q1').locator('.quiz-verdict-line').textContent(), t('quiz.wrong'));
        assert.equal(
          await hint('q1').textContent(),
          t('quiz.hintLine', { hint: t('quiz.q1.aHint'), tryAnother: t('quiz.tryAnother') }),
        );
        assert.equal(await explanation('q1').isVisible(), false);
        assert.equal(await explanation('q1').locator('span').textContent(), '');
        assert.equal(await question('q1').locator('[data-mark="answer"], [data-mark="correct"]').count(), 0);
        assert.equal(await score(), t('quiz.score', { firstTry: 0, answered: 1, total: 7 }));
        // ...then right: the explanation, and no first-try point.
        await option('q1', 'c').click();
        await painted(page);
        assert.equal(await option('q1', 'c').getAttribute('data-mark'), 'correct');
        assert.equal(await option('q1', 'a').getAttribute('data-mark'), null);
        assert.equal(await question('q1').locator('.quiz-verdict-line').textContent(), t('quiz.rightLater'));
        assert.equal(await explanation('q1').isVisible(), true);
        assert.equal(await explanation('q1').textContent(), `${t('quiz.why')}${t('quiz.q1.explanation')}`);
        assert.equal(await question('q1').locator('.quiz-hint').isVisible(), false);

        // Q2 right on the first try: Q2's explanation tells the page's one story.
        await option('q2', 'b').click();
        await painted(page);
        assert.equal(await question('q2').locator('.quiz-verdict-line').textContent(), t('quiz.rightFirst'));
        // Its figures are the sweep's on the page language's own text.
        const post = depthsAt(lang, 'post');
        const pre = depthsAt(lang, 'pre');
        assert.ok(post.learnedAt.length > 0 && post.failedAt.length > 0, JSON.stringify(post));
        const claims = pageClaims(SWEEP, ROBUSTNESS, lang);
        assert.deepEqual(claims.atRate.post, post);
        assert.deepEqual(claims.atRate.pre, pre);
        const params = formatClaims(claims, lang);
        assert.equal(
          await explanation('q2').locator('span').textContent(),
          t('quiz.q2.explanation', {
            ...params,
            lr: decimals(QUIZ_LR, 4),
            learned: depthList(post.learnedAt, lang),
            stalled: depthList(post.failedAt, lang),
            preLearned: depthList(pre.learnedAt, lang),
          }),
        );
        assert.equal(await score(), t('quiz.score', { firstTry: 1, answered: 2, total: 7 }));

        // Q3: two wrong picks open the explanation and point out the answer.
        await option('q3', 'a').click();
        await painted(page);
        assert.equal(
          await hint('q3').textContent(),
          t('quiz.hintLine', { hint: t('quiz.q3.aHint'), tryAnother: t('quiz.tryAnother') }),
        );
        assert.equal(await explanation('q3').isVisible(), false);
        await option('q3', 'c').click();
        await painted(page);
        assert.equal(await explanation('q3').isVisible(), true);
        assert.equal(await explanation('q3').textContent(), `${t('quiz.why')}${t('quiz.q3.explanation')}`);
        assert.equal(await question('q3').locator('.quiz-verdict-line').textContent(), t('quiz.wrongShown'));
        assert.equal(await option('q3', 'b').getAttribute('data-mark'), 'answer');
        assert.equal(await option('q3', 'b').locator('.quiz-verdict').textContent(), t('quiz.mark.answer'));
        assert.equal(await question('q3').locator('.quiz-hint').isVisible(), false);

        // Q4 right on the first try.
        await option('q4', 'a').click();
        await painted(page);
        assert.equal(await question('q4').locator('.quiz-verdict-line').textContent(), t('quiz.rightFirst'));
        assert.equal(await explanation('q4').textContent(), `${t('quiz.why')}${t('quiz.q4.explanation')}`);

        // Q5 wrong, a hint, then right: the explanation, no point.
        await option('q5', 'b').click();
        await painted(page);
        assert.equal(
          await hint('q5').textContent(),
          t('quiz.hintLine', { hint: t('quiz.q5.bHint'), tryAnother: t('quiz.tryAnother') }),
        );
        assert.equal(await explanation('q5').isVisible(), false);
        await option('q5', 'c').click();
        await painted(page);
        assert.equal(await question('q5').locator('.quiz-verdict-line').textContent(), t('quiz.rightLater'));
        assert.equal(await explanation('q5').textContent(), `${t('quiz.why')}${t('quiz.q5.explanation')}`);

        // Q6 right on the first try: its explanation quotes the sweep's
        // window per depth, counted here from the rows.
        await option('q6', 'a').click();
        await painted(page);
        assert.equal(await question('q6').locator('.quiz-verdict-line').textContent(), t('quiz.rightFirst'));
        const widths = (run) =>
          depthList(
            SWEEP.grid.layers.map((layers) => ratesLearned(lang, run, layers)),
            lang,
          );
        assert.deepEqual(
          [widths('post'), widths('warmup'), widths('pre')],
          [params.postWidths, params.warmWidths, params.preWidths],
        );
        const rates = SWEEP.grid.lr;
        assert.equal(
          await explanation('q6').locator('span').textContent(),
          t('quiz.q6.explanation', {
            steps: SWEEP.defaults.steps,
            seeds: SWEEP.grid.seeds.length,
            rates: rates.length,
            lrLow: decimals(Math.min(...rates), 4),
            lrHigh: decimals(Math.max(...rates), 4),
            windowDepths: depthList(SWEEP.grid.layers, lang),
            postWidths: widths('post'),
            warmWidths: widths('warmup'),
            preWidths: widths('pre'),
            warmup: SWEEP.defaults.warmup,
            layers: LAB_DEFAULTS.layers,
            lr: decimals(QUIZ_LR, 4),
          }),
        );
        assert.doesNotMatch(await explanation('q6').textContent(), /\{/);

        // Q7 wrong, a hint, then right: the explanation quotes the ceiling
        // computed for the lab's head size.
        await option('q7', 'a').click();
        await painted(page);
        assert.equal(
          await hint('q7').textContent(),
          t('quiz.hintLine', { hint: t('quiz.q7.aHint'), tryAnother: t('quiz.tryAnother') }),
        );
        await option('q7', 'b').click();
        await painted(page);
        assert.equal(await question('q7').locator('.quiz-verdict-line').textContent(), t('quiz.rightLater'));
        const headSize = LAB_SHAPE.hidden / LAB_SHAPE.heads;
        assert.equal(
          await explanation('q7').locator('span').textContent(),
          t('quiz.q7.explanation', { headSize, qkBound: decimals(Math.sqrt(headSize), 2) }),
        );
        assert.match(await explanation('q7').textContent(), /√8 ≈ 2\.83/);
        assert.equal(await score(), t('quiz.score', { firstTry: 3, answered: 7, total: 7 }));
        const answers = {
          q1: { f: 'a', r: 0, c: 'c', w: 1 },
          q2: { f: 'b', r: 1, c: 'b', w: 1 },
          q3: { f: 'a', r: 0, c: 'c', w: 1 },
          q4: { f: 'a', r: 1, c: 'a', w: 1 },
          q5: { f: 'b', r: 0, c: 'c', w: 1 },
          q6: { f: 'a', r: 1, c: 'a', w: 1 },
          q7: { f: 'a', r: 0, c: 'b', w: 1 },
        };
        assert.deepEqual((await stored(page)).quiz, answers);
        // The answers are not part of the view: the URL never carries them.
        await page.waitForFunction(() => new URL(location.href).searchParams.has('lang'));
        assert.deepEqual([...new URL(page.url()).searchParams.keys()], ['lang']);

        await page.reload();
        await page.waitForFunction(() => document.getElementById('backend')?.dataset.backend !== 'loading');
        await painted(page);
        assert.equal(await option('q1', 'c').getAttribute('data-mark'), 'correct');
        assert.equal(await option('q1', 'c').locator('input').isChecked(), true);
        assert.equal(await option('q3', 'c').getAttribute('data-mark'), 'wrong');
        assert.equal(await explanation('q3').isVisible(), true);
        assert.equal(await option('q6', 'a').getAttribute('data-mark'), 'correct');
        assert.equal(await explanation('q6').isVisible(), true);
        assert.equal(await score(), t('quiz.score', { firstTry: 3, answered: 7, total: 7 }));

        // Try again: everything is cleared, here and in the store.
        await page.click('.quiz-reset');
        await painted(page);
        assert.equal(await score(), t('quiz.scoreNone', { total: 7 }));
        assert.equal(await page.locator('[data-widget="quiz"] [data-mark]').count(), 0);
        assert.equal(await page.locator('[data-widget="quiz"] input:checked').count(), 0);
        assert.equal((await stored(page)).quiz, undefined);
        // "Show why" opens the explanation after a single wrong pick, and the
        // first pick still counts: wrong.
        await option('q2', 'c').click();
        await painted(page);
        assert.equal(
          await question('q2').locator('.quiz-hint span').textContent(),
          t('quiz.hintLine', { hint: t('quiz.q2.cHint'), tryAnother: t('quiz.tryAnother') }),
        );
        await question('q2').locator('.quiz-why').click();
        await painted(page);
        assert.equal(await explanation('q2').isVisible(), true);
        assert.equal(await option('q2', 'b').getAttribute('data-mark'), 'answer');
        await option('q2', 'b').click();
        await painted(page);
        assert.equal(await score(), t('quiz.score', { firstTry: 0, answered: 1, total: 7 }));
        assert.deepEqual((await stored(page)).quiz, { q2: { f: 'c', r: 0, c: 'b', w: 1 } });
      }));
  });
}
