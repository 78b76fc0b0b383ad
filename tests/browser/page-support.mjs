// Shared set-up for the page-*.test.mjs browser tests: Debian's Chromium via
// playwright-core, web/serve.mjs on a free port, and a page opener that
// collects every console error, page error, failed request and CSP violation.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { after, before } from 'node:test';

import { chromium } from 'playwright-core';

const root = new URL('../../', import.meta.url);
export const distDir = fileURLToPath(new URL('dist/', root));
export const screenshotDir = fileURLToPath(new URL('build/screenshots/', root));
export const fileUrl = new URL('index.html', `file://${distDir}`).href;

// The policy the page must run under when embedded.
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

// The fonts Chromium may use: only those build.sh installs (its font_config
// writes this file), so that a layout test gives the same answer on every
// machine. Time zone and UI language are pinned likewise.
export const fontConfigFile = fileURLToPath(new URL('build/fontconfig/fonts.conf', root));
export const browserEnv = { ...process.env, FONTCONFIG_FILE: fontConfigFile, TZ: 'UTC', LANG: 'C.UTF-8' };

export async function launchBrowser() {
  if (!existsSync(fontConfigFile)) {
    throw new Error(
      `${fontConfigFile} is missing: run ./build.sh deps, which installs the fonts the browser tests use and writes it`,
    );
  }
  mkdirSync(screenshotDir, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--lang=en-US',
    ],
    env: browserEnv,
  });
}

// Serves dist/ with web/serve.mjs on a free port; resolves to its base URL.
export async function startServer() {
  const server = spawn(process.execPath, [fileURLToPath(new URL('web/serve.mjs', root)), distDir, '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await Promise.race([
    once(server.stdout, 'data'),
    once(server, 'exit').then(([code]) => {
      throw new Error(`web/serve.mjs exited with ${code}`);
    }),
  ]);
  const url = String(line).match(/http:\/\/127\.0\.0\.1:\d+\//)?.[0];
  assert.ok(url, `no URL in the server's output: ${line}`);
  return { url, stop: () => server.kill() };
}

// Collects what a test must not see on page: console errors and CSP
// reports, page errors and failed requests (returned, filled as they come),
// and every CSP violation in window.cspViolations.
export async function watchProblems(page) {
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /content security policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // The browser's own fetch of the page's icon is cancelled (net::ERR_ABORTED)
  // when a test reloads or closes the page before it arrives: not the page's
  // doing. Any other failed request is.
  page.on('requestfailed', (r) => {
    const error = r.failure()?.errorText;
    if (error === 'net::ERR_ABORTED' && new URL(r.url()).pathname.endsWith('/favicon.svg')) return;
    // A lab worker terminated (its contrast reset) while it loaded the
    // trainer's script: the load is cancelled with it.
    if (error === 'net::ERR_ABORTED' && /\/normlab_train_(simd|scalar)\.js$/.test(new URL(r.url()).pathname)) return;
    problems.push(`request failed: ${r.url()} ${error}`);
  });
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.cspViolations.push(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  return problems;
}

// Sends the CSP header with every response the page gets. The fetch is
// tried again when the local server reset its connection: Node's server
// closes a keep-alive socket after 5 s idle, and a fetch that reuses it at
// that moment gets "socket hang up" (seen once in a 10,000-move soak on a
// loaded machine), which is not the page's doing.
export async function sendCspHeader(page, policy = CSP) {
  await page.route('**/*', async (route) => {
    let response;
    for (let attempt = 1; ; attempt++) {
      try {
        response = await route.fetch();
        break;
      } catch (error) {
        if (attempt >= 3 || !/ECONNRESET|socket hang up/.test(error.message)) throw error;
      }
    }
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': policy } });
  });
}

// Opens url in a fresh context and waits until every panel is built (the
// page builds them over several tasks and then sets data-built on <html>),
// the kernels have loaded (the backend badge leaves its loading state) and
// the first frame is painted.
// options: viewport, colorScheme, locale, reducedMotion, csp (send the CSP
// header on every response; a string sends that policy instead), bypassCSP (for injecting test tooling),
// blockKernels, initScript (run in the page before its own scripts).
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
    locale: options.locale ?? 'en-US',
    reducedMotion: options.reducedMotion ?? 'no-preference',
    bypassCSP: options.bypassCSP ?? false,
  });
  const page = await context.newPage();
  const problems = await watchProblems(page);
  if (options.initScript) await page.addInitScript(options.initScript);
  if (options.csp) await sendCspHeader(page, options.csp === true ? CSP : options.csp);
  // Simulates a browser where the wasm backend cannot be fetched. Registered
  // last so it runs first (Playwright tries routes newest first).
  if (options.blockKernels) await page.route(/normlab_(simd|scalar)\.js$/, (route) => route.abort());
  await page.goto(url);
  // (A page without the chapter, such as embed-demo.html, builds nothing.)
  await page.waitForFunction(
    () =>
      (document.documentElement.dataset.built !== undefined || !document.querySelector('main .chapter')) &&
      document.getElementById('backend')?.dataset.backend !== 'loading',
  );
  await settle(page);
  // A request still in flight at close (the CSP route's fetch) is let go,
  // as openHost does: nobody is left to answer it.
  const close = async () => {
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  };
  return { page, problems, close };
}

