// The page on a phone-class CPU, measured in headless Chromium: a 390 × 844
// viewport (deviceScaleFactor 3, mobile, touch), loaded from disk, the page's
// main thread slowed with the DevTools protocol's
// Emulation.setCPUThrottlingRate at 1× (this machine), 4× (Lighthouse's
// mobile preset) and 6×. At each rate, on fresh loads (a new context each: no
// cache, a new wasm instance), medians of:
//   - navigation -> computed views painted: page-perf.mjs's first-load figure
//     (the backend badge leaves 'loading', then the frame after the render it
//     scheduled is painted), watched from before the page's scripts run;
//   - largest contentful paint (PerformanceObserver, buffered);
//   - total blocking time, the sum over the long tasks of their time past
//     50 ms, from navigation until the page is settled (the gradient views
//     are done, or wait for their section to near the screen, which at load
//     it is not; then no long task for a quiet period), and the longest task
//     in that time (PerformanceObserver 'longtask', registered before the
//     page's scripts);
//   - on the last load: the softmax slider, input to the frame that shows it
//     (page-bench-args.mjs's timedInput, as page-perf.mjs times it), and ms
//     per trainer.step(1) at the lab's default settings (a trainer made in the
//     page with its own normlab API, the options the lab's first run uses);
//     from it, derived, the default contrast's training alone (its runs × its
//     steps × that median: no evaluation, sampling or repaints).
// Then, at 1× in the same viewport, the lab's default contrast at full
// length as a reader runs it, twice, one after the other in fresh pages: its
// runs in Web Workers, all at once (the lab's engine), and on the main
// thread in idle slices (window.NORMLAB_LAB_WORKERS = false, the fallback):
// the wall-clock from the start button to every run ended, the main
// thread's tasks over 50 ms in that time, and each worker's wasm memory
// (trainer-tracker.mjs). (DevTools throttling slows the page's thread, not
// its workers', so the two engines are compared unthrottled.)
// A JavaScript loop timed in the page at each rate shows the throttling took
// effect. Throttling slows the page's renderer only, not the browser's other
// processes nor the compositor's GPU work (headless: software), so it is a
// model of a slower phone, not a phone. Prints the targets at 4× (TBT ≤ 200
// ms, no task over 100 ms, first computed paint ≤ 1.5 s, LCP ≤ 2.5 s) and
// whether they were met; asserts nothing (the machine's load decides too
// much).
//
//   node tests/bench/phone-perf.mjs [--loads 3] [--rates 1,4,6] [--moves 20] [--steps 10] [--no-contrast]
//                                   [--url URL] [--json FILE]
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { LAB_DEFAULTS, LAB_RUNS, LAB_STEPS, runOptions } from '../../web/src/lab/runs.js';
import { LAB, bringLabIn, launchBrowser } from '../browser/page-support.mjs';
import { keepKernelModules, trackTrainerModules } from '../browser/trainer-tracker.mjs';
import { SLIDERS, quantile, readySlider, timedInput } from './page-bench-args.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const VIEWPORT = { width: 390, height: 844 };
const DEVICE = { viewport: VIEWPORT, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
// Lighthouse's mobile preset throttles the CPU 4×: the targets are set there.
const TARGET_RATE = 4;
// No long task for this long after the gradient views are done: settled.
const QUIET_MS = 1000;
const WARMUP_STEPS = 2;
const SOFTMAX = SLIDERS.find((s) => s.selector === '#softmax-l2');

function parseArgs(argv) {
  const o = {
    loads: 3,
    rates: [1, 4, 6],
    moves: 20,
    steps: 10,
    url: pathToFileURL(path.join(ROOT, 'dist/index.html')).href,
    json: null,
    contrast: true,
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--loads') o.loads = Number(argv[++i]);
    else if (argv[i] === '--rates') o.rates = argv[++i].split(',').map(Number);
    else if (argv[i] === '--moves') o.moves = Number(argv[++i]);
    else if (argv[i] === '--steps') o.steps = Number(argv[++i]);
    else if (argv[i] === '--url') o.url = argv[++i];
    else if (argv[i] === '--json') o.json = path.resolve(argv[++i]);
    else if (argv[i] === '--no-contrast') o.contrast = false;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  for (const [name, v] of [
    ['--loads', o.loads],
    ['--moves', o.moves],
    ['--steps', o.steps],
  ])
    if (!(Number.isInteger(v) && v >= 1)) throw new Error(`${name} takes a whole number from 1`);
  if (!o.rates.length || o.rates.some((r) => !(r >= 1))) throw new Error('--rates takes rates from 1, e.g. 1,4,6');
  return o;
}

// Before the page's scripts: the long tasks, the LCP candidates and the first
// computed paint (page-perf.mjs's definition: #backend's data-backend leaves
// 'loading', then two animation frames).
function observeLoad() {
  const phone = { longTasks: [], lcp: [], computedPainted: null };
  window.phonePerf = phone;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) phone.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) phone.lcp.push([e.startTime, e.element?.localName ?? null]);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const watch = new MutationObserver(() => {
    const badge = document.getElementById('backend');
    if (!badge || badge.dataset.backend === 'loading') return;
    watch.disconnect();
    requestAnimationFrame(() => requestAnimationFrame(() => (phone.computedPainted = performance.now())));
  });
  watch.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-backend'] });
}

