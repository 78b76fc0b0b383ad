// The page's interaction budget, measured in headless Chromium with
// the Performance API:
//   - forward views: from a slider's input event to the frame that shows the
//     recomputed views, at the default config (target: one frame, 16 ms);
//   - gradient views: from the last input of a drag to the gradient views
//     painted (target: 100 ms after the input settles), and the longest frame
//     during the drag (the backward passes must never hold a slider up).
//   - the first load (before the moves): in fresh contexts, from navigation
//     to the first views computed by the kernels and painted, the first
//     forward pass (the model's scratch is allocated then, the module not
//     yet tiered up) and the gradient views' two backward passes.
// Prints the figures, and where a keystroke's frame goes; asserts nothing
// (the machine's load decides too much).
//
//   node tests/bench/page-perf.mjs [--runs 40] [--loads 8] [--loads-only] [--url URL] [--json FILE]
//
// The page records User Timing measures only when window.NORMLAB_TIMING is
// set, which this script does before the page's scripts run:
//   normlab:paint           one render() pass (all views), JS only
//   normlab:view:NAME       the part of it spent on one view (model: the
//                           forward pass when one ran, and its view data)
//   normlab:forward:run     of that, the model's forward() (the wasm call
//                           and the result object)
//   normlab:forward:view    and the view data made from the result
//   normlab:gradient-views  last input -> gradient views painted
import { writeFileSync } from 'node:fs';
import os from 'node:os';

import { gradientsDone, launchBrowser } from '../browser/page-support.mjs';
import { SLIDERS, parseArgs, quantile, readySlider, timedInput } from './page-bench-args.mjs';

const FRAME_MS = 16;
const GRADIENT_MS = 100;

const fmt = (ms) => `${ms.toFixed(1)} ms`.padStart(9);
// What --json writes: every row printed, under the prompt it was measured at.
const recorded = { rows: [], loads: [] };
let section = null;
function row(name, values, target) {
  const p50 = quantile(values, 0.5);
  const p95 = quantile(values, 0.95);
  const within = values.filter((v) => v <= target).length;
  recorded.rows.push({ section, name, median: p50, p95, max: Math.max(...values), within, n: values.length, target });
  console.log(
    `  ${name.padEnd(42)} median ${fmt(p50)}  p95 ${fmt(p95)}  max ${fmt(Math.max(...values))}  ` +
      `within ${target} ms: ${within}/${values.length}`,
  );
}

// Returns the page's User Timing measures taken during the moves, by name
// (durations in ms).
async function measureControl(page, { name, selector, values, event, runs, settle = 0 }) {
  const work = [];
  const latency = [];
  await page.evaluate(() => performance.clearMeasures());
  for (let i = 0; i < runs; i++) {
    const r = await timedInput(page, selector, values[i % values.length], event);
    work.push(r.work);
    latency.push(r.latency);
    // Let debounced work (the gradient views) run between moves when asked,
    // so each move is measured on its own.
    if (settle) await page.waitForTimeout(settle);
  }
  row(`${name}: work in the frame`, work, FRAME_MS);
  row(`${name}: input -> frame painted`, latency, FRAME_MS + FRAME_MS);
  return page.evaluate(() => {
    const byName = {};
    for (const m of performance.getEntriesByType('measure')) (byName[m.name] ??= []).push(m.duration);
    return byName;
  });
}

// Where the frames of a control's moves went: the render() pass and each
// view's part of it (JS only; the rest of the frame is the browser's style,
// layout and paint), medians over the moves.
function frameParts(measures) {
  const paints = measures['normlab:paint'] ?? [];
  if (!paints.length) return;
  row('  render() pass, JS', paints, FRAME_MS);
  const views = Object.keys(measures)
    .filter((n) => n.startsWith('normlab:view:'))
    .map((n) => [n.slice('normlab:view:'.length), quantile(measures[n], 0.5), measures[n]])
    .sort((a, b) => b[1] - a[1]);
  for (const [view, , values] of views) {
    if (quantile(values, 0.5) < 0.05) continue;
    row(`    ${view}`, values, FRAME_MS);
    // The model view's forward pass: the wasm call with its result object,
    // then the view data drawn from it.
    if (view !== 'model') continue;
    for (const part of ['run', 'view']) {
      const values = measures[`normlab:forward:${part}`];
      if (values?.length) row(`      forward ${part}`, values, FRAME_MS);
    }
  }
  // Views off screen are painted after the frame, in idle time (app.js).
  for (const name of Object.keys(measures).filter((n) => n.startsWith('normlab:offscreen:'))) {
    row(`  after the frame: ${name.slice('normlab:offscreen:'.length)} (off screen)`, measures[name], FRAME_MS);
  }
}

