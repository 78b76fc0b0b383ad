// The training lab's "what current models do" contrast (web/src/lab/runs.js
// CONTRAST_PRESETS.current: pre-norm, post-norm and the variants the trainer
// takes) in headless Chromium at the test-only speed, in both languages:
// chosen by its preset button, trained, and its two charts of the trainer's
// probes read back: each step's largest attention logit over the layers and
// the stream's length layer by layer before and after training, every drawn
// point and every table cell equal to what a trainer made in the same page
// with the same options returned, bit for bit. The reading words each run
// from its own numbers; the map shows the variants' committed sweep beside
// the chapter's, and a pressed variant cell trains on that sweep's text; the
// learning-rate window shows the chapter's runs only. A reload mid-contrast goes on from the checkpoints
// and draws the same bits; axe finds nothing serious in the lab.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { labConclusions } from '../../web/src/lab/conclusions.js';
import { RUN_LABEL } from '../../web/src/lab/labels.js';
import { float32Text } from '../../web/src/lab/layer-norms.js';
import { stepMaxLogits } from '../../web/src/lab/run-work.js';
import { CONTRAST_PRESETS, LAB_DEFAULTS, LAB_RUNS, runOptions } from '../../web/src/lab/runs.js';
import { cellKey } from '../../web/src/lab/sweep.js';
import { LAB_DICTIONARIES } from '../../web/src/lab/text.js';
import {
  LAB as lab,
  bringLabIn,
  float32Bits,
  labSeriesValues,
  labTableRows,
  fileUrl,
  openPage,
  pressMapCell,
  screenshotDir,
  seriousViolations,
  settle,
  shareBrowserAndServer,
} from './page-support.mjs';

const shared = shareBrowserAndServer();
const STEPS = 12;
const TEXTS = {
  'zh-CN': readFileSync(new URL('../../web/data/training-text.zh.txt', import.meta.url), 'utf8'),
  en: readFileSync(new URL('../../web/data/training-text.en.txt', import.meta.url), 'utf8'),
};
const CURRENT = CONTRAST_PRESETS.current;
const VARIANT_JSON = JSON.parse(readFileSync(new URL('../../web/data/variant-sweep.json', import.meta.url), 'utf8'));
const SETTINGS = { ...LAB_DEFAULTS, runs: [...CURRENT] };
const RUN_TIMEOUT_MS = 10 * 60 * 1000;

const waitPhase = (page, phase) =>
  page.waitForFunction(([sel, want]) => document.querySelector(sel).dataset.phase === want, [lab, phase], {
    timeout: RUN_TIMEOUT_MS,
  });

// The preset pressed, the guess skipped, the contrast started.
async function startCurrent(page) {
  await bringLabIn(page);
  await settle(page);
  const preset = page.locator(`${lab} [data-preset="current"]`);
  assert.equal(await preset.getAttribute('aria-pressed'), 'false', 'the chapter’s contrast is the default');
  assert.equal(await page.locator(`${lab} [data-preset="chapter"]`).getAttribute('aria-pressed'), 'true');
  // From the keyboard, as a reader without a mouse presses it.
  await preset.focus();
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal(await preset.getAttribute('aria-pressed'), 'true');
  const ticked = await page
    .locator(`${lab} input[name="lab-run"]`)
    .evaluateAll((inputs) => inputs.filter((i) => i.checked).map((i) => i.value));
  assert.deepEqual(ticked, CURRENT);
  await page.locator(`${lab} .lab-predict button`).nth(1).click();
  await page.waitForFunction((sel) => !document.querySelector(`${sel} .lab-start`).disabled, lab);
  await page.locator(`${lab} .lab-start`).click();
}

