// The benchmark report: tests/bench/RESULTS.md and tests/bench/headline.json,
// written from what one `./build.sh bench` run printed and saved in build/
// (nothing typed in by hand), and the README's headline table, rewritten
// from headline.json between its two marker comments.
//
//   node tests/bench/results.mjs [--build build] [--out tests/bench] [--readme README.md]   (./build.sh bench runs it)
//   node tests/bench/results.mjs --readme-only                         README from the committed headline.json
//   node tests/bench/results.mjs --from-headline                       RESULTS.md and README from headline.json and
//                                                                      the same run's files in build/ (a new layout)
//
// Inputs in build/: bench.md and .json (kernels against peers), bench-model.md,
// bench-train.md and .json (the trainer against tfjs-backend-wasm),
// bench-page.json (page-perf.mjs --json), bench-phone.json (phone-perf.mjs
// --json), and each step's console output in build/bench/<step>.log.
// tests/js/bench-results.test.mjs checks that the README's table and the
// report's are the one headline.json gives.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { DOWNLOAD_BUDGET_BYTES, downloadBytes } from '../../web/download.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const README_START = '<!-- headline: written by tests/bench/results.mjs from tests/bench/headline.json -->';
export const README_END = '<!-- /headline -->';

// The kernel size the headline quotes: 64 rows of 4096, a prompt's worth of
// a large model's hidden vectors.
const HEADLINE_SIZE = '64x4096';
const OPS = [
  ['rmsnorm', 'RMSNorm'],
  ['layernorm', 'LayerNorm'],
  ['softmax', 'Softmax'],
];
const KERNEL_PEERS = [
  ['ort-web', 'onnxruntime-web'],
  ['tfjs-wasm', 'tfjs-backend-wasm'],
  ['ort-node', 'onnxruntime-node (native)'],
];
// page-perf.mjs rows the headline quotes, at the 32-token prompt.
const PAGE_ROWS = [
  ['prompt keystroke (last token changed): input -> frame painted', 'prompt keystroke, input to painted frame', 32],
  ['gradient depth drag: last input -> views', 'gradient views after a drag, last input to painted', 32],
];

// phone-perf.mjs rows the headline quotes at Lighthouse's mobile CPU
// throttling (4×), with the targets phone-perf prints.
const PHONE_RATE = 4;
const PHONE_ROWS = [
  ['navigation -> computed views painted', 'first computed paint', 1500],
  ['largest contentful paint', 'largest contentful paint', 2500],
  ['total blocking time (navigation -> settled)', 'total blocking time while loading', 200],
  ['longest task (navigation -> settled)', 'longest task while loading', 100],
  ['trainer.step(1), 24 layers, lab default (last load)', "one training step at the lab's default", null],
];

const num = (v, digits) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(digits ?? 2));
const ratio = (r) => `${r < 10 ? r.toFixed(1) : r.toFixed(0)}x`;

// The headline figures from the run's saved results.
export function headlineFrom({ kernels, train, page, phone, download, commit, date }) {
  const us = (op, id) => kernels.results[`${op}|${HEADLINE_SIZE}|${id}`]?.medianUs;
  const demo = train.results.find((r) => r.layers === 24);
  const pageRow = (name, tokens) => {
    const row = page.rows.find((r) => r.name === name && r.section?.tokens === tokens);
    if (!row) throw new Error(`bench-page.json has no row "${name}" at ${tokens} tokens`);
    return row;
  };
  const firstLoad = page.loads.find((r) => r.name === 'navigation -> computed views painted');
  return {
    date,
    commit,
    machine: kernels.env.cpu,
    load: [kernels.env.loadAtStart, page.loadAtEnd?.[0]?.toFixed(2) ?? null],
    versions: { node: kernels.env.node, chromium: page.chromium, ...kernels.env.peers },
    kernels: {
      size: HEADLINE_SIZE,
      rows: OPS.map(([op, name]) => ({
        op: name,
        copying: us(op, 'normlab-simd'),
        resident: us(op, 'normlab-simd-resident'),
        peers: Object.fromEntries(KERNEL_PEERS.map(([id]) => [id, us(op, id)])),
      })),
    },
    training: { layers: 24, ms: demo.ms['ours-simd'], bestTfjsMs: demo.bestTf },
    page: {
      rows: PAGE_ROWS.map(([name, label, tokens]) => {
        const row = pageRow(name, tokens);
        return { label, tokens, median: row.median, budget: row.target };
      }),
      firstLoad: firstLoad.median,
      download,
    },
    phone: {
      rate: PHONE_RATE,
      viewport: phone.device?.viewport ?? null,
      rows: PHONE_ROWS.map(([name, label, target]) => {
        const row = phone.rows.find((r) => r.rate === PHONE_RATE && r.name === name);
        if (!row) throw new Error(`bench-phone.json has no row "${name}" at ${PHONE_RATE}×`);
        return { label, median: row.median, target };
      }),
    },
    // The lab's default contrast at 1×, with and without workers (null in
    // a report from before phone-perf timed it).
    contrast: phone.contrast
      ? Object.fromEntries(
          ['workers', 'allAtOnce', 'slices'].map((k) => {
            const r = phone.contrast[k];
            return [k, { seconds: r.wallMs / 1000, atOnce: r.atOnce, cores: r.cores, longTasks: r.long.length }];
          }),
        )
      : null,
  };
}

