// The training lab in headless Chromium, from file:// in both languages.
//
// At the test-only speed (window.NORMLAB_LAB_STEPS): the reader's guess
// first, then the default contrast (pre-norm, post-norm, post-norm with
// warmup) trained in slices while another widget still repaints; every
// drawn loss, gradient ratio and update ratio, and every cell of their data
// tables, equal to what a trainer with the same options returns in the same
// page, the trained model's L2/tok chart and table included
// (trainer.layerNorms() before the first step and after the last, bit for
// bit); the reading chosen from those numbers; each model's sample, bytes
// that are no whole character shown as boxed bytes; each model's most
// likely next characters; the map (a pressed cell leaves the reader's
// settings alone) and the learning-rate window drawn from the committed
// sweep of the page's language.
//
// At full length, as a reader runs it: the default contrast in each
// language reads pre-norm and post-norm + warmup learned and post-norm
// stalled with its first layers' gradient collapsed, each run's final loss
// the committed tables' to the last bit (the same WebAssembly build trained
// them under Node), and a pressed map cell reproduces its committed run.
// Then axe on the lab, light and dark, 375 and 1280 px.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { decimals, fixed, significant } from '../../web/src/format.js';
import { finalLoss, gradientRatios, labConclusions, updateRatios } from '../../web/src/lab/conclusions.js';
import { float32Text } from '../../web/src/lab/layer-norms.js';
import {
  DEFAULT_SAMPLE_PROMPTS,
  LAB_DEFAULTS,
  LAB_LRS,
  LAB_DEPTHS,
  LAB_RUNS,
  LAB_SAMPLE,
  LAB_STEPS,
  runOptions,
} from '../../web/src/lab/runs.js';
import { cellKey, cellSummary, sweepReading, sweepTable, windowSeries } from '../../web/src/lab/sweep.js';
import { LAB_DICTIONARIES } from '../../web/src/lab/text.js';
import { utf8Parts } from '../../web/src/lab/utf8.js';
import {
  LAB as lab,
  bringLabIn,
  chartCollisions,
  fileUrl,
  float32Bits,
  labSeriesValues,
  labTableRows,
  openPage,
  pressMapCell,
  seriousViolations,
  settle,
  shareBrowserAndServer,
} from './page-support.mjs';

const shared = shareBrowserAndServer();
const sweepJson = JSON.parse(readFileSync(new URL('../../web/data/train-sweep.json', import.meta.url), 'utf8'));
const VARIANT_JSON = JSON.parse(readFileSync(new URL('../../web/data/variant-sweep.json', import.meta.url), 'utf8'));
const TEXTS = {
  'zh-CN': readFileSync(new URL('../../web/data/training-text.zh.txt', import.meta.url), 'utf8'),
  en: readFileSync(new URL('../../web/data/training-text.en.txt', import.meta.url), 'utf8'),
};

// Steps per run at test speed: enough for post-norm's first-layer gradient
// to fall far below pre-norm's, far too few for any run to learn.
const STEPS = 30;
const fewSteps = (steps) => `window.NORMLAB_LAB_STEPS = ${steps};`;
// A whole contrast at full length on a loaded machine takes minutes.
const RUN_TIMEOUT_MS = 15 * 60 * 1000;

async function openLab(url, options) {
  const opened = await openPage(shared.browser, url, options);
  await bringLabIn(opened.page);
  await settle(opened.page);
  return opened;
}

async function guessAndStart(page, guessed) {
  assert.equal(await page.locator(`${lab} .lab-start`).isDisabled(), true, 'start waits for the guess');
  for (const id of guessed) await page.check(`#lab-guess-${id}`);
  await page.locator(`${lab} .lab-predict button`).first().click();
  await page.waitForFunction((sel) => !document.querySelector(`${sel} .lab-start`).disabled, lab);
  await page.locator(`${lab} .lab-start`).click();
}

const waitPhase = (page, phase, timeout = RUN_TIMEOUT_MS) =>
  page.waitForFunction(([sel, want]) => document.querySelector(sel).dataset.phase === want, [lab, phase], { timeout });

