// The npm package as a course author gets it: `npm pack` of this repository
// (after the build that fills dist/), installed from the tarball into an
// empty project with npm's --offline (the package has no dependencies to
// fetch). Then (1) `import { loadNormlab } from 'normlab'` under Node
// computes the worked example and trains (the trainer's module loaded from
// the package) as this build does, and (2) a page that does
// `import 'normlab/embed'` and uses <normlab-softmax>, bundled by this
// repository's esbuild, renders computed figures in Chromium under the
// strict CSP.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import * as esbuild from 'esbuild';

import { cspViolations, launchBrowser, openHost, waitPainted } from './page-support.mjs';
import { serve } from './scorm-support.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const npm = (args, cwd) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

const shared = { dir: null, tarball: null, project: null, browser: null };
before(() => {
  shared.dir = mkdtempSync(join(tmpdir(), 'normlab-npm-'));
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', shared.dir], root));
  shared.files = packed[0].files.map((f) => f.path).sort();
  shared.tarball = join(shared.dir, packed[0].filename);
  shared.project = join(shared.dir, 'course');
  mkdirSync(shared.project);
  writeFileSync(
    join(shared.project, 'package.json'),
    `${JSON.stringify({ name: 'course', private: true, type: 'module' }, null, 2)}\n`,
  );
  npm(['install', '--offline', '--no-audit', '--no-fund', shared.tarball], shared.project);
});
after(async () => {
  await shared.browser?.close();
  if (shared.dir) rmSync(shared.dir, { recursive: true, force: true });
});

test('the tarball holds the API with its types, the elements, the stylesheet, the licence, notices and both READMEs, nothing else', () => {
  assert.equal(shared.tarball, join(shared.dir, `normlab-${version}.tgz`));
  assert.deepEqual(shared.files, [
    'LICENSE',
    'README.md',
    'README.zh-CN.md',
    'dist/THIRD_PARTY_NOTICES.txt',
    'dist/normlab-embed.css',
    'dist/normlab-embed.mjs',
    'dist/normlab.d.ts',
    'dist/normlab.mjs',
    'dist/normlab_scalar.mjs',
    'dist/normlab_simd.mjs',
    'dist/normlab_train_scalar.mjs',
    'dist/normlab_train_simd.mjs',
    'package.json',
  ]);
  const installed = JSON.parse(readFileSync(join(shared.project, 'node_modules/normlab/package.json'), 'utf8'));
  assert.equal(installed.version, version);
  assert.equal(installed.private, undefined);
  assert.equal(installed.dependencies, undefined);
  assert.equal(installed.types, './dist/normlab.d.ts');
  assert.match(
    readFileSync(join(shared.project, 'node_modules/normlab/dist/normlab.d.ts'), 'utf8'),
    /export function loadNormlab\(options\?: LoadOptions\): Promise<Normlab>;/,
  );
});

test('under Node, the installed package computes the worked example', () => {
  writeFileSync(
    join(shared.project, 'worked.mjs'),
    [
      "import { loadNormlab } from 'normlab';",
      'const nl = await loadNormlab();',
      'const x = [2, -1, 3, 0];',
      'console.log(JSON.stringify({ backend: nl.backend, rms: nl.rmsnormSteps(x).rms, y: Array.from(nl.rmsnorm(x)) }));',
      '',
    ].join('\n'),
  );
  const out = JSON.parse(execFileSync(process.execPath, ['worked.mjs'], { cwd: shared.project, encoding: 'utf8' }));
  assert.ok(['simd128', 'scalar'].includes(out.backend), out.backend);
  // RMS = sqrt((4 + 1 + 9 + 0) / 4) = sqrt(3.5); y = x / RMS (eps 1e-6 inside).
  const rms = Math.sqrt(3.5 + 1e-6);
  assert.ok(Math.abs(out.rms - Math.sqrt(3.5)) < 1e-5, `rms ${out.rms}`);
  assert.equal(out.rms.toFixed(4), '1.8708');
  const expected = [2, -1, 3, 0].map((v) => v / rms);
  out.y.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) < 1e-6, `y[${i}] = ${v}, expected ${expected[i]}`));
  assert.deepEqual(
    out.y.map((v) => v.toFixed(2)),
    ['1.07', '-0.53', '1.60', '0.00'],
  );
});

