// The training lab's cost to the rest of the page, measured in headless
// Chromium with the Performance API: the softmax and playground sliders
// moved on an idle page and again while the lab trains its default
// contrast, as page-perf.mjs times them (work: the input's handlers plus the
// frame that shows it; latency: input to that frame done); the lab's own
// slices (trainer.advance and its bookkeeping) and repaints; the long tasks
// (over 50 ms) while it trains. Then the rest of the default contrast, its
// three runs to their end (400 steps each) with the transitions between
// them (a trainer made, the held-out loss, the sample, the final repaints):
// the long tasks over the whole contrast, with the page's measures inside
// each; each trainer instance's wasm memory while it trained; the trainer
// instances still alive after the contrast ended and after a reset, each
// read after a forced GC (tests/browser/trainer-tracker.mjs, the soak's
// tracker). Prints the figures and asserts nothing (the machine's load
// decides too much).
//
//   node tests/bench/lab-perf.mjs [--runs 40] [--url URL]
//
// Over http (node web/serve.mjs dist PORT, then --url
// http://127.0.0.1:PORT/index.html) every response gets the strict CSP the
// browser tests use (page-support.mjs, sendCspHeader): the page's own server
// sends none, a host would.
//
// The lab records these User Timing measures when window.NORMLAB_TIMING is
// set, which this script does before the page's scripts run:
//   normlab:lab-slice   one slice of training, evaluation or sampling
//   normlab:lab-create  a new run's trainer taken in (its first probe)
//   normlab:lab-paint   one repaint of the lab
import os from 'node:os';

import { bringLabIn, launchBrowser, sendCspHeader } from '../browser/page-support.mjs';
import { liveTrainerModules, trackTrainerModules } from '../browser/trainer-tracker.mjs';
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

const LAB = '[data-widget="training-lab"]';
const phase = (page) => page.locator(LAB).getAttribute('data-phase');
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
// A whole contrast at 400 steps a run takes minutes on a loaded machine.
const CONTRAST_TIMEOUT_MS = 20 * 60 * 1000;

// What the page measured between t0 and t1 (performance.now() times): the
// lab's slices and repaints, the long tasks, and inside each long task the
// page's User Timing measures that overlap it, by name, with their time in it.
function labFigures(page, t0, t1) {
  return page.evaluate(
    ([t0, t1]) => {
      const of = (name) =>
        performance
          .getEntriesByName(name)
          .filter((m) => m.startTime >= t0 && m.startTime <= t1)
          .map((m) => m.duration);
      const tasks = window.labLongTasks.filter(([s]) => s >= t0 && s <= t1);
      const measures = performance.getEntriesByType('measure');
      const inside = tasks.map(([start, duration]) => {
        const parts = {};
        for (const m of measures) {
          const overlap = Math.min(start + duration, m.startTime + m.duration) - Math.max(start, m.startTime);
          // A slice says what it did (training, evaluating, sampling).
          const name = m.detail?.what ? `${m.name} (${m.detail.what})` : m.name;
          if (overlap > 0) parts[name] = (parts[name] ?? 0) + overlap;
        }
        return { start, duration, parts };
      });
      const readout = (name) =>
        document.querySelector(`[data-widget="training-lab"] [data-readout="${name}"]`).textContent;
      return {
        slices: of('normlab:lab-slice'),
        creates: of('normlab:lab-create'),
        paints: of('normlab:lab-paint'),
        long: tasks.map(([, d]) => d),
        inside,
        seconds: (t1 - t0) / 1000,
        step: readout('step'),
        rate: readout('rate'),
      };
    },
    [t0, t1],
  );
}

// The main thread's tasks over 50 ms in a Chromium trace (categories
// toplevel and blink.user_timing), each with its wall time and the CPU time
// the thread had in it: on a shared machine a task can take long because the
// thread waited for a core, not because it had that much to do. The page's
// thread is the one that recorded `mark`; its time in the trace (µs) and in
// the page (performance.now(), ms) align the two clocks.
function traceLongTasks(trace, mark, markPageMs) {
  const events = JSON.parse(trace).traceEvents;
  const marked = events.find((e) => e.name === mark);
  if (!marked) return null;
  return events
    .filter(
      (e) =>
        e.ph === 'X' &&
        e.pid === marked.pid &&
        e.tid === marked.tid &&
        e.name === 'ThreadControllerImpl::RunTask' &&
        e.dur > 50_000,
    )
    .map((e) => ({
      pageMs: markPageMs + (e.ts - marked.ts) / 1000,
      wallMs: e.dur / 1000,
      cpuMs: (e.tdur ?? NaN) / 1000,
    }));
}

