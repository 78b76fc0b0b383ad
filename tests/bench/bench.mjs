// normlab benchmark: normlab's WebAssembly kernels (SIMD128 and scalar, through
// the JS API) against plain JavaScript, onnxruntime-web, tfjs-backend-wasm and
// onnxruntime-node, plus native normlab and the WASM copy ceiling. One thread,
// same inputs for everyone, median of repeated runs after a warm-up.
//
//   node tests/bench/bench.mjs [--native build/bench-native.json]
//        [--md build/bench.md] [--dist dist/normlab.mjs] [--quick]
//        [--sizes 64x1024,1024x4096]
//
// Prints the tables, the ratios of normlab-simd against each peer and a
// targets check (printed, never asserted); writes the same as Markdown
// (--md) and the raw numbers next to it as JSON.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { OPS, PARAMS, SIZES, checksum, makeBias, makeGain, makeInput, maxAbsDiff, reference } from './data.mjs';
import { OP_TITLES, fmtRatio, fmtUs, gbps, mdTable, sizeName, textTable } from './report.mjs';
import { DEFAULT_BUDGET, measureRounds } from './timing.mjs';
import { loadApi, normlabAdapter } from './peers/normlab.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

// ---------------------------------------------------------------- options
function parseArgs(argv) {
  const o = {
    native: null,
    md: path.join(ROOT, 'build/bench.md'),
    dist: path.join(ROOT, 'dist/normlab.mjs'),
    quick: false,
    sizes: SIZES,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') o.quick = true;
    else if (['--native', '--md', '--dist'].includes(a) && i + 1 < argv.length) o[a.slice(2)] = path.resolve(argv[++i]);
    else if (a === '--sizes' && i + 1 < argv.length) o.sizes = argv[++i].split(',').map((s) => s.split('x').map(Number));
    else {
      console.error('usage: bench.mjs [--native FILE] [--md FILE] [--dist FILE] [--quick] [--sizes RxD,...]');
      process.exit(2);
    }
  }
  return o;
}
const opts = parseArgs(process.argv.slice(2));
const budget = opts.quick
  ? { ...DEFAULT_BUDGET, rounds: 1, warmupMs: 30, budgetMs: 80 }
  : DEFAULT_BUDGET;

