// normlab benchmark: normlab's WebAssembly kernels (SIMD128 and scalar, through
// the JS API) against plain JavaScript, onnxruntime-web, tfjs-backend-wasm and
// onnxruntime-node, plus native normlab and the WASM copy ceilings. One thread,
// same inputs for everyone, median of repeated runs after a warm-up.
//
// normlab is measured two ways (peers/normlab.mjs), each against the peers:
//   copying   arrays in, a new Float32Array out (copy in, kernel, copy out),
//             as onnxruntime-web works: its inputs are JS arrays copied into
//             its wasm heap on every run, its output copied out
//   resident  wasm-resident tensors in and out (nl.tensor): the kernel alone,
//             no copy, for pipelines that keep their data in wasm memory
// Between them, 'out=' (arrays, a reused output array) and 'tensor in'
// (tensors in, a new array out: tfjs-backend-wasm's pattern, whose tensors
// live in its wasm heap and whose dataSync() copies the result out). Each
// way has its copy ceiling: the same bytes copied by the copy kernel through
// the copying path, resp. from tensor to tensor.
//
//   node tests/bench/bench.mjs [--native build/bench-native.json]
//        [--md build/bench.md] [--dist dist/normlab.mjs] [--quick]
//        [--sizes 64x1024,1024x4096]
//
// Prints the tables, the ratios of each way normlab is called against each
// peer and a
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
    else if (a === '--sizes' && i + 1 < argv.length)
      o.sizes = argv[++i].split(',').map((s) => s.split('x').map(Number));
    else {
      console.error('usage: bench.mjs [--native FILE] [--md FILE] [--dist FILE] [--quick] [--sizes RxD,...]');
      process.exit(2);
    }
  }
  return o;
}
const opts = parseArgs(process.argv.slice(2));
const budget = opts.quick ? { ...DEFAULT_BUDGET, rounds: 1, warmupMs: 30, budgetMs: 80 } : DEFAULT_BUDGET;

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
    ['onnxruntime-web', 'onnxruntime-node', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-wasm'].map((n) => [
      n,
      pkgVersion(n),
    ]),
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
  loadNormlab && normlabAdapter(loadNormlab, 'simd128', { mode: 'out' }),
  loadNormlab && normlabAdapter(loadNormlab, 'simd128', { mode: 'tensor-in' }),
  loadNormlab && normlabAdapter(loadNormlab, 'simd128', { mode: 'resident' }),
  loadNormlab && normlabAdapter(loadNormlab, 'scalar'),
  loadNormlab && normlabAdapter(loadNormlab, 'scalar', { mode: 'resident' }),
  plainJs,
  ortWeb,
  tfjsWasm,
  ortNode,
].filter(Boolean);

const LABELS = {
  'normlab-simd': 'normlab wasm SIMD128',
  'normlab-simd-out': 'normlab wasm SIMD128, out=',
  'normlab-simd-tensor-in': 'normlab wasm SIMD128, tensor in',
  'normlab-simd-resident': 'normlab-simd resident',
  'normlab-scalar': 'normlab wasm scalar',
  'normlab-scalar-resident': 'normlab-scalar resident',
  'plain-js': 'plain JavaScript',
  'ort-web': 'onnxruntime-web (wasm)',
  'tfjs-wasm': 'tfjs-backend-wasm',
  'ort-node': 'onnxruntime-node (native)',
  'native': 'normlab native',
  'copy-wasm': 'WASM SIMD copy (ceiling)',
  'copy-wasm-resident': 'WASM SIMD copy, resident (ceiling)',
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
const simdResident = impls.find((i) => i.id === 'normlab-simd-resident');
if (simd && !simd.api.copyName) notes.push('normlab API has no copy entry point: WASM copy ceiling not measured');
// The copy ceiling of each way, measured in the same rounds as the cell.
const ceilings = [
  ['copy-wasm', simd],
  ['copy-wasm-resident', simdResident],
].filter(([, impl]) => impl?.api.copyName);

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
  `peers: ${Object.entries(env.peers)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`,
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
const CHECK_SIZES = [
  [64, 1024],
  [64, 4096],
];
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
      const y = p.read ? p.read() : await p.run();
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
    for (const [id, impl] of ceilings) prepared.set(id, await impl.api.prepare('copy', x, rows, dim, w));
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
const rowIds = [
  ...impls.map((i) => i.id),
  ...(native ? ['native'] : []),
  ...ceilings.map(([id]) => id),
  ...(native ? ['copy-native'] : []),
];
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
  text.push('', textTable(OP_TITLES[op], sizeHeaders, rows, 36));
  md.push('', `## ${OP_TITLES[op]}: median µs per call (GB/s)`, '');
  md.push(
    mdTable(
      ['implementation', ...sizeHeaders],
      rows.map((r) => ({
        label: r.label,
        cells: r.cells.map((c) => c.replace(/^(\S+) µs\s+(\S+) GB\/s$/, '$1 µs ($2 GB/s)')),
      })),
    ),
  );
}