function printLongTasks(lab, t0, traced = null) {
  console.log(`  long tasks (> 50 ms): ${lab.long.length}${lab.long.length ? `, ${stats(lab.long)}` : ''}`);
  for (const { start, duration, parts } of lab.inside) {
    const named = Object.entries(parts)
      .sort((a, b) => b[1] - a[1])
      .map(([name, ms]) => `${name.replace(/^normlab:/, '')} ${ms.toFixed(1)} ms`);
    // The same task in the trace: it starts within a few ms of the entry.
    const task = traced?.find((t) => Math.abs(t.pageMs - start) < 5);
    const cpu = task ? ` (the thread's CPU time in it ${task.cpuMs.toFixed(0)} ms)` : '';
    console.log(
      `    ${duration.toFixed(0)} ms${cpu} at ${((start - t0) / 1000).toFixed(1)} s: ${named.join(', ') || 'nothing the page measured'}`,
    );
  }
}

const instancesLine = ({ live, liveBytes, instances }) =>
  `${live.length} alive of ${instances.length} made${live.length ? ` (${mib(liveBytes)}: ids ${live.map((m) => m.id).join(', ')})` : ''}`;

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
  const http = /^https?:/.test(options.url);
  if (http) await sendCspHeader(page);
  console.log(http ? 'every response with the strict CSP (sendCspHeader)' : 'from disk: no CSP header');
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.addInitScript(trackTrainerModules);
  await page.addInitScript(() => {
    window.NORMLAB_TIMING = true;
    window.labLongTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.labLongTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${options.url}?layer=0`);
  const cdp = await context.newCDPSession(page);
  await page.waitForFunction(() => document.getElementById('backend')?.dataset.backend !== 'loading');
  await bringLabIn(page);
  await page.locator('[data-widget="training-lab"] .lab-predict button').nth(1).click();

  const idle = {};
  for (const s of SLIDERS) {
    await page.locator(s.selector).scrollIntoViewIfNeeded();
    await readySlider(page, s);
    idle[s.name] = await moves(page, s.selector, s.values, options.runs);
  }
  // The whole contrast is traced (the main thread's tasks, the page's
  // measures), from a mark at its start.
  await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  const t0 = await page.evaluate(() => performance.mark('lab-perf:t0').startTime);
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
  const lab = await labFigures(page, t0, t1);
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
  printLongTasks(lab, t0);

  // The rest of the contrast, to its end, the lab on screen.
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.phase === 'done', LAB, {
    timeout: CONTRAST_TIMEOUT_MS,
    polling: 500,
  });
  const ended = await page.evaluate(() => performance.now());
  // The final repaints (the reading, the samples, the layer-norm chart).
  await page.waitForTimeout(2000);
  const t2 = await page.evaluate(() => performance.now());
  const traced = traceLongTasks(String(await browser.stopTracing()), 'lab-perf:t0', t0);
  const whole = await labFigures(page, t0, t2);
  const afterEnd = await liveTrainerModules(page, cdp);
  await page.click(`${LAB} .lab-reset`);
  await page.waitForFunction((sel) => document.querySelector(sel).dataset.phase === 'idle', LAB);
  const afterReset = await liveTrainerModules(page, cdp);
  console.log(
    `the whole contrast (${afterEnd.instances.length} runs, ${whole.step} steps each): ${((ended - t0) / 1000).toFixed(1)} s ` +
      `from start to its end, then ${((t2 - ended) / 1000).toFixed(1)} s for the final repaints:`,
  );
  console.log(`  lab slices   ${stats(whole.slices)}`);
  console.log(`  trainers taken in ${whole.creates.length ? stats(whole.creates) : '(none measured)'}`);
  console.log(`  lab repaints ${stats(whole.paints)}`);
  printLongTasks(whole, t0, traced);
  if (traced) {
    const cpuLong = traced.filter((t) => t.cpuMs > 50);
    console.log(
      `  main-thread tasks over 50 ms in the trace: ${traced.length}; of them with over 50 ms of the thread's CPU time: ` +
        `${cpuLong.length}${cpuLong.length ? ` (${cpuLong.map((t) => `${t.cpuMs.toFixed(0)} ms at ${((t.pageMs - t0) / 1000).toFixed(1)} s`).join(', ')})` : ''}`,
    );
  } else console.log('  (the trace has no mark lab-perf:t0: no CPU times)');
  console.log("  each run's trainer instance, its wasm memory when made and at most while it trained:");
  for (const m of afterEnd.instances) {
    console.log(
      `    #${m.id} (${m.backend}, made at ${((m.createdMs - t0) / 1000).toFixed(1)} s): ${mib(m.createdBytes)}, ${mib(m.maxBytes)}`,
    );
  }
  console.log(`  trainer instances after the contrast ended (forced GC): ${instancesLine(afterEnd)}`);
  console.log(`  trainer instances after reset (forced GC): ${instancesLine(afterReset)}`);
  console.log(`  console and page errors: ${errors.length}${errors.length ? `: ${errors.join(' | ')}` : ''}`);
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