// ---------------------------------------------------------------- environment
function cpuModel() {
  try {
    const m = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m);
    if (m) return m[1].trim();
  } catch {}
  return os.cpus()[0]?.model ?? 'unknown';
}
function pkgVersion(name) {
  try {
    return JSON.parse(readFileSync(path.join(HERE, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'not installed';
  }
}
const loadAvg = () => os.loadavg()[0].toFixed(2);
const env = {
  date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  loadAtStart: loadAvg(),
  cpu: `${cpuModel()} (${os.cpus().length} logical cores)`,
  node: process.version,
  peers: Object.fromEntries(
    ['onnxruntime-web', 'onnxruntime-node', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-wasm'].map((n) => [n, pkgVersion(n)]),
  ),
};

// ---------------------------------------------------------------- implementations
// Every adapter: { id, label, load() -> { version, prepare(op, x, rows, dim, w) -> { run, dispose? }, close? } }
const plainJs = await import('./peers/plain-js.mjs');
const ortWeb = () => import('./peers/ort-web.mjs');
const tfjsWasm = () => import('./peers/tfjs-wasm.mjs');
const ortNode = () => import('./peers/ort-node.mjs');

const notes = [];
let loadNormlab = null;
try {
  loadNormlab = await loadApi(opts.dist);
} catch (e) {
  notes.push(`normlab JS API not available: ${e.message}`);
}

const candidates = [
  loadNormlab && normlabAdapter(loadNormlab, 'simd128'),
  loadNormlab && normlabAdapter(loadNormlab, 'simd128', { out: true }),
  loadNormlab && normlabAdapter(loadNormlab, 'scalar'),
  plainJs,
  ortWeb,
  tfjsWasm,
  ortNode,
].filter(Boolean);

const LABELS = {
  'normlab-simd': 'normlab wasm SIMD128',
  'normlab-simd-out': 'normlab wasm SIMD128, out=',
  'normlab-scalar': 'normlab wasm scalar',
  'plain-js': 'plain JavaScript',
  'ort-web': 'onnxruntime-web (wasm)',
  'tfjs-wasm': 'tfjs-backend-wasm',
  'ort-node': 'onnxruntime-node (native)',
  'native': 'normlab native',
  'copy-wasm': 'WASM SIMD copy (ceiling)',
  'copy-native': 'native copy (ceiling)',
};

const impls = []; // { id, label, api }
for (const c of candidates) {
  const mod = typeof c === 'function' ? await c() : c;
  try {
    const api = await mod.load();
    impls.push({ id: mod.id, label: LABELS[mod.id] ?? mod.label, api });
  } catch (e) {
    notes.push(`${mod.id} unavailable: ${e.message}`);
  }
}
const simd = impls.find((i) => i.id === 'normlab-simd');
if (simd && !simd.api.copyName) notes.push('normlab API has no copy entry point: WASM copy ceiling not measured');

let native = null;
if (opts.native) {
  if (existsSync(opts.native)) native = JSON.parse(readFileSync(opts.native, 'utf8'));
  else notes.push(`native results ${opts.native} not found`);
}

// ---------------------------------------------------------------- header
const header = [
  `date: ${env.date}`,
  `cpu: ${env.cpu}`,
  `node: ${env.node}`,
  `load average at start: ${env.loadAtStart} (other work on these ${os.cpus().length} cores disturbs the numbers)`,
  `peers: ${Object.entries(env.peers).map(([k, v]) => `${k} ${v}`).join(', ')}`,
  `implementations: ${impls.map((i) => `${i.id} (${i.api.version})`).join(', ')}${native ? `, native (${native.arch}, ${native.compiler})` : ''}`,
  'single thread everywhere; median of repeated runs after warm-up; GB/s counts reading x and writing y (2 x 4 bytes per element)',
  `RMSNorm eps ${PARAMS.rmsEps}, LayerNorm eps ${PARAMS.lnEps}, softmax temperature ${PARAMS.temperature}; fixed non-uniform gain and bias`,
];
console.log('normlab benchmark');
for (const l of header) console.log(`  ${l}`);
for (const n of notes) console.log(`  note: ${n}`);

const weightsFor = (dim) => ({ gain: makeGain(dim), bias: makeBias(dim), ...PARAMS });

// ---------------------------------------------------------------- agreement
// Every implementation on the same inputs, against a double-precision
// reference, before anything is timed.
const TOL = { rmsnorm: 1e-4, layernorm: 1e-4, softmax: 1e-6 };
const CHECK_SIZES = [[64, 1024], [64, 4096]];
const agreement = []; // { op, size, id, diff }
console.log('\nAgreement: max |y - reference(float64)| before timing');
for (const op of OPS) {
  for (const size of CHECK_SIZES) {
    const [rows, dim] = size;
    const x = makeInput(rows, dim);
    const w = weightsFor(dim);
    const ref = reference(op, x, rows, dim, w);
    const parts = [];
    for (const impl of impls) {
      const p = await impl.api.prepare(op, x, rows, dim, w);
      const y = await p.run();
      p.dispose?.();
      const diff = maxAbsDiff(y, ref);
      agreement.push({ op, size: sizeName(size), id: impl.id, diff });
      parts.push(`${impl.id} ${diff.toExponential(1)}${diff <= TOL[op] ? '' : ' MISMATCH'}`);
    }
    if (native) {
      const r = native.results.find((r) => r.op === op && r.rows === rows && r.dim === dim);
      if (r) {
        const c = checksum(ref);
        const rel = Math.abs(r.checksum - c) / Math.max(1e-12, Math.abs(c));
        agreement.push({ op, size: sizeName(size), id: 'native', checksumRel: rel });
        parts.push(`native checksum rel ${rel.toExponential(1)}${rel <= 1e-4 ? '' : ' MISMATCH'}`);
      }
    }
    console.log(`  ${OP_TITLES[op].padEnd(9)} ${sizeName(size).padEnd(8)} ${parts.join(', ')}`);
  }
}

// ---------------------------------------------------------------- timing
const results = new Map(); // `${op}|${size}|${id}` -> { medianUs, ... }
const key = (op, size, id) => `${op}|${sizeName(size)}|${id}`;
const t0 = performance.now();

process.stdout.write('\nTiming');
for (const size of opts.sizes) {
  const [rows, dim] = size;
  const x = makeInput(rows, dim);
  const w = weightsFor(dim);
  for (const op of OPS) {
    // One cell: every implementation on the same input, in interleaved rounds,
    // with the WASM copy of the same bytes among them (the ceiling).
    const prepared = new Map();
    for (const impl of impls) prepared.set(impl.id, await impl.api.prepare(op, x, rows, dim, w));
    if (simd?.api.copyName) prepared.set('copy-wasm', await simd.api.prepare('copy', x, rows, dim, w));
    const timed = await measureRounds(new Map([...prepared].map(([id, p]) => [id, p.run])), budget);
    for (const p of prepared.values()) p.dispose?.();
    for (const [id, r] of timed) results.set(key(op, size, id), r);
    process.stdout.write('.');
  }
}
for (const impl of impls) await impl.api.close?.();
if (native) {
  for (const r of native.results) {
    const id = r.op === 'copy' ? 'copy-native' : 'native';
    for (const op of r.op === 'copy' ? OPS : [r.op]) {
      results.set(`${op}|${r.rows}x${r.dim}|${id}`, { medianUs: r.median_us, minUs: r.min_us, samples: r.samples });
    }
  }
}
env.loadAtEnd = loadAvg();
console.log(` ${((performance.now() - t0) / 1e3).toFixed(0)} s (load average at end: ${env.loadAtEnd})`);

// ---------------------------------------------------------------- tables
const rowIds = [...impls.map((i) => i.id), ...(native ? ['native'] : []), 'copy-wasm', ...(native ? ['copy-native'] : [])];
const get = (op, size, id) => results.get(key(op, size, id))?.medianUs ?? NaN;
const sizeHeaders = opts.sizes.map(sizeName);
const text = [];
const md = [];

md.push('# normlab benchmark', '');
for (const l of header) md.push(`- ${l}`);
md.push(`- load average at end: ${env.loadAtEnd}`);
for (const n of notes) md.push(`- note: ${n}`);

text.push('', 'Median time per call (µs) and throughput (GB/s), rows x dim');
for (const op of OPS) {
  const rows = rowIds
    .filter((id) => opts.sizes.some((s) => Number.isFinite(get(op, s, id))))
    .map((id) => ({
      label: LABELS[id] ?? id,
      cells: opts.sizes.map((s) => {
        const us = get(op, s, id);
        return Number.isFinite(us) ? `${fmtUs(us)} µs ${gbps(us, s).toFixed(2).padStart(6)} GB/s` : '-';
      }),
    }));
  text.push('', textTable(OP_TITLES[op], sizeHeaders, rows));
  md.push('', `## ${OP_TITLES[op]}: median µs per call (GB/s)`, '');
  md.push(mdTable(['implementation', ...sizeHeaders], rows.map((r) => ({
    label: r.label,
    cells: r.cells.map((c) => c.replace(/^(\S+) µs\s+(\S+) GB\/s$/, '$1 µs ($2 GB/s)')),
  }))));
}

// Ratio = peer time / normlab-simd time: how many times faster normlab-simd
// is. Against the copy ceilings it is the fraction of copy speed reached.
const ratio = (op, size, id) => get(op, size, id) / get(op, size, 'normlab-simd');
text.push('', 'normlab-simd speed-up vs each (peer time / normlab-simd time; vs copy: fraction of copy speed)');
md.push('', '## normlab-simd speed-up', '', 'Peer time / normlab-simd time (higher is better for normlab). Against a copy ceiling: the fraction of copy speed normlab-simd reaches.');
for (const op of OPS) {
  const rows = rowIds
    .filter((id) => id !== 'normlab-simd' && opts.sizes.some((s) => Number.isFinite(get(op, s, id))))
    .map((id) => ({ label: `vs ${LABELS[id] ?? id}`, cells: opts.sizes.map((s) => fmtRatio(ratio(op, s, id))) }));
  text.push('', textTable(OP_TITLES[op], sizeHeaders, rows, 34, 12));
  md.push('', `### ${OP_TITLES[op]}`, '', mdTable(['normlab-simd', ...sizeHeaders], rows));
}

// ---------------------------------------------------------------- targets
const targets = [
  ...['rmsnorm', 'layernorm'].flatMap((op) => [
    { op, peer: 'ort-web', min: 8 },
    { op, peer: 'ort-node', min: 1.5 },
  ]),
  { op: 'rmsnorm', peer: 'copy-wasm', min: 0.6, sizes: [[64, 1024]] },
  { op: 'layernorm', peer: 'copy-wasm', min: 0.4, sizes: [[64, 1024]] },
  { op: 'softmax', peer: 'ort-web', min: 3 },
  { op: 'softmax', peer: 'tfjs-wasm', min: 3 },
  { op: 'rmsnorm', peer: 'normlab-scalar', min: 3 },
  { op: 'layernorm', peer: 'normlab-scalar', min: 3 },
];
text.push('', 'Targets (printed, not asserted): normlab-simd vs');
md.push('', '## Targets', '', '| target | ' + sizeHeaders.join(' | ') + ' | verdict |', '| --- |' + ' ---: |'.repeat(opts.sizes.length) + ' --- |');
const summary = [];
for (const t of targets) {
  const sizes = t.sizes ?? opts.sizes;
  const vals = opts.sizes.map((s) => (sizes.some((z) => sizeName(z) === sizeName(s)) ? ratio(t.op, s, t.peer) : null));
  const measured = vals.filter((v) => v !== null && Number.isFinite(v));
  const met = measured.filter((v) => v >= t.min).length;
  const verdict = measured.length === 0 ? 'not measured' : met === measured.length ? 'MET' : met === 0 ? 'NOT MET' : `partly met (${met}/${measured.length} sizes)`;
  const name = `${OP_TITLES[t.op]} >= ${t.min}x ${LABELS[t.peer] ?? t.peer}`;
  const cells = vals.map((v) => (v === null ? '' : `${fmtRatio(v)}${Number.isFinite(v) ? (v >= t.min ? ' ok' : ' no') : ''}`));
  text.push(`  ${name.padEnd(52)}${cells.map((c) => c.padStart(12)).join('')}   ${verdict}`);
  md.push(`| ${name} | ${cells.join(' | ')} | ${verdict} |`);
  summary.push({ ...t, vals, verdict });
}
text.push(`  (columns: ${sizeHeaders.join(', ')})`);

console.log(text.join('\n'));

// ---------------------------------------------------------------- files
mkdirSync(path.dirname(opts.md), { recursive: true });
writeFileSync(opts.md, md.join('\n') + '\n');
const jsonPath = opts.md.replace(/\.md$/, '') + '.json';
writeFileSync(jsonPath, JSON.stringify({
  env, notes, budget, agreement,
  results: Object.fromEntries(results),
  targets: summary.map(({ op, peer, min, verdict, vals }) => ({ op, peer, min, verdict, ratios: vals })),
}, null, 2) + '\n');
const shown = (p) => (path.relative(process.cwd(), p).startsWith('..') ? p : path.relative(process.cwd(), p));
console.log(`\nwrote ${shown(opts.md)} and ${shown(jsonPath)}`);