// Waits for the render that the last input scheduled (one animation frame)
// and for the frame after it to be painted. A language switch paints once
// that language's text has loaded (a script of its own: src/i18n/load.js),
// so first the page's language is the one its switch shows.
export async function settle(page) {
  await page.waitForFunction(() => {
    const select = document.getElementById('lang-select');
    return !select?.value || select.value === document.documentElement.lang;
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

// Waits until every section of the page has rendered once and has its own
// size (app.js measureSections, after the kernels' first paint): before
// that, a section above a view may still grow and push the view away from
// where a test scrolled it.
export async function measured(page) {
  await page.waitForFunction(() => document.documentElement.dataset.measured !== undefined);
}

// The training lab loads when its section nears the screen. Sections above
// it that skipped rendering take their real height once scrolled past, which
// can push the lab away again: scroll to it, as a reader would, until its
// start button is there (or fail after timeoutMs with what was missing).
// A lab chart's drawn series (the nth of that run's, for a chart of several
// panels), as the numbers its data-values carry.
export const labSeriesValues = (page, chart, id, nth = 0) =>
  page
    .locator(`[data-chart="lab-${chart}"] .chart-box g.series-lab-${id}`)
    .nth(nth)
    .getAttribute('data-values')
    .then((text) => (text === '' ? [] : text.split(',').map(Number)));

// A lab chart's data table, opened, as rows of cell texts.
export async function labTableRows(page, chart) {
  const details = page.locator(`[data-chart="lab-${chart}"] details`);
  if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
  await settle(page);
  return details.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.cells].map((c) => c.textContent)));
}

// Presses a cell of the lab's map (the chapter's sweep's, or with
// variant the variants' sweep's) and waits for the sentence that reports
// its run; returns that sentence's locator.
export async function pressMapCell(page, key, { variant = false, timeout }) {
  const result = variant ? '.lab-variant-result' : '.lab-map-result';
  await page.locator(`${LAB} [data-${variant ? 'variant-cell' : 'cell'}="${key}"]`).click();
  await page.waitForFunction((sel) => document.querySelector(sel).textContent !== '', `${LAB} ${result}`, {
    timeout,
  });
  return page.locator(`${LAB} ${result}`);
}

// A float32's bits, to compare a printed value with the trainer's own.
export const float32Bits = (v) => new Uint32Array(Float32Array.of(v).buffer)[0];

export const LAB = '[data-widget="training-lab"]';
export async function bringLabIn(page, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.locator('#lab').scrollIntoViewIfNeeded();
    try {
      await page.waitForSelector(`${LAB} .lab-start`, { timeout: 2000 });
      return;
    } catch (error) {
      if (error.name !== 'TimeoutError') throw error;
      if (Date.now() > deadline)
        throw new Error(`the training lab did not load within ${timeoutMs} ms of scrolling to #lab`);
    }
  }
}

