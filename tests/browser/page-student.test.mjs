// One student's path through the page, in one visit per language, the way
// the lesson runs: predict where the demo panel's two curves end, watch the
// walk draw them (at the test-only speed) and read the comparison; guess the
// softmax widget's top probability and read the reveal; complete the
// calculator's five challenges; answer the quiz wrong, then right; open the
// exercise's model answer; reload and find all of it kept in this browser
// and none of it in the link. Every expected figure is computed here through
// the module's own API (dist/normlab.mjs), not read from the page.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { computeSoftmax } from '../../web/src/compute.js';
import { EXAMPLE_A, EXERCISE_LAYERS } from '../../web/src/constants.js';
import { fixed, significant, vectorText } from '../../web/src/format.js';
import { loadNormlab } from '../../dist/normlab.mjs';
import { fileUrl, openPage, settle, shareBrowserAndServer } from './page-support.mjs';
import {
  FAST_WALK,
  WALK_COMPARE,
  comparison,
  drawn,
  modelFigures,
  text,
  waitStatus,
  walkStatus,
} from './walk-support.mjs';

const shared = shareBrowserAndServer();
const nl = await loadNormlab({ backend: 'simd128' });

// RMSNorm of one row, gain 1, as the calculator runs it.
const rmsnorm = (values) => Array.from(nl.rmsnorm(Float32Array.from(values), { dim: values.length, eps: 1e-6 }));

// An input's repaint and the repaint of the store write it caused.
async function painted(page) {
  await settle(page);
  await settle(page);
}