// A drag: `steps` input events one frame apart, then wait for the gradient
// views. Returns the gradient measure and the longest frame during the drag.
async function drag(page, selector, from, to, steps) {
  return page.evaluate(
    ({ selector, from, to, steps }) =>
      new Promise((resolve) => {
        const control = document.querySelector(selector);
        const widget = document.querySelector('[data-widget="gradient-flow"]');
        performance.clearMeasures('normlab:gradient-views');
        const frames = [];
        let last = performance.now();
        let step = 0;
        function tick(now) {
          frames.push(now - last);
          last = now;
          if (step < steps) {
            control.value = String(Math.round(from + ((to - from) * (step + 1)) / steps));
            control.dispatchEvent(new Event('input', { bubbles: true }));
            step += 1;
            requestAnimationFrame(tick);
            return;
          }
          const giveUp = performance.now() + 10_000;
          const wait = () => {
            const measure = performance.getEntriesByName('normlab:gradient-views').at(-1);
            if (widget.dataset.busy === 'false' && measure)
              resolve({ gradientMs: measure.duration, longestFrame: Math.max(...frames.slice(1)) });
            else if (performance.now() > giveUp)
              resolve({ gradientMs: NaN, longestFrame: Math.max(...frames.slice(1)) });
            else setTimeout(wait, 5);
          };
          wait();
        }
        requestAnimationFrame((now) => {
          last = now;
          requestAnimationFrame(tick);
        });
      }),
    { selector, from, to, steps },
  );
}

// The longest prompt the model takes (64 UTF-8 bytes): the cost of both
// passes grows with the prompt, so the budget is also measured here, and at
// 32 tokens, the longest the keystroke budget is set for.
const LONG_PROMPT = 'Every layer adds its attention and MLP output to the one stream.';
const PROMPT_32 = 'The residual stream grows deeper';

async function measurePage(browser, url, runs) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.NORMLAB_TIMING = true;
  });
  // layer=0: a link that names a layer keeps the auto-run from starting.
  await page.goto(url);
  await gradientsDone(page);
  await page.locator('[data-widget="layer-chart"]').scrollIntoViewIfNeeded();
  const prompt = await page.inputValue('#model-prompt');
  const tokens = Buffer.byteLength(prompt, 'utf8');
  section = { prompt, tokens };
  console.log(
    `\n== prompt “${prompt}” (${tokens} tokens), backend ${await page.textContent('#backend')}, 24 layers, 1024 wide; ` +
      `load average ${os.loadavg()[0].toFixed(2)}`,
  );

  console.log('Sliders outside the model (target: within one frame, 16 ms):');
  // Each with its widget on screen, as a reader drags it (sections far off
  // screen are not rendered).
  for (const slider of SLIDERS) {
    await page.locator(slider.selector).scrollIntoViewIfNeeded();
    await readySlider(page, slider);
    await measureControl(page, { ...slider, runs });
  }
  await page.locator('[data-widget="layer-chart"]').scrollIntoViewIfNeeded();

  console.log('Forward views (target: within one frame, 16 ms):');
  // The Layer selector repaints the views from the forward pass already run.
  await measureControl(page, {
    name: 'Layer selector (repaint only)',
    selector: '#layer-select',
    values: ['22', '0'],
    runs,
  });
  // A keystroke that changes the prompt's last character: the model keeps
  // the prompt's run and computes the last token's row in every layer (and
  // the other rows' keys and values); the views then repaint. Each move's
  // prompt is new (the controller keeps the last few views: a prompt seen
  // just before would be a repaint only), and none is a prompt of the
  // gradient drags below (whose results must not be kept from here).
  const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!?#%';
  const typed = Array.from({ length: runs }, (_, i) => `${prompt.slice(0, -1)}${last[i % last.length]}`);
  const keystroke = await measureControl(page, {
    name: 'prompt keystroke (last token changed)',
    selector: '#model-prompt',
    values: typed,
    runs,
    settle: 150,
  });
  console.log("Where a keystroke's frame goes (JS; style, layout and paint are the rest of the work):");
  frameParts(keystroke);
  // The depth slider runs one 64-layer instance to the chosen depth; the
  // prompt's residual stream is kept, so a step up runs one more layer and
  // a step down only the final norm and the head. A jump runs every layer
  // not run yet.
  await measureControl(page, {
    name: 'Depth slider, one step',
    selector: '#model-depth',
    values: ['23', '24'],
    runs,
    settle: 150,
  });
  await measureControl(page, {
    name: 'Depth slider, jumps 24 -> 12 -> 36',
    selector: '#model-depth',
    values: ['12', '36', '24'],
    runs,
    settle: 150,
  });
  // Placement switches between two instances; toggled back and forth, the
  // controller has both views kept, so this is the views' repaint.
  await measureControl(page, {
    name: 'Placement toggled (both views kept)',
    selector: '#model-placement',
    values: ['post', 'pre'],
    event: 'change',
    runs: Math.min(20, runs),
    settle: 150,
  });

  console.log('Gradient views (target: within 100 ms of the last input; a drag never waits for them):');
  const gradient = [];
  const longest = [];
  const drags = Math.max(5, Math.round(runs / 4));
  // Every drag ends at the default depth, 24, for a prompt whose gradients
  // were never computed there (its last character changes first, at the
  // drag's starting depth): the page keeps recent gradient results, and a
  // cached one would show at once.
  const settled = () =>
    page.waitForFunction(() => document.querySelector('[data-widget="gradient-flow"]').dataset.busy === 'false');
  // Dragged where it is, on screen (off screen its passes wait).
  await page.locator('[data-widget="gradient-flow"]').scrollIntoViewIfNeeded();
  for (let i = 0; i < drags; i++) {
    const from = i % 2 ? 30 : 18;
    await page.fill('#grad-depth', String(from));
    await settled();
    await page.fill('#model-prompt', `${prompt.slice(0, -1)}${String.fromCharCode(97 + (i % 26))}`);
    // fill() scrolled the prompt into view: the view back on screen.
    await page.locator('[data-widget="gradient-flow"]').scrollIntoViewIfNeeded();
    await page.waitForTimeout(50);
    await settled();
    const r = await drag(page, '#grad-depth', from, 24, 6);
    gradient.push(r.gradientMs);
    longest.push(r.longestFrame);
  }
  await page.fill('#model-prompt', prompt);
  row('gradient depth drag: last input -> views', gradient, GRADIENT_MS);
  row('gradient depth drag: longest frame in drag', longest, FRAME_MS + 1);
  await context.close();
}