// The trainer's own numbers for each run of the preset, from trainers made
// in the page with the lab's options, stepped in one call.
async function trainerNumbers(page, lang) {
  const options = CURRENT.map((id) => runOptions(id, SETTINGS, STEPS, TEXTS[lang]));
  const runs = await page.evaluate(async (list) => {
    const nl = await window.normlab.loadNormlab();
    const out = [];
    for (const o of list) {
      const trainer = await nl.createTrainer(o);
      const before = Array.from(trainer.layerNorms().residual);
      const r = trainer.step(o.steps);
      out.push({
        layers: trainer.config.layers,
        before,
        after: Array.from(trainer.layerNorms().residual),
        maxLogitByLayer: Array.from(r.maxLogit),
        loss: Array.from(r.loss),
        gradFirst: Array.from(r.gradFirst),
        gradLast: Array.from(r.gradLast),
        updateFirst: Array.from(r.updateFirst),
        updateLast: Array.from(r.updateLast),
        entropy: trainer.unigramEntropy,
        heldout: trainer.evaluate(),
        diverged: r.diverged,
      });
      trainer.delete();
    }
    return out;
  }, options);
  return runs.map((run, i) => ({
    id: CURRENT[i],
    status: run.diverged ? 'diverged' : 'done',
    maxLogit: stepMaxLogits(Float32Array.from(run.maxLogitByLayer), run.layers),
    ...run,
  }));
}