for (const lang of ['en', 'zh-CN']) {
  const t = (key, params) => text(lang, key, params);

  test(`a student's path through the page, kept across a reload (${lang})`, async () => {
    const { page, problems, close } = await openPage(shared.browser, `${fileUrl}?lang=${lang}`, {
      initScript: FAST_WALK,
    });
    try {
      const figures = modelFigures(nl, t('model.defaultPrompt'));

      // 1. The demo panel asks before it shows: only the stream's starting
      //    point is on the chart until the prediction is in.
      await page.locator('[data-widget="layer-chart"]').scrollIntoViewIfNeeded();
      await settle(page);
      assert.equal(await walkStatus(page), 'waiting');
      assert.deepEqual(await drawn(page, 'residual'), [figures.residual[0]]);
      assert.deepEqual(await drawn(page, 'norm-input'), []);
      // The stream ends at 100, the norm's output at 10^1.5 = 31.6.
      await page.fill('#predict-residual', '2');
      await page.fill('#predict-norm', '1.5');
      await settle(page);
      await page.click('#predict-commit');
      await page.waitForFunction(() => {
        const values = document
          .querySelector('[data-widget="layer-chart"] .chart-box .series-residual')
          .dataset.values.split(',');
        return values.length > 1 && values.length < 25;
      });
      const part = await drawn(page, 'residual');
      assert.deepEqual(part, figures.residual.slice(0, part.length));
      await waitStatus(page, 'done');
      await settle(page);
      assert.deepEqual(await drawn(page, 'residual'), figures.residual);
      assert.deepEqual(await drawn(page, 'norm-input'), figures.norm);
      const compared = comparison(lang, figures, 100, 10 ** 1.5);
      assert.equal(await page.textContent(WALK_COMPARE), compared);
      assert.ok(
        compared.includes(significant(figures.residual[24])) && compared.includes(significant(figures.norm[23])),
        compared,
      );

      // 2. The softmax widget: a guess of 0.5 at L2 128, then the reveal.
      const softmax = page.locator('[data-widget="softmax"]');
      await softmax.scrollIntoViewIfNeeded();
      assert.equal(await page.isDisabled('#softmax-l2'), true);
      await page.fill('#softmax-guess', '0.5');
      await softmax.locator('button[data-action="check"]').click();
      await settle(page);
      const at128 = computeSoftmax(nl, 128, 'linear');
      assert.equal(
        await softmax.locator('.predict-compare').textContent(),
        t('softmax.predict.revealLow', {
          l2: '128',
          scale: '4',
          value: fixed(at128.maxProb),
          guess: '0.5',
          difference: fixed(at128.maxProb - 0.5),
        }),
      );
      assert.deepEqual(
        await softmax.locator('.bar-value').allTextContents(),
        at128.probs.map((p) => fixed(p)),
      );

      // 3. The calculator's challenges, each settled on the student's vector.
      const item = (id) => page.locator(`[data-challenge="${id}"]`);
      const step = (name) => page.textContent(`[data-step="${name}"]`);
      await page.locator('[data-widget="calculator"]').scrollIntoViewIfNeeded();
      await item('flat').locator('.challenge-action').click();
      await painted(page);
      assert.equal(await step('ln-lnY'), '[0, 0, 0, 0]');
      assert.equal(await step('rms-y'), vectorText(rmsnorm([3, 3, 3, 3])));
      assert.equal(await step('rms-y'), '[1, 1, 1, 1]');
      await page.fill('#calc-vector', EXAMPLE_A.join(', '));
      await painted(page);
      await item('shift').locator('.challenge-action').click();
      await painted(page);
      const shifted = EXAMPLE_A.map((v) => v + 10);
      assert.equal(await page.inputValue('#calc-vector'), shifted.join(', '));
      assert.equal(await step('rms-y'), vectorText(rmsnorm(shifted)));
      assert.equal(await item('shift').getAttribute('data-done'), 'true');
      await item('unit').locator('[data-option="a"] input').check();
      await painted(page);
      assert.equal(await item('unit').locator('[data-option="a"]').getAttribute('data-mark'), 'wrong');
      await item('unit').locator('[data-option="b"] input').check();
      await painted(page);
      assert.equal(await item('unit').locator('[data-option="b"]').getAttribute('data-mark'), 'correct');
      await item('size').locator('[data-option="c"] input').check();
      await painted(page);
      // Layer 0's norm makes the prompt's vectors longer: the feedback
      // quotes the demo panel's figures for it.
      const size = (await item('size').locator('.challenge-feedback p').allTextContents()).join(' ');
      assert.ok(size.includes(significant(figures.normIn[0])) && size.includes(significant(figures.norm[0])), size);
      assert.ok(figures.norm[0] > 3 * figures.normIn[0]);
      await item('zero').locator('.challenge-action').click();
      await painted(page);
      assert.equal(await page.textContent('.challenge-progress'), t('challenges.progress', { done: 5, total: 5 }));

      // 4. The quiz: a wrong first pick gets a hint and no explanation; the
      //    right pick then opens it.
      const question = (q) => page.locator(`[data-question="${q}"]`);
      const option = (q, o) => question(q).locator(`[data-option="${o}"]`);
      const explanation = (q) => question(q).locator('.quiz-explanation');
      await question('q1').scrollIntoViewIfNeeded();
      await option('q1', 'a').click();
      await painted(page);
      assert.equal(await option('q1', 'a').getAttribute('data-mark'), 'wrong');
      assert.equal(await explanation('q1').isVisible(), false);
      await option('q1', 'c').click();
      await painted(page);
      assert.equal(await option('q1', 'c').getAttribute('data-mark'), 'correct');
      assert.equal(await explanation('q1').textContent(), `${t('quiz.why')}${t('quiz.q1.explanation')}`);
      for (const [q, o] of [
        ['q2', 'b'],
        ['q3', 'b'],
        ['q4', 'a'],
        ['q5', 'c'],
        ['q6', 'a'],
        ['q7', 'b'],
      ])
        await option(q, o).click();
      await painted(page);
      const score = t('quiz.score', { firstTry: 6, answered: 7, total: 7 });
      assert.equal(await page.textContent('.quiz-score'), score);

      // 5. The exercise's model answer, from the same run's figures.
      const [first, second] = EXERCISE_LAYERS;
      const names = {
        boxIn: t('breakdown.box.inputNormIn', { norm: 'RMSNorm' }),
        boxOut: t('breakdown.box.inputNormOut', { norm: 'RMSNorm' }),
      };
      await page.locator('#exercise-reveal').scrollIntoViewIfNeeded();
      await page.click('#exercise-reveal');
      await painted(page);
      const exercise = [first, second].map((layer) =>
        t('exercise.figures.pre', {
          ...names,
          layer,
          in: significant(figures.normIn[layer]),
          out: significant(figures.norm[layer]),
        }),
      );
      assert.deepEqual(await page.locator('.exercise-figures li').allTextContents(), exercise);

      // 6. A reload finds the student's work; the link carries none of it.
      await page.waitForTimeout(400);
      // Only the view: the language, the layer the walk ended on, the
      // softmax's L2 the reveal moved to, the calculator's vector.
      const search = new URL(page.url()).searchParams;
      assert.deepEqual([...search.keys()].sort(), ['l2', 'lang', 'layer', 'x']);
      assert.deepEqual([search.get('layer'), search.get('l2'), search.get('x')], ['23', '128', '1, -2, 2, -1']);
      await page.reload();
      await page.waitForFunction(() => document.getElementById('backend').dataset.backend !== 'loading');
      await page.locator('[data-widget="layer-chart"]').scrollIntoViewIfNeeded();
      await painted(page);
      assert.equal(await page.textContent(WALK_COMPARE), compared);
      assert.match(await softmax.locator('.predict-compare').textContent(), new RegExp(fixed(at128.maxProb)));
      assert.equal(await page.textContent('.challenge-progress'), t('challenges.progress', { done: 5, total: 5 }));
      assert.equal(await page.textContent('.quiz-score'), score);
      assert.equal(await option('q1', 'c').getAttribute('data-mark'), 'correct');
      assert.equal(await page.getAttribute('#exercise-reveal', 'aria-expanded'), 'true');
      assert.deepEqual(await page.locator('.exercise-figures li').allTextContents(), exercise);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}