// The trainer's own numbers for each run, from a trainer made in the page
// with the options the lab uses, stepped in one call.
async function trainerNumbers(page, steps, lang, settings = LAB_DEFAULTS) {
  const ids = settings.runs;
  const options = ids.map((id) => runOptions(id, settings, steps, TEXTS[lang]));
  const runs = await page.evaluate(
    async ([list, prompt, sample]) => {
      const nl = await window.normlab.loadNormlab();
      const out = [];
      // trainer.layerNorms() as plain arrays (the float32 values exact).
      const plain = (probe) => ({
        tokens: probe.tokens,
        residual: Array.from(probe.residual),
        norm1: Array.from(probe.norms.inputNorm.out),
        norm2: Array.from(probe.norms.postAttentionNorm.out),
      });
      for (const o of list) {
        const trainer = await nl.createTrainer(o);
        const before = plain(trainer.layerNorms());
        const nextBefore = Array.from(trainer.nextBytes(prompt));
        const r = trainer.step(o.steps);
        let part;
        do
          part = trainer.generateFor(prompt, sample.bytes, { temperature: sample.temperature, seed: sample.seed }, 1e4);
        while (!part.done);
        out.push({
          layerNorms: { before, after: plain(trainer.layerNorms()) },
          loss: Array.from(r.loss),
          gradFirst: Array.from(r.gradFirst),
          gradLast: Array.from(r.gradLast),
          updateFirst: Array.from(r.updateFirst),
          updateLast: Array.from(r.updateLast),
          heldout: trainer.evaluate(),
          entropy: trainer.unigramEntropy,
          diverged: r.diverged,
          sampleBytes: Array.from(part.utf8),
          nextBefore,
          nextAfter: Array.from(trainer.nextBytes(prompt)),
        });
        trainer.delete();
      }
      return out;
    },
    [options, DEFAULT_SAMPLE_PROMPTS[lang], LAB_SAMPLE],
  );
  return runs.map((run, i) => ({ id: ids[i], status: run.diverged ? 'diverged' : 'done', ...run }));
}

const reading = (page) =>
  page
    .locator(`${lab} .lab-reading [data-reading]`)
    .evaluateAll((ps) => ps.map((p) => [p.dataset.reading, p.textContent]));