// `loads` fresh loads of url, each in a new context (no cache, a new wasm
// instance): medians of the main figures of a first visit.
async function measureLoads(browser, url, loads) {
  const figures = { computed: [], forward: [], pre: [], post: [] };
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.NORMLAB_TIMING = true;
    });
    await page.goto(url);
    // The first paint of the kernels' figures: the backend is known, and
    // the frame after the render it scheduled is painted.
    figures.computed.push(
      await page.evaluate(
        () =>
          new Promise((resolve) => {
            const painted = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now())));
            const ready = () => document.getElementById('backend')?.dataset.backend !== 'loading';
            if (ready()) painted();
            else {
              const watch = new MutationObserver(() => ready() && (watch.disconnect(), painted()));
              watch.observe(document.getElementById('backend'), { attributes: true });
            }
          }),
      ),
    );
    // The gradient views' passes wait for their view to near the screen:
    // scrolled to, as a reader would.
    await gradientsDone(page);
    const first = await page.evaluate(() =>
      Object.fromEntries(
        ['forward:run', 'gradients:pre', 'gradients:post'].map((n) => [
          n,
          performance.getEntriesByName(`normlab:${n}`)[0]?.duration ?? NaN,
        ]),
      ),
    );
    figures.forward.push(first['forward:run']);
    figures.pre.push(first['gradients:pre']);
    figures.post.push(first['gradients:post']);
    await context.close();
  }
  console.log(`First load, ${loads} fresh loads (medians; min and max):`);
  for (const [name, values] of [
    ['navigation -> computed views painted', figures.computed],
    ['first forward pass (normlab:forward:run)', figures.forward],
    ['first gradients, pre-norm', figures.pre],
    ['first gradients, post-norm', figures.post],
  ]) {
    recorded.loads.push({ name, median: quantile(values, 0.5), min: Math.min(...values), max: Math.max(...values) });
    console.log(
      `  ${name.padEnd(42)} median ${fmt(quantile(values, 0.5))}  min ${fmt(Math.min(...values))}  max ${fmt(Math.max(...values))}`,
    );
  }
}

const options = parseArgs(process.argv.slice(2));
const browser = await launchBrowser();
try {
  Object.assign(recorded, { chromium: browser.version(), cores: os.cpus().length, loadAtStart: os.loadavg() });
  console.log(`normlab page interaction budget: ${options.url}`);
  console.log(
    `Chromium ${browser.version()}, ${options.runs} moves per control; median, 95th percentile and worst of each`,
  );
  // Other processes on the machine share its cores: say how busy it was.
  console.log(
    `${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the start`,
  );
  await measureLoads(browser, `${options.url}?layer=0`, options.loads);
  if (!options.loadsOnly) {
    await measurePage(browser, `${options.url}?layer=0`, options.runs);
    await measurePage(browser, `${options.url}?layer=0&prompt=${encodeURIComponent(PROMPT_32)}`, options.runs);
    await measurePage(browser, `${options.url}?layer=0&prompt=${encodeURIComponent(LONG_PROMPT)}`, options.runs);
  }
  recorded.loadAtEnd = os.loadavg();
  if (options.json) writeFileSync(options.json, JSON.stringify(recorded, null, 1) + '\n');
} finally {
  await browser.close();
}