// The headline as the README and the report show it. Kernel ratios are
// against normlab called with arrays in and out, as the peers are.
export function headlineMarkdown(h) {
  const [rows, width] = h.kernels.size.split('x');
  const lines = [
    `Measured ${h.date} at ${h.commit} on ${h.machine}, one thread, Node ${h.versions.node}, Chromium ${h.versions.chromium}; ` +
      `load average ${h.load.filter(Boolean).join(' to ')}. Every table: [tests/bench/RESULTS.md](tests/bench/RESULTS.md).`,
    '',
    '| measured (median) | normlab | peers (peer / normlab: arrays / kept in wasm) or budget |',
    '| --- | --- | --- |',
  ];
  for (const row of h.kernels.rows) {
    const peers = KERNEL_PEERS.map(
      ([id, name]) =>
        `${name} ${num(row.peers[id])} (${ratio(row.peers[id] / row.copying)} / ${ratio(row.peers[id] / row.resident)})`,
    );
    lines.push(
      `| ${row.op}, ${rows} × ${width}, µs per call, wasm SIMD128 | ${num(row.copying)} arrays in and out; ` +
        `${num(row.resident)} kept in wasm | ${peers.join(', ')} |`,
    );
  }
  lines.push(
    `| one training step, ${h.training.layers} layers, ms, wasm SIMD128 | ${num(h.training.ms)} | ` +
      `tfjs-backend-wasm ${num(h.training.bestTfjsMs)}, its fastest formulation (${ratio(h.training.bestTfjsMs / h.training.ms)}) |`,
  );
  for (const row of h.page.rows) {
    lines.push(
      `| ${row.label}, ${row.tokens}-token prompt, ms | ${num(row.median, 1)} | ` +
        `budget ${row.budget} ms: ${row.median <= row.budget ? 'within' : 'over'} |`,
    );
  }
  lines.push(`| first visit, navigation to computed figures painted, ms | ${num(h.page.firstLoad, 1)} | |`);
  const { viewport } = h.phone;
  const at = `at ${h.phone.rate}× CPU throttling${viewport ? `, ${viewport.width} × ${viewport.height}` : ''}`;
  for (const row of h.phone.rows) {
    const target =
      row.target === null ? '' : `target ${row.target} ms: ${row.median <= row.target ? 'met' : 'not met'}`;
    lines.push(`| ${row.label}, phone class (${at}), ms | ${num(row.median, 1)} | ${target} |`);
  }
  if (h.contrast) {
    const { workers, allAtOnce, slices } = h.contrast;
    const cell = (r) =>
      `${num(r.seconds, 1)} s, ${r.longTasks} main-thread task${r.longTasks === 1 ? '' : 's'} over 50 ms`;
    const share = workers.seconds / slices.seconds;
    lines.push(
      `| the lab's default contrast (3 runs × 400 steps) at 1×${viewport ? `, ${viewport.width} × ${viewport.height}` : ''}, ` +
        `wall-clock, Web Workers (${workers.atOnce} at once on ${workers.cores} cores) | ${cell(workers)} | ` +
        `main thread: ${cell(slices)}; workers / main thread ${share.toFixed(2)}, target ≤ 0.6: ` +
        `${share <= 0.6 ? 'met' : 'not met'}; all ${allAtOnce.atOnce} at once: ${cell(allAtOnce)} |`,
    );
  }
  const { bytes, budget } = h.page.download;
  lines.push(
    `| the page's first download (SIMD128 browser), bytes | ${bytes.toLocaleString('en')} | ` +
      `budget ${budget.toLocaleString('en')}: ${bytes <= budget ? 'within' : 'over'} |`,
  );
  return lines.join('\n');
}