// A sample as the lab shows it: whole characters as text (control bytes as
// ·; a character the training text never uses as its code point), every
// other byte as its hex value.
const shownSample = (bytes, known) =>
  utf8Parts(Uint8Array.from(bytes))
    .map((p) =>
      p.text !== undefined
        ? [...p.text]
            .map((c) =>
              known.has(c) || c.codePointAt(0) < 0x80
                ? c.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '·')
                : `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
            )
            .join('')
        : p.byte.toString(16).toUpperCase().padStart(2, '0'),
    )
    .join('');

for (const lang of ['en', 'zh-CN']) {
  describe(`the training lab (${lang})`, () => {
    const t = (key) => LAB_DICTIONARIES[lang][key];
    const sweep = sweepTable(sweepJson, lang);

    test('at test speed: guess, train the default contrast, and read back exactly what the trainer returned', async () => {
      const { page, problems, close } = await openLab(`${fileUrl}?lang=${lang}`, { initScript: fewSteps(STEPS) });
      try {
        assert.equal(
          await page.locator(`${lab} .widget-note`).textContent(),
          t('testSpeed').replace('{steps}', String(STEPS)).replace('{full}', String(LAB_STEPS)),
        );
        await guessAndStart(page, ['pre', 'warmup']);
        assert.match(await page.locator(`${lab} .lab-guess`).textContent(), new RegExp(t('runPre')));

        // Another widget repaints while the lab trains: the softmax slider's
        // read-out follows it, between two of the lab's steps.
        await page.waitForFunction(
          (sel) => Number(document.querySelector(`${sel} [data-readout="step"]`).textContent.match(/\d+/)?.[0]) >= 2,
          lab,
          { timeout: RUN_TIMEOUT_MS },
        );
        const slider = page.locator('#softmax-l2');
        await slider.scrollIntoViewIfNeeded();
        const output = page.locator('[data-widget="softmax"] output.control-value');
        const before = await output.textContent();
        const stepBefore = await page.locator(`${lab} [data-readout="step"]`).textContent();
        await slider.evaluate((input) => {
          input.value = input.value === input.max ? input.min : input.max;
          input.dispatchEvent(new Event('input', { bubbles: true }));
        });
        await page.waitForFunction(
          ([sel, old]) => document.querySelector(sel).textContent !== old,
          ['[data-widget="softmax"] output.control-value', before],
        );
        await settle(page);
        assert.notEqual(await output.textContent(), before);
        assert.equal(await page.locator(lab).getAttribute('data-phase'), 'running', 'the lab was training meanwhile');
        await page.waitForFunction(
          ([sel, old]) => document.querySelector(`${sel} [data-readout="step"]`).textContent !== old,
          [lab, stepBefore],
          { timeout: RUN_TIMEOUT_MS },
        );

        await page.locator('#lab').scrollIntoViewIfNeeded();
        await waitPhase(page, 'done');
        await settle(page);
        const runs = await trainerNumbers(page, STEPS, lang);
        for (const run of runs) {
          assert.equal(run.loss.length, STEPS);
          assert.deepEqual(await labSeriesValues(page, 'loss', run.id), run.loss, `${run.id}: the loss drawn`);
          assert.deepEqual(
            await labSeriesValues(page, 'ratio', run.id),
            gradientRatios(run),
            `${run.id}: the ratio drawn`,
          );
          assert.deepEqual(
            await labSeriesValues(page, 'updates', run.id),
            updateRatios(run),
            `${run.id}: the updates drawn`,
          );
        }
        const lossRows = await labTableRows(page, 'loss');
        const ratioRows = await labTableRows(page, 'ratio');
        const updateRows = await labTableRows(page, 'updates');
        assert.equal(lossRows.length, STEPS);
        const dictionary = LAB_DICTIONARIES[lang];
        for (let i = 0; i < STEPS; i++) {
          assert.deepEqual(
            lossRows[i],
            [String(i + 1), ...runs.map((run) => fixed(run.loss[i], 4))],
            `loss, step ${i + 1}`,
          );
          assert.deepEqual(
            ratioRows[i],
            [String(i + 1), ...runs.map((run) => significant(gradientRatios(run)[i], 3))],
            `ratio table, step ${i + 1}`,
          );
          assert.deepEqual(
            updateRows[i],
            [
              String(i + 1),
              ...runs.map((run) =>
                dictionary.updateCell
                  .replace('{ratio}', significant(run.updateFirst[i] / run.updateLast[i], 3))
                  .replace('{first}', significant(run.updateFirst[i], 3))
                  .replace('{last}', significant(run.updateLast[i], 3)),
              ),
            ],
            `update table, step ${i + 1}`,
          );
        }

        // The trained model's L2/tok across layers, for each run: the drawn
        // lengths and every cell of the table are the float32s
        // trainer.layerNorms() returned before the first step and after the
        // last, bit for bit.
        assert.equal(await page.locator(`${lab} .lab-norms h4`).textContent(), t('normsTitle'));
        for (const run of runs) {
          await page.selectOption(`${lab} #lab-norms-run`, run.id);
          await settle(page);
          const figure = page.locator(`[data-chart="lab-norms"]`);
          assert.equal(await figure.getAttribute('data-run'), run.id);
          const { before, after } = run.layerNorms;
          const L = before.residual.length - 1;
          assert.equal(L, LAB_DEFAULTS.layers);
          for (const [when, probe] of [
            ['before', before],
            ['after', after],
          ]) {
            for (const [series, values] of [
              ['residual', probe.residual],
              ['norm1', probe.norm1],
              ['norm2', probe.norm2],
            ]) {
              assert.deepEqual(
                await labSeriesValues(page, 'norms', `${when}-${series}`),
                values,
                `${run.id}: ${when}, ${series}`,
              );
            }
          }
          const rows = await labTableRows(page, 'norms');
          assert.equal(rows.length, L + 1);
          rows.forEach((row, l) => {
            const last = l === L;
            assert.equal(row[0], last ? t('normsOutputRow') : String(l), `${run.id}: row ${l}'s label`);
            const want = [
              before.residual[l],
              after.residual[l],
              ...(last ? [] : [before.norm1[l], after.norm1[l], before.norm2[l], after.norm2[l]]),
            ];
            assert.deepEqual(row.slice(1), [...want.map(float32Text), ...(last ? ['', '', '', ''] : [])]);
            want.forEach((v, k) =>
              assert.equal(float32Bits(Number(row[k + 1])), float32Bits(v), `${run.id}: row ${l}, column ${k + 1}`),
            );
          });
        }

        // Already at test speed post-norm's first layer gets far less of the
        // gradient than pre-norm's.
        const [pre, post] = runs.map(gradientRatios);
        assert.ok(
          post.at(-1) < pre.at(-1) / 100,
          `post-norm's last ratio ${post.at(-1)} against pre-norm's ${pre.at(-1)}`,
        );

        // The reference lines: the text's unigram entropy and ln 256.
        const entropy = runs[0].entropy;
        assert.match(
          await page.locator(`[data-chart="lab-loss"] .rule-entropy text`).textContent(),
          new RegExp(decimals(entropy, 2).replace('.', '\\.')),
        );
        assert.match(await page.locator(`[data-chart="lab-loss"] .rule-uniform text`).textContent(), /5\.55/);

        // The reading: the sentences the trainer's numbers choose, with them;
        // at test speed the committed tables (full length) say nothing.
        const said = await reading(page);
        const expected = labConclusions(runs, {
          settings: LAB_DEFAULTS,
          steps: STEPS,
          guess: { g: ['pre', 'warmup'] },
        });
        assert.deepEqual(
          said.map(([key]) => key),
          expected.map((s) => s.key),
        );
        for (const run of runs) {
          const sentence = said.find(
            ([key, text]) =>
              key.startsWith('run') && text.startsWith(t(`run${run.id[0].toUpperCase()}${run.id.slice(1)}`)),
          );
          // The final loss to 4 decimals (the sweep's runs are compared on
          // it), the held-out loss and the entropy to 2.
          for (const [value, places] of [
            [finalLoss(run), 4],
            [run.heldout, 2],
            [run.entropy, 2],
          ]) {
            assert.ok(
              sentence[1].includes(decimals(value, places)),
              `${run.id}: "${sentence[1]}" states ${decimals(value, places)}`,
            );
          }
        }
        // Each model's sample: the prompt, then generate()'s bytes, none of
        // them shown as U+FFFD.
        const prompt = DEFAULT_SAMPLE_PROMPTS[lang];
        for (const run of runs) {
          const box = page.locator(`${lab} .lab-sample[data-run="${run.id}"]`);
          const shown = await box.textContent();
          assert.equal(shown, prompt + shownSample(run.sampleBytes, new Set(TEXTS[lang])), run.id);
          assert.ok(!shown.includes('\uFFFD'), `${run.id}: no replacement character`);
          assert.ok(
            (await box.locator('.lab-byte').count()) >=
              utf8Parts(Uint8Array.from(run.sampleBytes)).filter((p) => p.byte !== undefined).length,
          );
        }
        // The most likely next characters, before and after: their first
        // byte is the trainer's most likely byte after the prompt.
        for (const run of runs) {
          for (const [when, probabilities] of [
            ['before', run.nextBefore],
            ['after', run.nextAfter],
          ]) {
            const row = page.locator(`${lab} .lab-next-chars[data-run="${run.id}"][data-when="${when}"]`);
            assert.equal(await row.locator('.lab-next-char').count(), 5, `${run.id} ${when}`);
            const top = probabilities.indexOf(Math.max(...probabilities));
            const first = await row.locator('.lab-next-char').first().textContent();
            if (top < 0x80 && top > 0x20)
              assert.ok(first.startsWith(String.fromCharCode(top)), `${run.id} ${when}: ${first}`);
          }
        }

        // The map: every cell of this language's sweep, with each seed's
        // mark, and what it says at the lab's depth and learning rate.
        const MARK = { learned: '✓', between: '↘', plateau: '–', above: '–', collapsed: '○', diverged: '✕' };
        assert.equal(
          await page.locator(`${lab} .lab-map-cell[data-cell]`).count(),
          LAB_RUNS.length * LAB_DEPTHS.length * LAB_LRS.length,
        );
        for (const [key, entries] of Object.entries(sweep.cells)) {
          const cell = page.locator(`${lab} [data-cell="${key}"]`);
          assert.equal(
            await cell.locator('.lab-map-marks').textContent(),
            entries.map((e) => MARK[e.outcome]).join(''),
            key,
          );
          const { median, verdict } = cellSummary(entries);
          assert.equal(await cell.locator('.lab-map-loss').textContent(), median === null ? '' : fixed(median, 2), key);
          assert.match(await cell.getAttribute('class'), new RegExp(`is-${verdict}`), key);
        }
        assert.deepEqual(
          await page
            .locator(`${lab} .lab-map-reading [data-reading]`)
            .evaluateAll((ps) => ps.map((p) => p.dataset.reading)),
          sweepReading(sweep, LAB_DEFAULTS).map((s) => s.key),
        );
        // The learning-rate window: each depth's seeds and medians, drawn.
        for (const layers of LAB_DEPTHS) {
          const chart = page.locator(`[data-chart="lab-window-${layers}"]`);
          const series = windowSeries(sweep, layers);
          assert.equal(
            await chart.locator('path.mark').count(),
            series.reduce((n, s) => n + s.seeds.length, 0),
          );
          for (const s of series) {
            assert.deepEqual(
              await labSeriesValues(page, `window-${layers}`, s.id),
              s.medians.filter(([, v]) => v !== null).map(([, v]) => v),
              `${layers} layers, ${s.id}`,
            );
          }
        }

        // A map cell trains its seed-1 run without touching the reader's
        // settings; at test speed it has no committed run to match.
        await page.selectOption(`${lab} #lab-depth`, '12');
        await pressMapCell(page, cellKey('post', 6, 3e-3), { timeout: RUN_TIMEOUT_MS });
        await waitPhase(page, 'done');
        await settle(page);
        assert.equal(await page.locator(`${lab} #lab-depth`).inputValue(), '12', 'the reader keeps their depth');
        const [cell] = await trainerNumbers(page, STEPS, lang, { ...LAB_DEFAULTS, layers: 6, runs: ['post'] });
        assert.deepEqual(await labSeriesValues(page, 'loss', 'post'), cell.loss);
        const result = await page.locator(`${lab} .lab-map-result`).textContent();
        assert.ok(result.includes(decimals(finalLoss(cell), 4)), result);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });

    test('at full length, as a reader runs it: pre-norm and warmup learn, post-norm stalls, the committed bits', async () => {
      const { page, problems, close } = await openLab(`${fileUrl}?lang=${lang}`);
      try {
        assert.equal(await page.locator(`${lab} .widget-note`).isHidden(), true, 'no test setting');
        await guessAndStart(page, ['pre', 'warmup']);
        await waitPhase(page, 'done');
        await settle(page);
        const said = await reading(page);
        const keys = said.map(([key]) => key);
        const sentence = (key, run) =>
          said.find(([k, text]) => k === key && text.startsWith(t(`run${run[0].toUpperCase()}${run.slice(1)}`)));
        assert.ok(sentence('runLearned', 'pre'), `pre-norm learned: ${keys}`);
        assert.ok(sentence('runLearned', 'warmup'), `post-norm + warmup learned: ${keys}`);
        assert.ok(
          sentence('runCollapsed', 'post') ?? sentence('runCollapsedMoving', 'post'),
          `post-norm stalled: ${keys}`,
        );
        assert.ok(keys.includes('warmupHelped'), keys);
        assert.ok(keys.includes('guessMatch'), keys);
        // The robustness table's seeds, and each run's committed bits.
        assert.deepEqual(
          keys.filter((k) => k.startsWith('seeds')),
          ['seedsLearned', 'seedsCollapsed', 'seedsLearned', 'seedsPost6'],
        );
        assert.deepEqual(
          keys.filter((k) => k.endsWith('Bits')),
          ['sameBits', 'sameBits', 'sameBits'],
        );
        // A pressed cell at full length: its committed run, to the last bit.
        const cellResult = await pressMapCell(page, cellKey('post', 6, 3e-3), { timeout: RUN_TIMEOUT_MS });
        await settle(page);
        assert.equal(await cellResult.getAttribute('data-same'), 'true');
        const committed = sweep.cells[cellKey('post', 6, 3e-3)][0];
        assert.ok((await cellResult.textContent()).includes(decimals(committed.final, 4)));
        // A variant's cell at full length, on the variants' text whatever
        // the page's language: its committed run, to the last bit.
        const variantResult = await pressMapCell(page, cellKey('qknorm', 6, 3e-3), {
          variant: true,
          timeout: RUN_TIMEOUT_MS,
        });
        await settle(page);
        const variantRow = VARIANT_JSON.rows.find(
          (r) => r.run === 'qknorm' && r.layers === 6 && r.lr === 3e-3 && r.seed === 1,
        );
        assert.equal(await variantResult.getAttribute('data-same'), 'true', await variantResult.textContent());
        assert.ok((await variantResult.textContent()).includes(decimals(variantRow.final, 4)));
        // At the end of a full run, where a stalled curve hugs the entropy
        // line, no label is under a line or over another label.
        assert.deepEqual(await chartCollisions(page, lab), []);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  });
}