// Resolves once the gradient views are done (or deferred: their passes wait
// for the view to near the screen) and no long task has run for quietMs
// since: to the page's performance.now() when it became quiet (the later of
// the views done, as polled, and the last long task's end).
function settled(quietMs) {
  return new Promise((resolve) => {
    const phone = window.phonePerf;
    let doneAt = null;
    const check = () => {
      const widget = document.querySelector('[data-widget="gradient-flow"]');
      const now = performance.now();
      const done = widget?.dataset.busy === 'false' || widget?.dataset.deferred === 'true';
      if (!done || phone.computedPainted === null) doneAt = null;
      else doneAt ??= now;
      const quietFrom = Math.max(doneAt ?? Infinity, ...phone.longTasks.map(([s, d]) => s + d));
      if (now - quietFrom >= quietMs) resolve(quietFrom);
      else setTimeout(check, 50);
    };
    check();
  });
}

// A fixed JavaScript loop, timed in the page: how much the throttling slows it.
const spin = () => {
  const t0 = performance.now();
  let x = 0;
  for (let i = 0; i < 2e7; i++) x = (x + i * 7) % 1000003;
  return { ms: performance.now() - t0, x };
};

async function openThrottled(browser, url, rate) {
  const context = await browser.newContext({ ...DEVICE, locale: 'en-US', colorScheme: 'light' });
  const page = await context.newPage();
  page.setDefaultTimeout(5 * 60 * 1000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.addInitScript(observeLoad);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await page.goto(url);
  return { context, page, errors };
}

// One fresh load: the load figures; on `extra`, also the slider and the
// trainer's step on the same page once settled.
async function measureLoad(browser, url, rate, extra, options) {
  const { context, page, errors } = await openThrottled(browser, url, rate);
  try {
    const settledAt = await page.evaluate(settled, QUIET_MS);
    const load = await page.evaluate((until) => {
      const phone = window.phonePerf;
      const tasks = phone.longTasks.filter(([s]) => s < until);
      return {
        computed: phone.computedPainted,
        lcp: phone.lcp.at(-1)?.[0] ?? NaN,
        lcpElement: phone.lcp.at(-1)?.[1] ?? null,
        tbt: tasks.reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0),
        longest: Math.max(0, ...tasks.map(([, d]) => d)),
        longTasks: tasks.length,
        settled: until,
      };
    }, settledAt);
    load.spin = (await page.evaluate(spin)).ms;
    load.backend = await page.getAttribute('#backend', 'data-backend');
    if (!extra) return { load, errors };

    await page.locator(SOFTMAX.selector).scrollIntoViewIfNeeded();
    await readySlider(page, SOFTMAX);
    const slider = [];
    for (let i = 0; i < options.moves; i++) {
      slider.push((await timedInput(page, SOFTMAX.selector, SOFTMAX.values[i % SOFTMAX.values.length])).latency);
      await page.waitForTimeout(30);
    }
    const lang = await page.evaluate(() => document.documentElement.lang);
    const text = readFileSync(path.join(ROOT, `web/data/training-text.${lang === 'en' ? 'en' : 'zh'}.txt`), 'utf8');
    const trainerOptions = runOptions(LAB_RUNS[0], LAB_DEFAULTS, LAB_STEPS, text);
    const step = await page.evaluate(
      async ({ o, warmup, steps }) => {
        const nl = await window.normlab.loadNormlab();
        const trainer = await nl.createTrainer(o);
        try {
          for (let i = 0; i < warmup; i++) trainer.step(1);
          const ms = [];
          for (let i = 0; i < steps; i++) {
            const t0 = performance.now();
            trainer.step(1);
            ms.push(performance.now() - t0);
          }
          return ms;
        } finally {
          trainer.delete();
        }
      },
      { o: trainerOptions, warmup: WARMUP_STEPS, steps: options.steps },
    );
    return { load, slider, step, layers: trainerOptions.layers, errors };
  } finally {
    await context.close();
  }
}

