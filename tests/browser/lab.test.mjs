// The training lab in headless Chromium, from file:// in both languages, at
// the test-only speed (window.NORMLAB_LAB_STEPS): the reader's guess first,
// then the default contrast (pre-norm, post-norm, post-norm with warmup)
// trained in slices while another widget still repaints; every drawn loss
// and gradient ratio, and every cell of the two data tables, equal to what
// a trainer with the same options returns in the same page, the trained
// model's L2/tok chart and table included (trainer.layerNorms() before the
// first step and after the last, bit for bit); post-norm's
// first-layer gradient collapsing while pre-norm's stays level; the reading
// chosen from those numbers; each model's sample. Then axe on the lab, light and dark, 375 and
// 1280 px.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { decimals, fixed, significant } from '../../web/src/format.js';
import { finalLoss, gradientRatios, labConclusions } from '../../web/src/lab/conclusions.js';
import { float32Text } from '../../web/src/lab/layer-norms.js';
import { DEFAULT_SAMPLE_PROMPT, LAB_DEFAULTS, LAB_RUNS, LAB_SAMPLE, runOptions } from '../../web/src/lab/runs.js';
import { cellKey, sweepReading, sweepTable } from '../../web/src/lab/sweep.js';
import { LAB_DICTIONARIES } from '../../web/src/lab/text.js';
import {
  LAB as lab,
  bringLabIn,
  fileUrl,
  openPage,
  seriousViolations,
  settle,
  shareBrowserAndServer,
} from './page-support.mjs';

const shared = shareBrowserAndServer();
const sweep = sweepTable(JSON.parse(readFileSync(new URL('../../web/data/train-sweep.json', import.meta.url), 'utf8')));

// Steps per run at test speed: enough for post-norm's first-layer gradient
// to collapse (it falls below 1e-2 of the last layer's within about 10
// steps), far too few for any run to learn.
const STEPS = 30;
const fewSteps = (steps) => `window.NORMLAB_LAB_STEPS = ${steps};`;
// A whole contrast on a loaded machine takes minutes.
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
async function trainerNumbers(page, steps, settings = LAB_DEFAULTS) {
  const ids = settings.runs;
  const options = ids.map((id) => runOptions(id, settings, steps));
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
        const r = trainer.step(o.steps);
        out.push({
          layerNorms: { before, after: plain(trainer.layerNorms()) },
          loss: Array.from(r.loss),
          gradFirst: Array.from(r.gradFirst),
          gradLast: Array.from(r.gradLast),
          heldout: trainer.evaluate(),
          entropy: trainer.unigramEntropy,
          diverged: r.diverged,
          sample: trainer.generate(prompt, sample.bytes, { temperature: sample.temperature, seed: sample.seed }),
        });
        trainer.delete();
      }
      return out;
    },
    [options, DEFAULT_SAMPLE_PROMPT, LAB_SAMPLE],
  );
  return runs.map((run, i) => ({ id: ids[i], status: run.diverged ? 'diverged' : 'done', ...run }));
}

const seriesValues = (page, chart, id) =>
  page
    .locator(`[data-chart="lab-${chart}"] .chart-box g.series-lab-${id}`)
    .getAttribute('data-values')
    .then((text) => (text === '' ? [] : text.split(',').map(Number)));

