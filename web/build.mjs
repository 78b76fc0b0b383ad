// Build the page into dist/, next to the normlab bundles (build.sh runs this
// after wasm/bundle.mjs):  node web/build.mjs DIST_DIR
//
//   index.html                   without its comments and indentation (outside
//                                <pre>), which are for its readers, not browsers
//   favicon.svg                  copied
//   main.js                      the page: web/main.js and everything it
//                                imports (d3 modules), one classic script,
//                                because Chromium runs no ES module from
//                                file://; the page's own formulas typeset
//   i18n.<lang>.js               each page language's dictionary
//   katex.js                     KaTeX, loaded by the page for the formulas
//                                it makes at run time (src/math.js)
//   style.css                    web/style.css with its imports
//   lab.js, lab.css              the training lab (web/lab.js, web/lab.css):
//                                a classic script and its stylesheet that
//                                the page injects when the lab's section
//                                nears the viewport, so they are outside
//                                the first download and its budget
//   lab-worker.js                one lab run in a Web Worker (src/lab/worker.js)
//   THIRD_PARTY_NOTICES.txt      licences of every package bundled above
//
// It then reports dist/'s size and what a SIMD-capable browser downloads to
// show the page, and fails if that exceeds the 1 MB budget.
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import * as esbuild from 'esbuild';

import { DICTIONARY_FILES, DOWNLOAD_BUDGET_BYTES, SIMD_DOWNLOAD, downloadBytes } from './download.mjs';
import katex from 'katex';

import { LANGUAGE_CODES, DICTIONARIES } from './src/i18n/index.js';
import { katexOptions, typesetKey } from './src/math.js';
import { inlineTex } from './src/rich-text.js';
import { pageClaims, claimProblems, variantClaimProblems, variantClaims } from './src/lab/claims.js';
import { robustnessTable, sweepTable, variantSweepTable } from './src/lab/sweep.js';

const here = dirname(fileURLToPath(import.meta.url));
// Bundled packages' own files (licences, versions); not every package exports
// its package.json, so read them from node_modules directly.
const packageDir = (name) => join(here, '..', 'node_modules', name);
const COPIED = ['favicon.svg', 'embed-demo.html', 'embed-demo.css', 'embed-demo.js', 'CHANGELOG.md'];

const distDir = process.argv[2] && resolve(process.argv[2]);
if (!distDir) {
  console.error('usage: node web/build.mjs DIST_DIR');
  process.exit(2);
}

try {
  await stat(join(distDir, 'normlab.js'));
} catch {
  console.error(`${distDir}/normlab.js is missing: run wasm/bundle.mjs first`);
  process.exit(1);
}

const packageVersion = (name) => JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')).version;

// A classic script of the page (main.js, lab.js): one minified file with
// everything it imports.
// more: other esbuild options (an entry point of another name, a banner).
// Every script the browser gets: minified, everything it imports bundled.
// Licences go to THIRD_PARTY_NOTICES.txt instead of the bundle.
const BROWSER_SCRIPT = {
  bundle: true,
  target: 'es2022',
  platform: 'browser',
  minify: true,
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
};
const classicScript = (name, define, loader = {}, more = {}) =>
  esbuild.build({
    entryPoints: [join(here, name)],
    outfile: join(distDir, name),
    ...more,
    ...BROWSER_SCRIPT,
    format: 'iife',
    metafile: true,
    define,
    loader,
  });