// README.md with its headline block rewritten.
export function readmeWithHeadline(readme, h) {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md has no headline block (${README_START} ... ${README_END})`);
  return (
    readme.slice(0, start) +
    `${README_START}\n${headlineMarkdown(h)}\n${README_END}` +
    readme.slice(end + README_END.length)
  );
}

function readJson(file) {
  if (!existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: run ./build.sh bench`);
  return JSON.parse(readFileSync(file, 'utf8'));
}
const readText = (file) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '(not run)');

function report(build, h) {
  const log = (step) => ['```text', readText(path.join(build, 'bench', `${step}.log`)), '```'].join('\n');
  return [
    '# Benchmark results',
    '',
    "Written by `./build.sh bench` (`tests/bench/results.mjs`) from the run's own output. Timings are medians;",
    'the targets are printed, never asserted (the machine is shared). Re-run `./build.sh bench` on a quiet',
    "machine and commit this file and `headline.json` to update the README's table.",
    '',
    `- date: ${h.date}; commit: ${h.commit}`,
    `- machine: ${h.machine}, ${os.totalmem() / 2 ** 30 >= 1 ? `${Math.round(os.totalmem() / 2 ** 30)} GiB` : ''}, ${os.type()} ${os.release()}`,
    `- versions: ${Object.entries(h.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    '',
    '## Headline',
    '',
    headlineMarkdown(h),
    '',
    '## Kernels against peers (`tests/bench/bench.mjs`)',
    '',
    readText(path.join(build, 'bench.md')),
    '',
    '## The synthetic model (`tests/bench/model-bench.mjs`)',
    '',
    readText(path.join(build, 'bench-model.md')),
    '',
    '## The trainer (`tests/bench/train-bench.mjs`)',
    '',
    readText(path.join(build, 'bench-train.md')),
    '',
    log('train'),
    '',
    "## The page's interaction budget (`tests/bench/page-perf.mjs`, headless Chromium)",
    '',
    log('page'),
    '',
    "## The training lab against the page's sliders (`tests/bench/lab-perf.mjs`, headless Chromium)",
    '',
    log('lab'),
    '',
    '## Phone class (`tests/bench/phone-perf.mjs`, headless Chromium, CPU throttled)',
    '',
    log('phone'),
    '',
    '## Native (`normlab_bench_native`, `normlab_bench_train`)',
    '',
    log('native'),
    '',
    log('native-train'),
    '',
  ].join('\n');
}

function main(argv) {
  const o = {
    build: path.join(ROOT, 'build'),
    out: path.join(ROOT, 'tests/bench'),
    readme: path.join(ROOT, 'README.md'),
    readmeOnly: false,
    fromHeadline: false,
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--build') o.build = path.resolve(argv[++i]);
    else if (argv[i] === '--out') o.out = path.resolve(argv[++i]);
    else if (argv[i] === '--readme') o.readme = path.resolve(argv[++i]);
    else if (argv[i] === '--readme-only') o.readmeOnly = true;
    else if (argv[i] === '--from-headline') o.fromHeadline = true;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  const headlinePath = path.join(o.out, 'headline.json');
  let h;
  if (o.readmeOnly) h = readJson(headlinePath);
  else if (o.fromHeadline) {
    h = readJson(headlinePath);
    writeFileSync(path.join(o.out, 'RESULTS.md'), report(o.build, h));
  } else {
    const commit = execFileSync('git', ['-C', ROOT, 'describe', '--always', '--dirty'], { encoding: 'utf8' }).trim();
    h = headlineFrom({
      kernels: readJson(path.join(o.build, 'bench.json')),
      train: readJson(path.join(o.build, 'bench-train.json')),
      page: readJson(path.join(o.build, 'bench-page.json')),
      phone: readJson(path.join(o.build, 'bench-phone.json')),
      download: { bytes: downloadBytes(path.join(ROOT, 'dist')), budget: DOWNLOAD_BUDGET_BYTES },
      commit,
      date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    });
    writeFileSync(headlinePath, JSON.stringify(h, null, 1) + '\n');
    writeFileSync(path.join(o.out, 'RESULTS.md'), report(o.build, h));
    console.log(
      `wrote ${path.relative(ROOT, headlinePath)} and ${path.relative(ROOT, path.join(o.out, 'RESULTS.md'))}`,
    );
  }
  writeFileSync(o.readme, readmeWithHeadline(readFileSync(o.readme, 'utf8'), h));
  console.log(`rewrote the headline table in ${path.relative(ROOT, o.readme)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
