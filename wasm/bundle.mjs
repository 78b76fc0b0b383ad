// Turn the Emscripten modules into what dist/ ships (build.sh runs this):
//
//   node wasm/bundle.mjs BUILD_WASM_DIR DIST_DIR
//
//   normlab.mjs               ES module exporting loadNormlab (browsers, Node 20)
//   normlab_simd.mjs          the SIMD128 backend, imported by normlab.mjs on demand
//   normlab_scalar.mjs        the scalar backend, likewise
//   normlab_train_simd.mjs    the trainer's modules of each flavour, imported
//   normlab_train_scalar.mjs  on the first createTrainer()
//   normlab.js                classic script, global `normlab` (pages from file://)
//   normlab_simd.js           classic-script backends, added to the page by
//   normlab_scalar.js         normlab.js on demand as globalThis.normlabBackends[name]
//   normlab_train_simd.js     classic-script trainer modules, likewise, as
//   normlab_train_scalar.js   normlabBackends.trainSimd128 and .trainScalar,
//                             each with its own source as ...Script
//   normlab.d.ts              types of the public API
//   normlab-options.json      the modules' option tables, as their
//                             descriptions give them (src/model/options.h,
//                             src/train/options.h): { model, trainer,
//                             generate }, each a list of option rows
//                             (wasm/packing.h); what the page's lab reads
//                             its defaults and ranges from
//
// The backends are Emscripten's SINGLE_FILE output: the wasm is inline as a
// base64 data: URI, which is what lets a page run from file://.
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const [buildDir, distDir] = process.argv.slice(2).map((p) => p && resolve(p));
if (!buildDir || !distDir) {
  console.error('usage: node wasm/bundle.mjs BUILD_WASM_DIR DIST_DIR');
  process.exit(2);
}

// name: the classic script's key in globalThis.normlabBackends.
const BACKENDS = [
  { name: 'simd128', file: 'normlab_simd' },
  { name: 'scalar', file: 'normlab_scalar' },
  { name: 'trainSimd128', file: 'normlab_train_simd' },
  { name: 'trainScalar', file: 'normlab_train_scalar' },
];

// Shared by every output: modern engines only (WebAssembly SIMD era), and no
// code built from strings, so pages can run under a strict CSP.
const common = { bundle: true, target: 'es2022', platform: 'browser', logLevel: 'warning', charset: 'utf8' };
// The trainer's default text (wasm/trainer.js) is bundled as a string.
const textLoader = { loader: { '.txt': 'text' } };

// Emscripten 3.1.6 fetch()es its own inline data: URI when fetch exists, and
// only decodes the base64 itself when that fails. Under a CSP without
// `connect-src data:` the failed fetch is a console error, and it is a useless
// round trip anyway: hiding fetch from the module makes it decode directly.
const backendDefine = { fetch: 'undefined' };
// Backends are generated code, already minified by Emscripten: keep them
// small.
const backendCommon = { ...common, minify: true };

// A trainer's classic script also registers its own source, as
// normlabBackends[name + 'Script']: a function whose text is the whole
// script, so the lab can start a Web Worker from a blob: URL carrying it
// (web/src/lab/workers.js) where a worker cannot load a script (file://).
function selfCarrying(name) {
  const fn = `normlab_${name}_script`;
  return {
    globalName: 'normlabTrainModule',
    banner: { js: `function ${fn}(){` },
    footer: {
      js: `(globalThis.normlabBackends??={}).${name}=normlabTrainModule}${fn}();globalThis.normlabBackends.${name}Script=${fn};`,
    },
  };
}

async function main() {
  await mkdir(distDir, { recursive: true });

  for (const { name, file } of BACKENDS) {
    const source = join(buildDir, `${file}.mjs`);
    await stat(source).catch(() => {
      throw new Error(`${source} is missing: build the wasm targets first (cmake --build ${buildDir})`);
    });
    await esbuild.build({
      ...backendCommon,
      entryPoints: [source],
      format: 'esm',
      define: backendDefine,
      outfile: join(distDir, `${file}.mjs`),
    });
    await esbuild.build({
      ...backendCommon,
      entryPoints: [source],
      format: 'iife',
      // The module reads import.meta.url only to locate a separate .wasm,
      // which a SINGLE_FILE build does not have.
      define: { ...backendDefine, 'import.meta.url': 'undefined' },
      outfile: join(distDir, `${file}.js`),
      ...(name.startsWith('train') ? selfCarrying(name) : { globalName: `normlabBackends.${name}` }),
    });
  }

  await esbuild.build({
    ...common,
    ...textLoader,
    entryPoints: [join(here, 'entry.esm.js')],
    format: 'esm',
    // Backends stay separate files, imported at run time next to normlab.mjs.
    external: BACKENDS.map(({ file }) => `./${file}.mjs`),
    outfile: join(distDir, 'normlab.mjs'),
  });
  // The classic script is what the page downloads: minified, to keep the
  // page within its download budget, with a source map beside it (fetched
  // only by a browser's developer tools) that shows wasm/*.js as written.
  // normlab.mjs, for bundlers and Node, stays as written.
  await esbuild.build({
    ...common,
    ...textLoader,
    entryPoints: [join(here, 'entry.classic.js')],
    format: 'iife',
    globalName: 'normlab',
    minify: true,
    sourcemap: 'external',
    outfile: join(distDir, 'normlab.js'),
  });
  await copyFile(join(here, 'normlab.d.ts'), join(distDir, 'normlab.d.ts'));

  const options = {};
  for (const file of ['normlab_simd', 'normlab_train_simd']) {
    const { default: createModule } = await import(pathToFileURL(join(distDir, `${file}.mjs`)).href);
    Object.assign(options, JSON.parse((await createModule()).boundary()).options);
  }
  await writeFile(join(distDir, 'normlab-options.json'), `${JSON.stringify(options, null, 2)}\n`);

  for (const f of ['normlab.mjs', 'normlab.js', ...BACKENDS.flatMap(({ file }) => [`${file}.mjs`, `${file}.js`])]) {
    const bytes = (await readFile(join(distDir, f))).length;
    console.log(`${f.padEnd(26)} ${(bytes / 1024).toFixed(1).padStart(7)} KiB`);
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