async function tableRows(page, chart) {
  const details = page.locator(`[data-chart="lab-${chart}"] details`);
  if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
  await settle(page);
  return details.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

for (const lang of ['en', 'zh-CN']) {
  describe(`the training lab (${lang})`, () => {
    test('guess, train the default contrast at test speed, and read back exactly what the trainer returned', async () => {
      const { page, problems, close } = await openLab(`${fileUrl}?lang=${lang}`, { initScript: fewSteps(STEPS) });
      const t = (key) => LAB_DICTIONARIES[lang][key];
      try {
        assert.equal(
          await page.locator(`${lab} .widget-note`).textContent(),
          t('testSpeed').replace('{steps}', String(STEPS)).replace('{full}', '400'),
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
        const runs = await trainerNumbers(page, STEPS);
        for (const run of runs) {
          assert.equal(run.loss.length, STEPS);
          assert.deepEqual(await seriesValues(page, 'loss', run.id), run.loss, `${run.id}: the loss drawn`);
          assert.deepEqual(
            await seriesValues(page, 'ratio', run.id),
            gradientRatios(run),
            `${run.id}: the ratio drawn`,
          );
        }
        const lossRows = await tableRows(page, 'loss');
        const ratioRows = await tableRows(page, 'ratio');
        assert.equal(lossRows.length, STEPS);
        for (let i = 0; i < STEPS; i++) {
          assert.deepEqual(
            lossRows[i],
            [String(i + 1), ...runs.map((run) => fixed(run.loss[i], 4))],
            `loss table, step ${i + 1}`,
          );
          assert.deepEqual(
            ratioRows[i],
            [String(i + 1), ...runs.map((run) => significant(gradientRatios(run)[i], 3))],
            `ratio table, step ${i + 1}`,
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
                await seriesValues(page, 'norms', `${when}-${series}`),
                values,
                `${run.id}: ${when}, ${series} drawn`,
              );
            }
          }
          const rows = await tableRows(page, 'norms');
          assert.equal(rows.length, L + 1);
          const bitsOf = (v) => new Uint32Array(Float32Array.of(v).buffer)[0];
          rows.forEach((row, l) => {
            const last = l === L;
            assert.equal(row[0], last ? t('normsOutputRow') : String(l), `${run.id}: row ${l}'s label`);
            const want = [
              before.residual[l],
              after.residual[l],
              ...(last ? [] : [before.norm1[l], after.norm1[l], before.norm2[l], after.norm2[l]]),
            ];
            assert.deepEqual(row.slice(1), [...want.map(float32Text), ...(last ? ['', '', '', ''] : [])]);
            // Each cell reads back as the trainer's float32, bit for bit.
            want.forEach((v, k) =>
              assert.equal(bitsOf(Number(row[k + 1])), bitsOf(v), `${run.id}: row ${l}, column ${k + 1}`),
            );
          });
        }

        // The stall's signature at test speed: post-norm's first layer ends
        // with under 1% of the last layer's gradient, pre-norm's about level.
        const [pre, post] = runs.map(gradientRatios);
        assert.ok(post.at(-1) < 1e-2, `post-norm's last ratio ${post.at(-1)}`);
        assert.ok(
          post.at(-1) < pre.at(-1) / 100,
          `post-norm's last ratio ${post.at(-1)} against pre-norm's ${pre.at(-1)}`,
        );
        assert.ok(
          Math.min(...pre) > 0.1 && median(pre) > 0.5 && median(pre) < 2,
          `pre-norm's ratios ${pre.join(', ')}`,
        );

        // The reference lines: the text's unigram entropy and ln 256.
        const entropy = runs[0].entropy;
        assert.ok(Math.abs(entropy - 4.2543) < 1e-4, `unigram entropy ${entropy}`);
        assert.match(
          await page.locator(`[data-chart="lab-loss"] .rule-entropy text`).textContent(),
          new RegExp(decimals(entropy, 2).replace('.', '\\.')),
        );
        assert.match(await page.locator(`[data-chart="lab-loss"] .rule-uniform text`).textContent(), /5\.55/);

        // The reading: the sentences the trainer's numbers choose, with them.
        const reading = await page
          .locator(`${lab} .lab-reading [data-reading]`)
          .evaluateAll((ps) => ps.map((p) => [p.dataset.reading, p.textContent]));
        const expected = labConclusions(runs, {
          settings: LAB_DEFAULTS,
          steps: STEPS,
          guess: { g: ['pre', 'warmup'] },
        });
        assert.deepEqual(
          reading.map(([key]) => key),
          expected.map((s) => s.key),
        );
        for (const run of runs) {
          const said = reading.find(
            ([key, text]) =>
              key.startsWith('run') && text.startsWith(t(`run${run.id[0].toUpperCase()}${run.id.slice(1)}`)),
          );
          for (const value of [finalLoss(run), run.heldout, run.entropy]) {
            assert.ok(said[1].includes(decimals(value, 2)), `${run.id}: "${said[1]}" states ${decimals(value, 2)}`);
          }
        }
        // Each model's sample: the same prompt, then what generate() wrote.
        for (const run of runs) {
          const shown = await page.locator(`${lab} .lab-sample[data-run="${run.id}"]`).textContent();
          assert.equal(
            shown,
            DEFAULT_SAMPLE_PROMPT + run.sample.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '·'),
            run.id,
          );
        }
        const collapsed = reading.find(([key]) => key === 'ratioCollapsed');
        assert.ok(collapsed[1].includes(significant(post.at(-1), 2)), collapsed[1]);

        // The trainability map: every cell of the sweep, and what it says at
        // the lab's depth and learning rate; a cell re-run here, its numbers
        // beside the committed ones.
        assert.equal(await page.locator(`${lab} .lab-map-cell`).count(), 3 * 4 * 4);
        for (const [key, entries] of Object.entries(sweep.cells)) {
          const marks = entries
            .map((e) => ({ learned: '✓', stalled: '–', diverged: '✕', 'not run': '·' })[e.verdict])
            .join('');
          assert.equal(await page.locator(`${lab} [data-cell="${key}"] .lab-map-marks`).textContent(), marks, key);
        }
        assert.deepEqual(
          await page
            .locator(`${lab} .lab-map-reading [data-reading]`)
            .evaluateAll((ps) => ps.map((p) => p.dataset.reading)),
          sweepReading(sweep, LAB_DEFAULTS).map((s) => s.key),
        );
        await page.locator(`${lab} [data-cell="${cellKey('post', 6, 3e-3)}"]`).click();
        // The cell's run has ended when its result is written: right after
        // the click the phase can still read 'done' from the contrast.
        await page.waitForFunction((sel) => document.querySelector(`${sel} .lab-map-result`).textContent !== '', lab, {
          timeout: RUN_TIMEOUT_MS,
        });
        await waitPhase(page, 'done');
        await settle(page);
        const [cell] = await trainerNumbers(page, STEPS, {
          ...LAB_DEFAULTS,
          layers: 6,
          runs: ['post'],
          warmup: sweep.warmup,
        });
        const committed = sweep.cells[cellKey('post', 6, 3e-3)][0];
        const result = await page.locator(`${lab} .lab-map-result`).textContent();
        for (const value of [finalLoss(cell), cell.heldout, committed.final, committed.heldout]) {
          assert.ok(result.includes(decimals(value, 2)), `"${result}" states ${decimals(value, 2)}`);
        }
        assert.deepEqual(await seriesValues(page, 'loss', 'post'), cell.loss);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  });
}

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