// The two ways normlab is measured, each with the rows that play the same
// role for it: its copy ceiling and its scalar backend.
const VARIANTS = [
  {
    name: 'copying',
    base: 'normlab-simd',
    copy: 'copy-wasm',
    scalar: 'normlab-scalar',
    title: 'normlab-simd, copying API (arrays in, new array out)',
  },
  {
    name: 'resident',
    base: 'normlab-simd-resident',
    copy: 'copy-wasm-resident',
    scalar: 'normlab-scalar-resident',
    title: 'normlab-simd resident (tensors in and out, no copy)',
  },
].filter((v) => impls.some((i) => i.id === v.base));

// Ratio = peer time / base time: how many times faster the base is. Against
// a copy ceiling it is the fraction of copy speed reached.
const ratio = (op, size, id, base) => get(op, size, id) / get(op, size, base);
for (const v of VARIANTS) {
  text.push('', `${v.title}: speed-up vs each (peer time / its time; vs copy: fraction of copy speed)`);
  md.push(
    '',
    `## ${v.title}: speed-up`,
    '',
    `Peer time / ${v.base} time (higher is better for normlab). Against a copy ceiling: the fraction of copy speed it reaches.`,
  );
  for (const op of OPS) {
    const rows = rowIds
      .filter((id) => id !== v.base && opts.sizes.some((s) => Number.isFinite(get(op, s, id))))
      .map((id) => ({
        label: `vs ${LABELS[id] ?? id}`,
        cells: opts.sizes.map((s) => fmtRatio(ratio(op, s, id, v.base))),
      }));
    text.push('', textTable(`${OP_TITLES[op]} (${v.base})`, sizeHeaders, rows, 40, 12));
    md.push('', `### ${OP_TITLES[op]} (${v.base})`, '', mdTable([v.base, ...sizeHeaders], rows));
  }
}

