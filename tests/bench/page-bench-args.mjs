// What the page benchmarks (page-perf.mjs, lab-perf.mjs) share: their
// arguments, the quantile they report, the sliders they move and how a
// move is timed.
//
//   [--runs N]   moves per control (default 40)
//   [--url URL]  the page to measure (default dist/index.html from disk)
//   [--json FILE] also write the figures as JSON, for tests/bench/results.mjs
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function parseArgs(argv) {
  const o = { runs: 40, loads: 8, loadsOnly: false, url: pathToFileURL(path.join(ROOT, 'dist/index.html')).href };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') o.runs = Number(argv[++i]);
    else if (argv[i] === '--loads') o.loads = Number(argv[++i]);
    else if (argv[i] === '--loads-only') o.loadsOnly = true;
    else if (argv[i] === '--url') o.url = argv[++i];
    else if (argv[i] === '--json') o.json = path.resolve(argv[++i]);
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

// In the page: set a control's value and fire its event, then time the frame
// that follows. Our requestAnimationFrame callback is registered before the
// event, so it runs first in that frame; the page's render() runs next, then
// style, layout and paint, and only then the timeout task. So:
//   work    = event handlers + (that frame's JS + rendering)
//   latency = event -> frame done (includes waiting for the frame to start)
export async function timedInput(page, selector, value, event = 'input') {
  return page.evaluate(
    ({ selector, value, event }) =>
      new Promise((resolve) => {
        const control = document.querySelector(selector);
        let frameStart = 0;
        const t0 = performance.now();
        requestAnimationFrame(() => {
          frameStart = performance.now();
          setTimeout(() => {
            const end = performance.now();
            resolve({ work: handlerMs + (end - frameStart), latency: end - t0 });
          }, 0);
        });
        control.value = value;
        control.dispatchEvent(new Event(event, { bubbles: true }));
        const handlerMs = performance.now() - t0;
      }),
    { selector, value, event },
  );
}
