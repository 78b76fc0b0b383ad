// The training lab's cost to the rest of the page, measured in headless
// Chromium with the Performance API: the softmax and playground sliders
// moved on an idle page and again while the lab trains its default
// contrast, as page-perf.mjs times them (work: the input's handlers plus the
// frame that shows it; latency: input to that frame done); the lab's own
// slices (trainer.advance and its bookkeeping) and repaints; the long tasks
// (over 50 ms) while it trains. Prints the figures and asserts nothing (the
// machine's load decides too much).
//
//   node tests/bench/lab-perf.mjs [--runs 40] [--url URL]
//
// The lab records these User Timing measures when window.NORMLAB_TIMING is
// set, which this script does before the page's scripts run:
//   normlab:lab-slice   one slice of training or evaluation
//   normlab:lab-paint   one repaint of the lab
import os from 'node:os';

import { launchBrowser } from '../browser/page-support.mjs';
import { SLIDERS, parseArgs, quantile, readySlider, timedInput } from './page-bench-args.mjs';

const fmt = (ms) => `${ms.toFixed(1)} ms`.padStart(9);
const stats = (values) =>
  `median ${fmt(quantile(values, 0.5))}  p95 ${fmt(quantile(values, 0.95))}  max ${fmt(Math.max(...values))}  (${values.length})`;

async function moves(page, selector, values, runs) {
  const work = [];
  const latency = [];
  for (let i = 0; i < runs; i++) {
    const r = await timedInput(page, selector, values[i % values.length]);
    work.push(r.work);
    latency.push(r.latency);
    await page.waitForTimeout(30);
  }
  return { work, latency };
}

const phase = (page) => page.locator('[data-widget="training-lab"]').getAttribute('data-phase');

const options = parseArgs(process.argv.slice(2));
const browser = await launchBrowser();
try {
  console.log(`normlab training lab against the page's sliders: ${options.url}`);
  console.log(`Chromium ${browser.version()}, ${options.runs} moves per slider and state`);
  console.log(
    `${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the start`,
  );
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.NORMLAB_TIMING = true;
    window.labLongTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.labLongTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${options.url}?layer=0`);
  await page.waitForFunction(() => document.getElementById('backend')?.dataset.backend !== 'loading');
  // The lab loads as its section nears the screen; sections above it may
  // grow once rendered and push it away again, so scroll until it is there.
  for (;;) {
    await page.locator('#lab').scrollIntoViewIfNeeded();
    try {
      await page.waitForSelector('[data-widget="training-lab"] .lab-start', { timeout: 2000 });
      break;
    } catch (error) {
      if (error.name !== 'TimeoutError') throw error;
    }
  }
  await page.locator('[data-widget="training-lab"] .lab-predict button').nth(1).click();

  const idle = {};
  for (const s of SLIDERS) {
    await page.locator(s.selector).scrollIntoViewIfNeeded();
    await readySlider(page, s);
    idle[s.name] = await moves(page, s.selector, s.values, options.runs);
  }
  const t0 = await page.evaluate(() => performance.now());
  await page.locator('[data-widget="training-lab"] .lab-start').click();
  await page.waitForFunction(() =>
    /^[1-9]/.test(document.querySelector('[data-widget="training-lab"] [data-readout="step"]').textContent),
  );
  const training = {};
  for (const s of SLIDERS) {
    await page.locator(s.selector).scrollIntoViewIfNeeded();
    training[s.name] = await moves(page, s.selector, s.values, options.runs);
  }
  const still = await phase(page);
  // Then the lab on screen for a while, as a reader watching it.
  await page.locator('#lab').scrollIntoViewIfNeeded();
  await page.waitForTimeout(10000);
  const t1 = await page.evaluate(() => performance.now());
  const lab = await page.evaluate(
    ([t0, t1]) => {
      const of = (name) =>
        performance
          .getEntriesByName(name)
          .filter((m) => m.startTime >= t0)
          .map((m) => m.duration);
      const long = window.labLongTasks.filter(([s]) => s >= t0 && s <= t1).map(([, d]) => d);
      const step = document.querySelector('[data-widget="training-lab"] [data-readout="step"]').textContent;
      const rate = document.querySelector('[data-widget="training-lab"] [data-readout="rate"]').textContent;
      return {
        slices: of('normlab:lab-slice'),
        paints: of('normlab:lab-paint'),
        long,
        seconds: (t1 - t0) / 1000,
        step,
        rate,
      };
    },
    [t0, t1],
  );
  for (const s of SLIDERS) {
    console.log(`${s.name}:`);
    console.log(`  idle page,       work      ${stats(idle[s.name].work)}`);
    console.log(`  while training,  work      ${stats(training[s.name].work)}`);
    console.log(`  idle page,       latency   ${stats(idle[s.name].latency)}`);
    console.log(`  while training,  latency   ${stats(training[s.name].latency)}`);
  }
  console.log(
    `the lab was ${still} after the moves; over ${lab.seconds.toFixed(1)} s of training (step ${lab.step}, ${lab.rate} steps/s):`,
  );
  console.log(`  lab slices   ${stats(lab.slices)}`);
  console.log(`  lab repaints ${stats(lab.paints)}`);
  console.log(`  long tasks (> 50 ms): ${lab.long.length}${lab.long.length ? `, ${stats(lab.long)}` : ''}`);
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at the end`,
  );
  await context.close();
} finally {
  await browser.close();
}
