// What the page benchmarks (page-perf.mjs, lab-perf.mjs) share: their
// arguments and the quantile they report.
//
//   [--runs N]   moves per control (default 40)
//   [--url URL]  the page to measure (default dist/index.html from disk)
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function parseArgs(argv) {
  const o = { runs: 40, url: pathToFileURL(path.join(ROOT, 'dist/index.html')).href };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') o.runs = Number(argv[++i]);
    else if (argv[i] === '--url') o.url = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return o;
}

// The q-quantile of values (the nearest rank at or below).
export const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

// The sliders the page benchmarks move, with values inside each slider's
// range, so that every move changes what the page shows (a value past the
// end would be clamped to the same one, and the move would cost nothing).
export const SLIDERS = [
  { name: 'Softmax magnitude slider', selector: '#softmax-l2', values: ['2', '1.5'], question: 'softmax' },
  { name: 'Playground stretch slider', selector: '#playground-stretch', values: ['0.5', '0'], question: 'playground' },
];

// A reader drags these sliders only once their question is answered or
// skipped (until then they are disabled): skip it, then check the slider
// takes each value as given.
export async function readySlider(page, { selector, values, question }) {
  const skip = page.locator(`[data-widget="${question}"] .guess .predict-actions .button-quiet`);
  if (await skip.isVisible()) await skip.click();
  await page.waitForFunction((s) => !document.querySelector(s).disabled, selector);
  const taken = await page.evaluate(
    ({ selector, values }) => {
      const slider = document.querySelector(selector);
      const before = slider.value;
      const result = values.map((v) => {
        slider.value = v;
        return slider.value;
      });
      slider.value = before;
      return result;
    },
    { selector, values },
  );
  if (taken.join() !== values.join())
    throw new Error(`${selector} takes ${taken.join(', ')} for ${values.join(', ')}: a move would be clamped`);
}