test("under Node, the installed package loads the trainer's module and trains as this build does", async () => {
  const options = { layers: 2, hidden: 16, heads: 2, seq: 16, batch: 2, steps: 3 };
  writeFileSync(
    join(shared.project, 'train.mjs'),
    [
      "import { loadNormlab } from 'normlab';",
      "const nl = await loadNormlab({ backend: 'simd128' });",
      `const trainer = await nl.createTrainer(${JSON.stringify(options)});`,
      'const run = trainer.step(3);',
      'console.log(JSON.stringify({ loss: [...new Uint32Array(run.loss.buffer, run.loss.byteOffset, 3)], stepsDone: run.stepsDone }));',
      '',
    ].join('\n'),
  );
  const out = JSON.parse(execFileSync(process.execPath, ['train.mjs'], { cwd: shared.project, encoding: 'utf8' }));
  // The same trainer from this repository's dist/: the same bits.
  const { loadNormlab } = await import(new URL('../../dist/normlab.mjs', import.meta.url));
  const nl = await loadNormlab({ backend: 'simd128' });
  try {
    const trainer = await nl.createTrainer(options);
    const run = trainer.step(3);
    assert.equal(out.stepsDone, 3);
    assert.deepEqual(out.loss, [...new Uint32Array(run.loss.buffer, run.loss.byteOffset, 3)]);
    // A byte-level model's first loss is near ln(256) = 5.55.
    assert.ok(Math.abs(run.loss[0] - Math.log(256)) < 0.5, `first loss ${run.loss[0]}`);
  } finally {
    nl.dispose();
  }
});

test("a course page bundled with `import 'normlab/embed'` renders <normlab-softmax> under the strict CSP", async () => {
  const site = join(shared.project, 'site');
  mkdirSync(site);
  writeFileSync(join(shared.project, 'page.js'), "import 'normlab/embed';\n");
  await esbuild.build({
    absWorkingDir: shared.project,
    entryPoints: ['page.js'],
    outfile: join(site, 'page.js'),
    bundle: true,
    format: 'iife',
    target: 'es2022',
    logLevel: 'error',
  });
  // The stylesheet beside the page, as the README says.
  copyFileSync(join(shared.project, 'node_modules/normlab/dist/normlab-embed.css'), join(site, 'normlab-embed.css'));
  copyFileSync(join(root, 'web/favicon.svg'), join(site, 'favicon.svg'));
  writeFileSync(
    join(site, 'index.html'),
    [
      '<!doctype html>',
      '<html lang="en"><head><meta charset="utf-8"><title>A course page</title><link rel="icon" href="favicon.svg"></head>',
      '<body><h1>Softmax saturates</h1><normlab-softmax></normlab-softmax>',
      '<script src="page.js"></script></body></html>',
      '',
    ].join('\n'),
  );
  const server = await serve(site);
  shared.browser = await launchBrowser();
  const { page, problems, close } = await openHost(shared.browser, `${server.url}index.html`, { csp: true });
  try {
    await waitPainted(page);
    // The widget's default figures: the six tokens' probabilities.
    assert.deepEqual(await page.locator('normlab-softmax .bar-value').allTextContents(), [
      '0.325',
      '0.218',
      '0.161',
      '0.132',
      '0.098',
      '0.066',
    ]);
    // Styled by the package's stylesheet, linked inside the shadow root.
    const styled = await page
      .locator('normlab-softmax')
      .evaluate((n) =>
        [...n.shadowRoot.querySelectorAll('link[rel=stylesheet]')].map((l) => [
          new URL(l.href).pathname,
          l.sheet?.cssRules.length > 0,
        ]),
      );
    assert.deepEqual(styled, [['/normlab-embed.css', true]]);
    assert.deepEqual(await cspViolations(page), []);
    assert.deepEqual(problems, []);
  } finally {
    await close();
    server.stop();
  }
});
