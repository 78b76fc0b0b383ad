// What the demo panel's prediction and walk should show, computed here, for
// the browser tests that follow a student through it (page-predict.test.mjs,
// page-student.test.mjs).
import { significant } from '../../web/src/format.js';
import { lookup, plain } from '../../web/src/i18n/index.js';
import { guessVerdict } from '../../web/src/predictions.js';
import { factorText, guessText } from '../../web/src/widgets/autorun.js';
import { measured } from './page-support.mjs';

// A dictionary string with its parameters, as the page writes it.
export const text = (lang, key, params) => plain(lookup(lang, key), params);

// The test-only walk speed (window.NORMLAB_WALK_STEP_MS): 200 ms per
// narrated step, 2.2 s for the walk. Runs in the page before its scripts.
export const FAST_WALK = () => {
  window.NORMLAB_WALK_STEP_MS = 200;
};

// The model's own figures for the page's default settings and the prompt,
// from a model of the same configuration made with `nl` (not read from the
// page): the residual stream's L2 entering each layer and after the last,
// and the input norm's input and output at each layer.
export function modelFigures(nl, prompt) {
  const model = nl.createModel({
    hidden: 1024,
    heads: 16,
    seed: 1,
    norm: 'rmsnorm',
    placement: 'pre',
    layers: 24,
    eps: 1e-6,
  });
  try {
    const run = model.forward(prompt);
    return {
      residual: [...run.probes['residual.in'].mean.l2, run.final['finalNorm.in'].mean.l2],
      norm: Array.from(run.probes['inputNorm.out'].mean.l2),
      normIn: Array.from(run.probes['inputNorm.in'].mean.l2),
    };
  } finally {
    model.delete();
  }
}

// The values a layer-chart series has drawn (its data-values).
export const drawn = (page, id) =>
  page
    .getAttribute(`[data-widget="layer-chart"] .chart-box .series-${id}`, 'data-values')
    .then((v) => (v ? v.split(',').map(Number) : []));
export const WALK_COMPARE = '[data-widget="autorun"] .predict-compare';
// Scrolls the layer chart into view once the page has rendered each section
// once (app.js measureSections: until then a section above the chart may
// still take its real size and move it out of view before the walk sees it).
export async function scrollToChart(page) {
  await measured(page);
  await page.locator('[data-widget="layer-chart"]').scrollIntoViewIfNeeded();
}
export const walkStatus = (page) => page.getAttribute('[data-widget="autorun"]', 'data-status');
export const waitStatus = (page, status, timeout = 60_000) =>
  page.waitForFunction((s) => document.querySelector('[data-widget="autorun"]').dataset.status === s, status, {
    timeout,
  });

// The comparison sentence the page should write for guesses r (the
// residual stream after the last layer) and n (the norm's output there).
export function comparison(lang, figures, r, n) {
  const residual = figures.residual[24];
  const norm = figures.norm[23];
  const verdict = (guess, measured) => {
    const v = guessVerdict(guess, measured);
    return text(lang, `autorun.predict.verdict.${v.verdict}`, { factor: factorText(v.factor), percent: '10' });
  };
  return text(lang, 'autorun.predict.compare', {
    last: 23,
    residualGuess: guessText(r),
    residual: significant(residual),
    residualVerdict: verdict(r, residual),
    norm: 'RMSNorm',
    normGuess: guessText(n),
    normValue: significant(norm),
    normVerdict: verdict(n, norm),
  });
}