// Opens a page that embeds the <normlab-*> elements (or a ?widget= frame) in
// a fresh context. options: csp (send the CSP header, default true; only
// over HTTP), extra (maps a path under the server to { body, type } served
// instead: host pages made up by a test), blockKernels, reducedMotion,
// initScript, viewport. Collects console errors, page errors, failed
// requests, dialogs and CSP violations; scripts lists the backend scripts
// the main frame loaded.
export async function openHost(browser, url, options = {}) {
  const { csp = true, extra = {} } = options;
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1100, height: 900 },
    locale: 'en-US',
    colorScheme: 'light',
    reducedMotion: options.reducedMotion ?? 'no-preference',
  });
  const page = await context.newPage();
  const problems = await watchProblems(page);
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    d.dismiss();
  });
  if (options.initScript) await page.addInitScript(options.initScript);
  const scripts = [];
  page.on('request', (r) => {
    if (r.frame() === page.mainFrame() && /normlab_(simd|scalar)\.js$/.test(r.url())) scripts.push(r.url());
  });
  let closing = false;
  if (url.startsWith('http')) {
    await page.route('**/*', async (route) => {
      const path = new URL(route.request().url()).pathname.slice(1);
      const headers = csp ? { 'content-security-policy': CSP } : {};
      if (extra[path]) {
        await route.fulfill({ status: 200, contentType: extra[path].type, body: extra[path].body, headers });
        return;
      }
      try {
        const response = await route.fetch();
        await route.fulfill({ response, headers: { ...response.headers(), ...headers } });
      } catch (error) {
        // A request still in flight when the test closes the page (the
        // favicon, after a last URL change) has nobody left to answer.
        if (!closing) throw error;
      }
    });
  }
  // Registered last so it runs first (Playwright tries routes newest first);
  // from file:// too.
  if (options.blockKernels) await page.route(/normlab_(simd|scalar)\.js$/, (route) => route.abort());
  await page.goto(url);
  const close = async () => {
    closing = true;
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  };
  return { page, problems, scripts, close };
}

// Every <normlab-*> element on the page (or in the frame) has painted:
// 'computed' numbers, or 'text' only when the kernels could not load.
export async function waitPainted(target, painted = 'computed') {
  await target.waitForFunction((want) => {
    const all = [...document.querySelectorAll('*')].filter((n) => n.localName.startsWith('normlab-'));
    return all.length > 0 && all.every((n) => n.dataset.painted === want);
  }, painted);
  await target.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

export async function cspViolations(page) {
  return page.evaluate(() => window.cspViolations);
}

// The visible digits of a typeset formula: the <mn> and <mo> of its MathML,
// without the TeX source KaTeX keeps in an <annotation>.
// The worked example brought near the screen, where its formulas (made from
// the kernel's numbers with KaTeX, which the page loads then: src/math.js)
// are typeset: resolves once its four steps show their MathML.
export async function showWorkedExample(page) {
  const widget = page.locator('[data-widget="worked-example"]');
  await widget.scrollIntoViewIfNeeded();
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-widget="worked-example"] .step-math')].every((s) => s.querySelector('math')),
  );
  return widget;
}

export async function mathText(locator) {
  return locator.evaluate((node) => [...node.querySelectorAll('mn, mo, mi')].map((n) => n.textContent).join(''));
}

// One Chromium and one local server for the calling test file, started
// before its tests and closed after them: read shared.browser and
// shared.server inside the tests.
export function shareBrowserAndServer() {
  const shared = { browser: null, server: null };
  before(async () => {
    shared.browser = await launchBrowser();
    shared.server = await startServer();
  });
  after(async () => {
    await shared.browser?.close();
    shared.server?.stop();
  });
  return shared;
}