// ---------------------------------------------------------------- targets
// peer 'copy' and 'scalar' stand for the variant's own copy ceiling and
// scalar backend (copying vs copying, resident vs resident).
const targets = [
  ...['rmsnorm', 'layernorm'].flatMap((op) => [
    { op, peer: 'ort-web', min: 8 },
    { op, peer: 'ort-node', min: 1.5 },
  ]),
  { op: 'rmsnorm', peer: 'copy', min: 0.6, sizes: [[64, 1024]] },
  { op: 'layernorm', peer: 'copy', min: 0.4, sizes: [[64, 1024]] },
  { op: 'softmax', peer: 'ort-web', min: 3 },
  { op: 'softmax', peer: 'tfjs-wasm', min: 3 },
  { op: 'rmsnorm', peer: 'scalar', min: 3 },
  { op: 'layernorm', peer: 'scalar', min: 3 },
];
const peerId = (t, v) => (t.peer === 'copy' ? v.copy : t.peer === 'scalar' ? v.scalar : t.peer);
const targetName = (t) => {
  const peer =
    t.peer === 'copy'
      ? 'its WASM copy (ceiling)'
      : t.peer === 'scalar'
        ? 'its wasm scalar'
        : (LABELS[t.peer] ?? t.peer);
  return `${OP_TITLES[t.op]} >= ${t.min}x ${peer}`;
};
text.push(
  '',
  `Targets (printed, not asserted), for each way normlab is called (${VARIANTS.map((v) => `${v.name} = ${v.base}`).join(', ')})`,
);
md.push(
  '',
  '## Targets',
  '',
  `Each target for each way normlab is called: ${VARIANTS.map((v) => `${v.name} = \`${v.base}\``).join(', ')}. "its" = the same way's copy ceiling or scalar backend.`,
  '',
);
md.push(
  '| target | way | ' + sizeHeaders.join(' | ') + ' | verdict |',
  '| --- | --- |' + ' ---: |'.repeat(opts.sizes.length) + ' --- |',
);
const summary = [];
for (const t of targets) {
  const sizes = t.sizes ?? opts.sizes;
  const name = targetName(t);
  const verdicts = [];
  for (const v of VARIANTS) {
    const peer = peerId(t, v);
    const vals = opts.sizes.map((s) =>
      sizes.some((z) => sizeName(z) === sizeName(s)) ? ratio(t.op, s, peer, v.base) : null,
    );
    const measured = vals.filter((x) => x !== null && Number.isFinite(x));
    const met = measured.filter((x) => x >= t.min).length;
    const verdict =
      measured.length === 0
        ? 'not measured'
        : met === measured.length
          ? 'MET'
          : met === 0
            ? 'NOT MET'
            : `partly met (${met}/${measured.length} sizes)`;
    const cells = vals.map((x) =>
      x === null ? '' : `${fmtRatio(x)}${Number.isFinite(x) ? (x >= t.min ? ' ok' : ' no') : ''}`,
    );
    text.push(`  ${name.padEnd(46)}${v.name.padEnd(10)}${cells.map((c) => c.padStart(12)).join('')}   ${verdict}`);
    md.push(`| ${name} | ${v.name} | ${cells.join(' | ')} | ${verdict} |`);
    summary.push({ ...t, variant: v.name, base: v.base, peerId: peer, vals, verdict });
    verdicts.push([v.name, verdict]);
  }
  const metBy = verdicts.filter(([, x]) => x === 'MET').map(([n]) => n);
  const partly = verdicts.filter(([, x]) => x.startsWith('partly')).map(([n, x]) => `${n} ${x}`);
  const line = metBy.length
    ? `met by ${metBy.join(' and ')}`
    : `met by neither way${partly.length ? ` (${partly.join('; ')})` : ''}`;
  text.push(`  ${''.padEnd(46)}-> ${line}`);
  md.push(`| | | ${opts.sizes.map(() => '').join(' | ')} | **${line}** |`);
}
text.push(`  (columns: ${sizeHeaders.join(', ')})`);

console.log(text.join('\n'));

// ---------------------------------------------------------------- files
mkdirSync(path.dirname(opts.md), { recursive: true });
writeFileSync(opts.md, md.join('\n') + '\n');
const jsonPath = opts.md.replace(/\.md$/, '') + '.json';
writeFileSync(
  jsonPath,
  JSON.stringify(
    {
      env,
      notes,
      budget,
      agreement,
      results: Object.fromEntries(results),
      targets: summary.map(({ op, peer, peerId: pid, variant, base, min, verdict, vals }) => ({
        op,
        peer: pid,
        role: peer,
        variant,
        base,
        min,
        verdict,
        ratios: vals,
      })),
    },
    null,
    2,
  ) + '\n',
);
const shown = (p) => (path.relative(process.cwd(), p).startsWith('..') ? p : path.relative(process.cwd(), p));
console.log(`\nwrote ${shown(opts.md)} and ${shown(jsonPath)}`);