for (const lang of ['en', 'zh-CN']) {
  const t = (key) => LAB_DICTIONARIES[lang][key];
  describe(`the lab's current-models contrast (${lang})`, () => {
    test('its two probe charts and their tables hold the trainer’s numbers bit for bit', async () => {
      const { page, problems, close } = await openPage(shared.browser, `${fileUrl}?lang=${lang}`, {
        initScript: `window.NORMLAB_LAB_STEPS = ${STEPS};`,
      });
      try {
        await startCurrent(page);
        await waitPhase(page, 'done');
        await settle(page);
        const runs = await trainerNumbers(page, lang);

        // The largest logit per step: drawn, and in its table as the float32
        // the trainer returned.
        // On a log axis where the logits are positive and span a decade.
        const logits = runs.flatMap((run) => run.maxLogit);
        const log = Math.min(...logits) > 0 && Math.max(...logits) / Math.min(...logits) >= 10;
        assert.equal(
          await page.locator(`[data-chart="lab-logit"] figcaption`).textContent(),
          t(log ? 'logitTitleLog' : 'logitTitle'),
        );
        for (const run of runs) {
          assert.equal(run.maxLogit.length, STEPS);
          assert.ok(run.maxLogit.every(Number.isFinite), `${run.id}: a finite logit each step`);
          assert.deepEqual(await labSeriesValues(page, 'logit', run.id), run.maxLogit, `${run.id}: the logits drawn`);
        }
        const logitRows = await labTableRows(page, 'logit');
        assert.equal(logitRows.length, STEPS);
        logitRows.forEach((row, i) => {
          assert.deepEqual(row, [String(i + 1), ...runs.map((run) => float32Text(run.maxLogit[i]))], `step ${i + 1}`);
          runs.forEach((run, k) => assert.equal(float32Bits(Number(row[k + 1])), float32Bits(run.maxLogit[i])));
        });

        // The stream layer by layer, before (the first chart) and after (the
        // second), and its table: layer, then each run's before and after.
        for (const run of runs) {
          assert.deepEqual(await labSeriesValues(page, 'stream', run.id, 0), run.before, `${run.id}: before`);
          assert.deepEqual(await labSeriesValues(page, 'stream', run.id, 1), run.after, `${run.id}: after`);
        }
        const streamRows = await labTableRows(page, 'stream');
        const L = LAB_DEFAULTS.layers;
        assert.equal(streamRows.length, L + 1);
        streamRows.forEach((row, l) => {
          const want = runs.flatMap((run) => [run.before[l], run.after[l]]);
          assert.deepEqual(row, [l === L ? t('normsOutputRow') : String(l), ...want.map(float32Text)], `layer ${l}`);
          want.forEach((v, k) =>
            assert.equal(float32Bits(Number(row[k + 1])), float32Bits(v), `layer ${l}, column ${k + 1}`),
          );
        });
        const columns = await page
          .locator(`[data-chart="lab-stream"] thead th`)
          .evaluateAll((ths) => ths.map((th) => th.textContent));
        assert.equal(columns.length, 1 + 2 * runs.length);

        // The reading: each run worded from its own numbers by the lab's
        // rule; the skipped guess says nothing; at test speed the tables
        // nothing either.
        const said = await page
          .locator(`${lab} .lab-reading [data-reading]`)
          .evaluateAll((ps) => ps.map((p) => p.dataset.reading));
        const expected = labConclusions(runs, { settings: SETTINGS, steps: STEPS, guess: null });
        assert.deepEqual(
          said,
          expected.map((s) => s.key),
        );
        assert.equal(said.length, runs.length);

        // The map's variants' tables: every cell of the committed variants'
        // sweep (one text's, on both pages), counted here from its rows;
        // the learning-rate window holds the chapter's runs only.
        const MARK = {
          learned: '✓',
          between: '↘',
          plateau: '–',
          above: '–',
          collapsed: '○',
          vanished: '∅',
          diverged: '✕',
        };
        const grid = VARIANT_JSON.grid;
        assert.equal(
          await page.locator(`${lab} .lab-map-cell[data-variant-cell]`).count(),
          CURRENT.length * grid.layers.length * grid.lr.length,
        );
        for (const id of CURRENT) {
          assert.equal(
            await page.locator(`${lab} .lab-variant-tables caption[data-run="${id}"]`).textContent(),
            t(RUN_LABEL[id]),
          );
          for (const layers of grid.layers) {
            for (const lr of grid.lr) {
              const rows = VARIANT_JSON.rows
                .filter((r) => r.run === id && r.layers === layers && r.lr === lr)
                .sort((a, b) => a.seed - b.seed);
              assert.equal(rows.length, grid.seeds.length);
              const cell = page.locator(`${lab} [data-variant-cell="${cellKey(id, layers, lr)}"]`);
              assert.equal(
                await cell.locator('.lab-map-marks').textContent(),
                rows.map((r) => MARK[r.outcome]).join(''),
                `${id} ${layers} ${lr}`,
              );
            }
          }
        }
        // At the lab's depth and rate, each variant's seeds that learned.
        const counts = await page.locator(`${lab} .lab-variant-reading [data-reading]`).textContent();
        for (const id of CURRENT) {
          const learned = VARIANT_JSON.rows.filter(
            (r) => r.run === id && r.layers === SETTINGS.layers && r.lr === SETTINGS.lr && r.outcome === 'learned',
          ).length;
          const said = t('variantCount').replace('{run}', t(RUN_LABEL[id])).replace('{learned}', String(learned));
          assert.ok(counts.includes(said), `${said}: ${counts}`);
        }
        const windowText = await page.locator(`${lab} .lab-window`).textContent();
        assert.ok(windowText.includes(t('runWarmup')), 'the window names the chapter’s runs');
        for (const id of CURRENT.filter((run) => !LAB_RUNS.includes(run))) {
          assert.ok(!windowText.includes(t(RUN_LABEL[id])), `${id} is not on the learning-rate window`);
        }

        // A variant's cell trains its seed-1 run on the variants' text, in
        // either language, with the reader's settings untouched.
        const cellResult = await pressMapCell(page, cellKey('qknorm', 6, 3e-3), {
          variant: true,
          timeout: RUN_TIMEOUT_MS,
        });
        await waitPhase(page, 'done');
        await settle(page);
        assert.equal(await page.locator(`${lab} .lab-map-result`).isHidden(), true);
        assert.equal(await page.locator(`${lab} #lab-depth`).inputValue(), String(LAB_DEFAULTS.layers));
        const options = runOptions(
          'qknorm',
          { ...LAB_DEFAULTS, layers: 6, lr: 3e-3 },
          STEPS,
          TEXTS[VARIANT_JSON.rows[0].lang],
        );
        const loss = await page.evaluate(async (o) => {
          const nl = await window.normlab.loadNormlab();
          const trainer = await nl.createTrainer(o);
          const r = trainer.step(o.steps);
          trainer.delete();
          return Array.from(r.loss);
        }, options);
        assert.deepEqual(await labSeriesValues(page, 'loss', 'qknorm'), loss);
        const result = await cellResult.textContent();
        assert.ok(result.includes(t('runQkNorm')) && result.includes(String(STEPS)), result);

        // For a person to look at (build/screenshots/): the two probe charts
        // and the After pre-norm section, at a desktop's width and a phone's.
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await settle(page);
          for (const chart of ['logit', 'stream'])
            await page
              .locator(`[data-chart="lab-${chart}"]`)
              .screenshot({ path: `${screenshotDir}lab-${chart}-${lang}-${width}.png` });
          await page.locator('#after').screenshot({ path: `${screenshotDir}after-${lang}-${width}.png` });
          await page
            .locator(`${lab} .lab-variant-map`)
            .screenshot({ path: `${screenshotDir}lab-variant-map-${lang}-${width}.png` });
        }
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  });
}

test('a reload mid-contrast goes on from the checkpoints and draws the probes’ charts bit for bit', async () => {
  const steps = 40;
  const drawn = (page) =>
    page.evaluate((sel) => {
      const out = {};
      for (const chart of ['lab-logit', 'lab-stream', 'lab-loss']) {
        const boxes = document.querySelectorAll(`${sel} [data-chart="${chart}"] .chart-box`);
        boxes.forEach((box, i) => {
          for (const g of box.querySelectorAll('g[data-values]'))
            out[`${chart} ${i} ${g.getAttribute('class')}`] = g.getAttribute('data-values');
        });
      }
      return out;
    }, lab);
  const init = `window.NORMLAB_LAB_STEPS = ${steps}; window.NORMLAB_LAB_WORKERS = false;`;
  const whole = await openPage(shared.browser, fileUrl, { initScript: init });
  const broken = await openPage(shared.browser, fileUrl, {
    initScript: `${init} window.NORMLAB_LAB_CHECKPOINT_MS = 200;`,
  });
  try {
    await startCurrent(whole.page);
    await waitPhase(whole.page, 'done');
    const reference = await drawn(whole.page);
    assert.ok(Object.keys(reference).filter((k) => k.startsWith('lab-logit')).length === CURRENT.length);

    const { page, problems } = broken;
    await startCurrent(page);
    // The second run saved part-way through its training.
    const second = LAB_DICTIONARIES.en[RUN_LABEL[CURRENT[1]]];
    await page.waitForFunction(
      ([sel, name]) => {
        const line = document.querySelector(`${sel} .lab-saved-line`)?.textContent ?? '';
        const step = Number(line.match(new RegExp(`${name} at step (\\d+)`))?.[1]);
        return step >= 3 && step <= 30;
      },
      [lab, second],
      { timeout: RUN_TIMEOUT_MS, polling: 20 },
    );
    await page.reload();
    await page.waitForFunction(() => document.getElementById('backend')?.dataset.backend !== 'loading');
    await bringLabIn(page);
    const offer = page.locator(`${lab} .lab-resume`);
    await offer.waitFor({ state: 'visible', timeout: 60_000 });
    await offer.click();
    await waitPhase(page, 'done');
    assert.deepEqual(await drawn(page), reference);
    assert.deepEqual(problems, []);
    assert.deepEqual(whole.problems, []);
  } finally {
    await whole.close();
    await broken.close();
  }
});

describe("the current-models contrast's accessibility", () => {
  for (const [lang, colorScheme, width] of [
    ['en', 'dark', 1280],
    ['zh-CN', 'light', 390],
  ]) {
    test(`axe finds no serious or critical violation in the lab: ${lang}, ${colorScheme}, ${width} px`, async () => {
      // Over HTTP: axe reads the stylesheets itself, which file:// forbids.
      const { page, problems, close } = await openPage(shared.browser, `${shared.server.url}index.html?lang=${lang}`, {
        colorScheme,
        viewport: { width, height: 900 },
        bypassCSP: true,
        initScript: 'window.NORMLAB_LAB_STEPS = 3;',
      });
      try {
        await startCurrent(page);
        await waitPhase(page, 'done');
        await page.locator(`[data-chart="lab-logit"] summary`).click();
        await page.locator(`[data-chart="lab-stream"] summary`).click();
        await settle(page);
        assert.deepEqual(await seriousViolations(page, '#lab'), []);
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }
});