describe("the training lab's charts: no label over a label or under a line", () => {
  for (const [lang, width, colorScheme] of [
    ['en', 320, 'light'],
    ['zh-CN', 320, 'dark'],
    ['en', 390, 'dark'],
    ['zh-CN', 390, 'light'],
    ['en', 1280, 'light'],
    ['zh-CN', 1280, 'dark'],
  ]) {
    test(`${lang}, ${width} px, ${colorScheme}, after a short contrast`, async () => {
      const { page, problems, close } = await openLab(`${fileUrl}?lang=${lang}`, {
        colorScheme,
        viewport: { width, height: 900 },
        initScript: fewSteps(STEPS),
      });
      try {
        await guessAndStart(page, []);
        await waitPhase(page, 'done');
        await settle(page);
        assert.deepEqual(await chartCollisions(page, lab), []);
        // The legends stay compact on a phone: from 390 px each fits in two
        // lines; at 320 px no legend takes more lines than it has items.
        for (const legend of await page.locator(`${lab} .chart-legend`).all()) {
          const { height, line, items } = await legend.evaluate((el) => ({
            height: el.getBoundingClientRect().height,
            line: parseFloat(getComputedStyle(el).lineHeight) || 20,
            items: el.querySelectorAll('li').length,
          }));
          const lines = width >= 390 ? 2 : items;
          assert.ok(height <= (lines + 0.6) * line, `a legend of ${items} items ${height} px tall at ${width} px`);
        }
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }
});

describe("the training lab's accessibility", () => {
  for (const [colorScheme, width] of [
    ['light', 375],
    ['dark', 1280],
    ['dark', 375],
    ['light', 1280],
  ]) {
    test(`axe finds no serious or critical violation in the lab: ${colorScheme}, ${width} px, after a run`, async () => {
      const lang = width === 375 ? 'zh-CN' : 'en';
      // Over HTTP: axe reads the stylesheets itself, which file:// forbids.
      const { page, problems, close } = await openLab(`${shared.server.url}index.html?lang=${lang}`, {
        colorScheme,
        viewport: { width, height: 900 },
        bypassCSP: true,
        initScript: fewSteps(3),
      });
      try {
        await guessAndStart(page, []);
        await waitPhase(page, 'done');
        await page.locator(`[data-chart="lab-loss"] summary`).click();
        await page.check('#lab-text-own');
        await settle(page);
        assert.deepEqual(await seriousViolations(page, '#lab'), []);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }
});