// The lab's committed tables (./build.sh sweep), per page language: the
// sweep's cells for the lab's map and learning-rate window, the default
// contrast's counts over seeds, and what the page's own prose quotes of
// them (claims.js), checked here: the build fails when the tables stop
// saying what the page says.
const LANGS = LANGUAGE_CODES;
const readData = (name) => JSON.parse(readFileSync(join(here, 'data', name), 'utf8'));
const sweepJson = readData('train-sweep.json');
const robustJson = readData('lab-robustness.json');
const byLang = (fn) => Object.fromEntries(LANGS.map((lang) => [lang, fn(lang)]));
// The variants' table (After pre-norm) is one text's: the same numbers in
// every page language.
const variantJson = readData('variant-sweep.json');
const variants = variantClaims(variantJson);
const claims = byLang((lang) => ({ ...pageClaims(sweepJson, robustJson, lang), variants }));
const problems = [
  ...LANGS.flatMap((lang) => claimProblems(claims[lang]).map((p) => `${lang}: ${p}`)),
  ...variantClaimProblems(variants).map((p) => `variants: ${p}`),
];
if (problems.length) {
  console.error(`the page's claims about training no longer hold on web/data:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

// main.js leaves both dictionaries out (src/i18n/index.js): each is a
// classic script of its own, i18n.<lang>.js, that the page loads when it
// shows that language. It leaves KaTeX out too (src/katex-engine.js), for
// katex.js: the page's own formulas are typeset here instead.
const leftApart = {
  name: 'left-apart',
  setup(build) {
    const dictionary = new RegExp(`[\\\\/]src[\\\\/]i18n[\\\\/](${LANGUAGE_CODES.join('|')})\\.js$`);
    build.onLoad({ filter: dictionary }, () => ({ contents: 'export default null;' }));
    build.onLoad({ filter: /[\\/]src[\\/]katex-engine\.js$/ }, () => ({ contents: 'export default null;' }));
  },
};

// Every formula of the page's own text, typeset by KaTeX as math.js would:
// each $tex$ of every dictionary string (inline) and each data-tex of
// index.html (display).
function pageFormulas() {
  const strings = (value) =>
    typeof value === 'string' ? [value] : Object.values(value ?? {}).flatMap((v) => strings(v));
  const inline = LANGUAGE_CODES.flatMap((lang) => strings(DICTIONARIES[lang]).flatMap(inlineTex));
  const html = readFileSync(join(here, 'index.html'), 'utf8');
  const unescape = (text) =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  const display = [...html.matchAll(/\sdata-tex="([^"]*)"/g)].map((m) => unescape(m[1]));
  const made = {};
  for (const [list, isDisplay] of [
    [inline, false],
    [display, true],
  ]) {
    for (const tex of list) made[typesetKey(tex, isDisplay)] ??= katex.renderToString(tex, katexOptions(isDisplay));
  }
  return made;
}
const script = await classicScript(
  'main.js',
  {
    NORMLAB_LIBRARY_VERSIONS: JSON.stringify({
      scale: packageVersion('d3-scale'),
      axis: packageVersion('d3-axis'),
      selection: packageVersion('d3-selection'),
      shape: packageVersion('d3-shape'),
      katex: packageVersion('katex'),
    }),
    NORMLAB_PAGE_CLAIMS: JSON.stringify(claims),
    NORMLAB_MATH: JSON.stringify(pageFormulas()),
  },
  {},
  { plugins: [leftApart] },
);
const katexScript = await esbuild.build({
  stdin: { contents: `import k from './katex-engine.js';globalThis.normlabKatex=k;`, resolveDir: join(here, 'src') },
  outfile: join(distDir, 'katex.js'),
  ...BROWSER_SCRIPT,
  format: 'iife',
  metafile: true,
});
for (const lang of LANGS) {
  await esbuild.build({
    stdin: {
      contents: `import d from './${lang}.js';(globalThis.normlabDictionaries??={})[${JSON.stringify(lang)}]=d;`,
      resolveDir: join(here, 'src/i18n'),
    },
    outfile: join(distDir, `i18n.${lang}.js`),
    ...BROWSER_SCRIPT,
    format: 'iife',
  });
}

// The training lab: the same classic-script form as main.js. Its copies of
// the chart code and d3 cost it bytes, not the page's first download.
const lab = await classicScript(
  'lab.js',
  {
    NORMLAB_TRAIN_SWEEP: JSON.stringify(byLang((lang) => sweepTable(sweepJson, lang))),
    NORMLAB_LAB_ROBUSTNESS: JSON.stringify(byLang((lang) => robustnessTable(robustJson, lang))),
    NORMLAB_VARIANT_SWEEP: JSON.stringify(variantSweepTable(variantJson)),
  },
  // Each language's training text (src/lab/texts.js), as a string.
  { '.txt': 'text' },
);
// The lab's Web Worker (src/lab/worker.js): one run's work in a worker.
// Wrapped in a function that runs it inside a worker and, loaded as a
// classic script into a page, registers itself instead, as
// globalThis.normlabLabWorker, whose text src/lab/workers.js puts into a
// blob: worker where a worker cannot load a script (file://).
await classicScript(
  'lab-worker.js',
  {},
  { '.txt': 'text' },
  {
    entryPoints: [join(here, 'src/lab/worker.js')],
    metafile: false,
    banner: { js: 'function normlabLabWorker(){' },
    footer: {
      js: "}if(typeof window==='undefined')normlabLabWorker();else globalThis.normlabLabWorker=normlabLabWorker;",
    },
  },
);
await esbuild.build({
  entryPoints: [join(here, 'lab.css')],
  outfile: join(distDir, 'lab.css'),
  bundle: true,
  minify: true,
  charset: 'utf8',
  logLevel: 'warning',
});

await esbuild.build({
  entryPoints: [join(here, 'style.css')],
  outfile: join(distDir, 'style.css'),
  bundle: true,
  minify: true,
  charset: 'utf8',
  logLevel: 'warning',
});

// The embeddable elements (web/EMBEDDING.md): normlab-embed.js, one classic
// script carrying the wasm loader and the widgets, and normlab-embed.css, the
// page's stylesheet rewritten for shadow roots (see web/embed.css).
await esbuild.build({
  entryPoints: [join(here, 'embed.js')],
  outfile: join(distDir, 'normlab-embed.js'),
  ...BROWSER_SCRIPT,
  define: { NORMLAB_PAGE_CLAIMS: JSON.stringify(claims) },
  format: 'iife',
});
// The same elements as an ES module for bundlers (the npm package's
// 'normlab/embed'): its backends stay the files beside it, imported on
// demand, as dist/normlab.mjs imports them.
await esbuild.build({
  entryPoints: [join(here, 'embed.esm.js')],
  outfile: join(distDir, 'normlab-embed.mjs'),
  ...BROWSER_SCRIPT,
  define: { NORMLAB_PAGE_CLAIMS: JSON.stringify(claims) },
  format: 'esm',
  external: ['./normlab_simd.mjs', './normlab_scalar.mjs', './normlab_train_simd.mjs', './normlab_train_scalar.mjs'],
});
const embedCss = await esbuild.build({
  entryPoints: [join(here, 'embed.css')],
  write: false,
  bundle: true,
  minify: true,
  charset: 'utf8',
  logLevel: 'warning',
});
await writeFile(join(distDir, 'normlab-embed.css'), shadowCss(embedCss.outputFiles[0].text));

// Document selectors -> shadow-root selectors (minified CSS in, out).
function shadowCss(css) {
  const out = css
    .replace(/:root\[data-theme=dark\]/g, ':host([theme=dark])')
    .replace(/:root\[data-theme=light\]/g, ':host([theme=light])')
    .replace(/:root\[data-theme=auto\]/g, ':host(:not([theme=light]))')
    .replace(/:root(?=[{,\s])/g, ':host')
    .replace(/(^|[}{,])html(?=[{,\s])/g, '$1.nl-root');
  if (/:root|data-theme/.test(out)) throw new Error('normlab-embed.css: a document selector was left unconverted');
  return out;
}

for (const file of COPIED) await copyFile(join(here, file), join(distDir, file));
await writeFile(join(distDir, 'index.html'), compactHtml(await readFile(join(here, 'index.html'), 'utf8')));

// The page's HTML as a browser needs it: comments and each line's leading
// whitespace dropped, except inside <pre>, where whitespace is content.
function compactHtml(html) {
  return html
    .split(/(<pre[\s>][\s\S]*?<\/pre>)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/<!--[\s\S]*?-->\n?/g, '').replace(/^[ \t]+/gm, '')))
    .join('');
}
await writeFile(
  join(distDir, 'THIRD_PARTY_NOTICES.txt'),
  await thirdPartyNotices(script.metafile, katexScript.metafile, lab.metafile),
);

// Every package under node_modules that ended up in the bundle, with its
// licence text.
async function thirdPartyNotices(...metafiles) {
  const packages = new Set();
  for (const input of metafiles.flatMap((m) => Object.keys(m.inputs))) {
    const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    if (match) packages.add(match[1]);
  }
  const sections = [];
  for (const name of [...packages].sort()) {
    const dir = packageDir(name);
    const meta = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
    const text = licenceFile ? await readFile(join(dir, licenceFile), 'utf8') : `License: ${meta.license}`;
    sections.push(`${name} ${meta.version} (${meta.license})\n${'='.repeat(60)}\n${text.trim()}\n`);
  }
  return `normlab's page (main.js, katex.js, lab.js) bundles the following packages.\n\n${sections.join('\n')}`;
}

const size = (file) => statSync(join(distDir, file)).size;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const all = readdirSync(distDir).filter((f) => statSync(join(distDir, f)).isFile());
for (const file of [
  'index.html',
  'style.css',
  'main.js',
  ...DICTIONARY_FILES,
  'katex.js',
  'lab.js',
  'lab.css',
  'THIRD_PARTY_NOTICES.txt',
]) {
  console.log(`${file.padEnd(24)} ${kib(size(file)).padStart(10)}`);
}
const download = downloadBytes(distDir);
console.log(`dist/ total              ${kib(all.reduce((sum, f) => sum + size(f), 0)).padStart(10)}`);
console.log(
  `SIMD browser downloads   ${kib(download).padStart(10)}  (${SIMD_DOWNLOAD.join(', ')}, the larger of ${DICTIONARY_FILES.join(' and ')})`,
);
const LAB_DOWNLOAD = ['lab.js', 'lab.css', 'lab-worker.js', 'normlab_train_simd.js'];
const labDownload = LAB_DOWNLOAD.reduce((sum, f) => sum + size(f), 0);
console.log(`training lab, on demand  ${kib(labDownload).padStart(10)}  (${LAB_DOWNLOAD.join(', ')})`);
if (download > DOWNLOAD_BUDGET_BYTES) {
  console.error(`the page's download is ${download} bytes, over the ${DOWNLOAD_BUDGET_BYTES}-byte budget`);
  process.exit(1);
}