const fmt = (ms) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : '-').padStart(11);

// The default contrast at full length in a fresh page at 1×, in the lab's
// engine ('workers': as many at once as the lab takes, one per core but
// one; a number: that many at once) or the fallback ('slices'): { wallMs,
// engine, atOnce, long: the main thread's tasks over 50 ms from start to
// end (ms each), pageBytes: the page's kernels' wasm memory at the end,
// workers: [{ backend, maxBytes }], errors }.
async function timeContrast(browser, url, engine) {
  const context = await browser.newContext({ ...DEVICE, locale: 'en-US', colorScheme: 'light' });
  const page = await context.newPage();
  page.setDefaultTimeout(20 * 60 * 1000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.addInitScript(trackTrainerModules);
  await page.addInitScript(keepKernelModules);
  await page.addInitScript((engine) => {
    if (engine === 'slices') window.NORMLAB_LAB_WORKERS = false;
    else if (typeof engine === 'number') window.NORMLAB_LAB_WORKERS = engine;
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  }, engine);
  try {
    await page.goto(url);
    await page.waitForFunction(() => document.getElementById('backend')?.dataset.backend !== 'loading');
    await bringLabIn(page);
    await page.check('#lab-guess-pre');
    await page.locator(`${LAB} .lab-predict button`).first().click();
    await page.waitForFunction((sel) => !document.querySelector(`${sel} .lab-start`).disabled, LAB);
    const t0 = await page.evaluate(() => performance.now());
    await page.locator(`${LAB} .lab-start`).click();
    await page.waitForFunction((sel) => document.querySelector(sel).dataset.phase === 'done', LAB, { polling: 200 });
    const t1 = await page.evaluate(() => performance.now());
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    return {
      engine: await page.evaluate((sel) => document.querySelector(sel).dataset.engine, LAB),
      atOnce: engine === 'slices' ? 1 : typeof engine === 'number' ? engine : Math.max(1, cores - 1),
      cores,
      wallMs: t1 - t0,
      long: await page.evaluate(
        ([a, b]) => window.longTasks.filter(([s]) => s >= a && s <= b).map(([, d]) => d),
        [t0, t1],
      ),
      // The page's own kernels' instance (the demo's model, the views' buffers).
      pageBytes: await page.evaluate(() =>
        Math.max(0, ...window.__kernelModules.map(({ module }) => module.HEAP8.buffer.byteLength)),
      ),
      workers: (await page.evaluate(() => window.__trainerModules.read())).map(({ backend, maxBytes }) => ({
        backend,
        maxBytes,
      })),
      errors,
    };
  } finally {
    await context.close();
  }
}

const options = parseArgs(process.argv.slice(2));
const recorded = {
  url: options.url,
  device: DEVICE,
  loads: options.loads,
  rates: options.rates,
  quietMs: QUIET_MS,
  rows: [],
};
const browser = await launchBrowser();
try {
  const loadavg = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  Object.assign(recorded, { chromium: browser.version(), cores: os.cpus().length, loadAtStart: os.loadavg() });
  console.log(`normlab on a phone-class CPU: ${options.url}`);
  console.log(
    `Chromium ${browser.version()}; viewport ${VIEWPORT.width} × ${VIEWPORT.height}, deviceScaleFactor ` +
      `${DEVICE.deviceScaleFactor}, isMobile, hasTouch; CPU throttled (Emulation.setCPUThrottlingRate) ` +
      `${options.rates.map((r) => `${r}×`).join(', ')}; ${options.loads} fresh loads per rate (medians, min, max)`,
  );
  console.log(`${os.cpus().length} cores, load average ${loadavg()} at the start`);
  console.log(
    `Targets (printed, never asserted), at ${TARGET_RATE}× (Lighthouse's mobile preset): total blocking time ≤ 200 ms, ` +
      'no task over 100 ms, first computed paint ≤ 1.5 s, LCP ≤ 2.5 s.',
  );
  const targets = {
    'navigation -> computed views painted': 1500,
    'largest contentful paint': 2500,
    'total blocking time (navigation -> settled)': 200,
    'longest task (navigation -> settled)': 100,
  };
  let spin1 = null;
  for (const rate of options.rates) {
    const start = loadavg();
    const loads = [];
    let last = null;
    const errors = [];
    for (let i = 0; i < options.loads; i++) {
      const r = await measureLoad(browser, options.url, rate, i === options.loads - 1, options);
      loads.push(r.load);
      errors.push(...r.errors);
      if (r.slider) last = r;
    }
    const spinMs = quantile(
      loads.map((l) => l.spin),
      0.5,
    );
    if (rate === 1) spin1 = spinMs;
    console.log(
      `\n== CPU throttled ${rate}×${rate === TARGET_RATE ? " (Lighthouse's mobile preset: the targets' rate)" : ''}; ` +
        `load average ${start} at the start, ${loadavg()} at the end`,
    );
    console.log(
      `  backend ${[...new Set(loads.map((l) => l.backend))].join(', ')}; a 2e7-iteration JS loop in the page ` +
        `(after settling): ${spinMs.toFixed(0)} ms` +
        (spin1 && rate !== 1 ? ` (${(spinMs / spin1).toFixed(1)}× the 1× figure)` : ''),
    );
    console.log(
      `  ${'figure'.padEnd(56)} ${'median'.padStart(11)} ${'min'.padStart(11)} ${'max'.padStart(11)}    n  target`,
    );
    const row = (name, samples, note = '') => {
      const median = quantile(samples, 0.5);
      recorded.rows.push({ rate, name, median, samples });
      const target = targets[name];
      const verdict =
        target === undefined
          ? ''
          : `≤ ${target} ms${rate === TARGET_RATE ? (median <= target ? ': within' : ': over') : ` (at ${TARGET_RATE}×)`}`;
      console.log(
        `  ${name.padEnd(56)} ${fmt(median)} ${fmt(Math.min(...samples))} ${fmt(Math.max(...samples))} ` +
          `${String(samples.length).padStart(4)}  ${verdict}${note}`.trimEnd(),
      );
    };
    row(
      'navigation -> computed views painted',
      loads.map((l) => l.computed),
    );
    row(
      'largest contentful paint',
      loads.map((l) => l.lcp),
      `  (element: ${[...new Set(loads.map((l) => l.lcpElement))].join(', ')})`,
    );
    row(
      'total blocking time (navigation -> settled)',
      loads.map((l) => l.tbt),
    );
    row(
      'longest task (navigation -> settled)',
      loads.map((l) => l.longest),
      `  (long tasks per load: ${loads.map((l) => l.longTasks).join(', ')})`,
    );
    row(
      'navigation -> settled (gradient views done, then quiet)',
      loads.map((l) => l.settled),
    );
    row('softmax slider: input -> frame painted (last load)', last.slider);
    row(`trainer.step(1), ${last.layers} layers, lab default (last load)`, last.step);
    const stepMs = quantile(last.step, 0.5);
    const contrastMs = LAB_RUNS.length * LAB_STEPS * stepMs;
    recorded.rows.push({
      rate,
      name: `default contrast, training alone (derived: ${LAB_RUNS.length} runs × ${LAB_STEPS} steps × the step's median)`,
      median: contrastMs,
      samples: [],
    });
    recorded.rows.push({
      rate,
      name: 'JS loop in the page, 2e7 iterations',
      median: spinMs,
      samples: loads.map((l) => l.spin),
    });
    console.log(
      `  derived: the default contrast's training alone, ${LAB_RUNS.length} runs × ${LAB_STEPS} steps × ` +
        `${stepMs.toFixed(1)} ms = ${(contrastMs / 1000).toFixed(1)} s (no evaluation, sampling or repaints)`,
    );
    console.log(`  console and page errors: ${errors.length}${errors.length ? `: ${errors.join(' | ')}` : ''}`);
  }
  if (options.contrast) {
    const start = loadavg();
    const workers = await timeContrast(browser, options.url, 'workers');
    const allAtOnce = await timeContrast(browser, options.url, LAB_RUNS.length);
    const slices = await timeContrast(browser, options.url, 'slices');
    const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    console.log(
      `\n== The lab's default contrast at full length (${LAB_RUNS.length} runs × ${LAB_STEPS} steps, evaluation, ` +
        `samples, repaints), 1×, ${VIEWPORT.width} × ${VIEWPORT.height}; load average ${start} at the start, ` +
        `${loadavg()} at the end`,
    );
    for (const r of [workers, allAtOnce, slices]) {
      const instances = r.workers.filter((w) => w.maxBytes > 0);
      const memory = instances.length
        ? `; ${instances.length} trainer instances at most ${instances.map((w) => mib(w.maxBytes)).join(', ')} ` +
          `(${mib(instances.reduce((sum, w) => sum + w.maxBytes, 0))} together), the page's kernels ${mib(r.pageBytes)}`
        : '';
      console.log(
        `  ${(r.engine === 'workers' ? `Web Workers, ${r.atOnce} at once (${r.cores} cores)` : 'main thread, idle slices').padEnd(34)} ` +
          `${(r.wallMs / 1000).toFixed(1).padStart(6)} s; main-thread tasks over 50 ms: ${r.long.length}` +
          `${r.long.length ? ` (longest ${Math.max(...r.long).toFixed(0)} ms)` : ''}${memory}` +
          `${r.errors.length ? `; errors: ${r.errors.join(' | ')}` : ''}`,
      );
    }
    const ratio = workers.wallMs / slices.wallMs;
    console.log(
      `  workers / main thread: ${ratio.toFixed(2)} as the lab runs them, ` +
        `${(allAtOnce.wallMs / slices.wallMs).toFixed(2)} all at once (target ≤ 0.6 on this machine)`,
    );
    recorded.contrast = { workers, allAtOnce, slices, ratio, loadAtStart: start };
  }
  recorded.loadAtEnd = os.loadavg();
  console.log(`\nload average ${loadavg()} at the end`);
  if (options.json) writeFileSync(options.json, JSON.stringify(recorded, null, 1) + '\n');
} finally {
  await browser.close();
}