// axe-core (injected from node_modules) audits the page, or only `context`
// (a selector) where one is given: its serious and critical violations, one
// line each, naming up to three of the nodes.
let axeSource;
export async function seriousViolations(page, context = null) {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const results = await page.evaluate((c) => window.axe.run(c ?? document, { resultTypes: ['violations'] }), context);
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

// Where a chart's text collides: within each chart's <svg> under `scope`
// (a selector), every pair of visible text boxes that overlap (tick labels,
// axis titles, rule, series, band, guess and bar labels alike), and every
// label that a series' line passes through (the path sampled every 2 px;
// tick labels and a series' own end label aside) or a point's symbol covers
// (a guess's marker, a mark, a series' dot). Boxes are the browser's
// rendered ones, shrunk by `slack` px on each side so that touching glyph
// boxes do not count. One line per collision.
export async function chartCollisions(page, scope, slack = 1) {
  return page.evaluate(
    ([sel, pad]) => {
      const out = [];
      const boxOf = (el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left + pad, right: r.right - pad, top: r.top + pad, bottom: r.bottom - pad };
      };
      const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const name = (t) => {
        const g = t.closest('g[class]');
        const kind = t.closest('.tick') ? 'tick' : (t.getAttribute('class') ?? g?.getAttribute('class') ?? 'text');
        return `"${t.textContent}" (${kind.split(' ')[0]})`;
      };
      for (const root of document.querySelectorAll(sel)) {
        for (const svg of root.querySelectorAll('svg')) {
          const chart =
            svg.closest('[data-chart]')?.dataset.chart ?? svg.closest('[data-widget]')?.dataset.widget ?? '?';
          const texts = [...svg.querySelectorAll('text')].filter(
            (t) => t.textContent.trim() && t.getClientRects().length,
          );
          const boxes = texts.map((t) => ({ t, box: boxOf(t) })).filter(({ box }) => box.right > box.left);
          for (let i = 0; i < boxes.length; i++) {
            for (let j = i + 1; j < boxes.length; j++) {
              if (overlap(boxes[i].box, boxes[j].box))
                out.push(`${chart}: ${name(boxes[i].t)} overlaps ${name(boxes[j].t)}`);
            }
          }
          const labels = boxes.filter(({ t }) => !t.closest('.tick'));
          for (const path of svg.querySelectorAll('g.series path')) {
            const length = path.getTotalLength ? path.getTotalLength() : 0;
            if (!length) continue;
            const matrix = path.getScreenCTM();
            const points = [];
            for (let s = 0; s <= length; s += 2) points.push(path.getPointAtLength(s).matrixTransform(matrix));
            const owner = path.closest('g.series');
            for (const { t, box } of labels) {
              if (t.closest('g.series') === owner) continue;
              if (points.some((p) => p.x > box.left && p.x < box.right && p.y > box.top && p.y < box.bottom))
                out.push(`${chart}: a line of ${owner.getAttribute('class')} runs through ${name(t)}`);
            }
          }
          // The symbols a chart draws at its points: the reader's guesses,
          // the marks, the dots on a series.
          for (const dot of svg.querySelectorAll('.guess-dot, path.mark, .series-dot')) {
            const r = dot.getBoundingClientRect();
            if (!r.width) continue;
            const owner = dot.closest('g.series');
            for (const { t, box } of labels) {
              if (owner && t.closest('g.series') === owner) continue;
              if (overlap(box, r)) out.push(`${chart}: a ${dot.getAttribute('class')} symbol covers ${name(t)}`);
            }
          }
        }
      }
      return [...new Set(out)];
    },
    [scope, slack],
  );
}

// Scrolls every visible chart into view in turn, so that each section that
// paints on approach has painted.
export async function drawEveryChart(page) {
  await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    for (const box of document.querySelectorAll('.chart-box')) {
      if (box.getClientRects().length === 0) continue;
      box.scrollIntoView({ block: 'center' });
      await frame();
    }
  });
}

// Resolves when every gradient view has finished its passes: the page's, or
// those in custom elements' shadow roots (at least one). The passes wait for
// their view to come near the screen (data-deferred): a view still waiting is
// scrolled to, as a reader would, and the scroll position is put back after.
export async function gradientsDone(page) {
  await page.evaluate(async () => {
    const roots = () => [
      document,
      ...[...document.querySelectorAll('*')].filter((n) => n.shadowRoot).map((n) => n.shadowRoot),
    ];
    const views = () => roots().flatMap((r) => [...r.querySelectorAll('[data-widget="gradient-flow"]')]);
    const { scrollX: x, scrollY: y } = window;
    let moved = false;
    for (;;) {
      const all = views();
      if (all.length > 0 && all.every((v) => v.dataset.busy === 'false')) break;
      const waiting = all.find((v) => v.dataset.deferred === 'true');
      if (waiting) {
        waiting.scrollIntoView({ block: 'center' });
        moved = true;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (moved) window.scrollTo(x, y);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}
