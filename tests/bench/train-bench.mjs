// The trainer's speed against tfjs-backend-wasm, in one run: median ms per
// training step (forward, backward and Adam) of the demonstration config
// (D 32, H 4, L 24, T 64, B 8, post-norm) and its 6-layer neighbour,
//   ours        wasm SIMD128 and wasm scalar through the JS API
//               (trainer.step(1)), native from normlab_bench_train's JSON,
//               and the step and matmul inside wasm without the JS API
//               (normlab_bench_train built for wasm, when given)
//   tfjs        @tensorflow/tfjs-backend-wasm 4.22 (SIMD, one thread), the
//               same model (peers/tfjs-trainer.mjs) in three formulations
// measured in interleaved rounds (ours, each tfjs formulation, ours scalar,
// again), so a slow spell on this shared machine hits all of them.
// The JS API's SIMD128 step is also timed in CPU time (process.cpuUsage),
// which leaves out the waits for a core that a loaded machine adds to wall
// time.
// FLOPs per step are counted for each (train/options.h: flops_per_step; the
// peer's own count per formulation) and their ratios printed. Targets are printed,
// never asserted.
// Then the trainer's variants (qkNorm, the placements beyond pre and post,
// the norms beyond RMSNorm and LayerNorm): each one's median ms per step in
// wasm SIMD128 beside plain pre-norm's, the demonstration shape at L 24,
// measured in the same interleaved rounds. --variants measures only those.
//
//   node tests/bench/train-bench.mjs [--dist dist/normlab.mjs] [--native build/bench-train-native.json]
//        [--wasm-bench build/wasm] [--md build/bench-train.md] [--quick] [--variants]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadApi } from './peers/normlab.mjs';
import { FORMULATIONS, createTfjsTrainer, loadTfjsWasm, tfjsFlopsPerStep } from './peers/tfjs-trainer.mjs';
import { mdTable, textTable } from './report.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

function parseArgs(argv) {
  const o = {
    dist: path.join(ROOT, 'dist/normlab.mjs'),
    native: path.join(ROOT, 'build/bench-train-native.json'),
    wasmBench: path.join(ROOT, 'build/wasm'),
    md: path.join(ROOT, 'build/bench-train.md'),
    quick: false,
    variantsOnly: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') o.quick = true;
    else if (a === '--variants') o.variantsOnly = true;
    else if (['--dist', '--native', '--wasm-bench', '--md'].includes(a) && i + 1 < argv.length) {
      o[{ '--dist': 'dist', '--native': 'native', '--wasm-bench': 'wasmBench', '--md': 'md' }[a]] = path.resolve(
        argv[++i],
      );
    } else {
      console.error(
        'usage: node tests/bench/train-bench.mjs [--dist FILE] [--native FILE] [--wasm-bench DIR] [--md FILE] [--quick] [--variants]',
      );
      process.exit(2);
    }
  }
  return o;
}

// Ours: 2 M N K per product, causal attention counted per (query, key <=
// query) pair (src/train/options.cpp: flops_per_step).
function flopsPerStep({ layers, hidden: D, heads: H, seq: T, batch: B }) {
  const V = 256,
    F = 4 * D,
    dh = D / H;
  const layer = 2 * T * (3 * D * D + D * D + F * D + D * F) + 2 * ((2 * H * dh * T * (T + 1)) / 2);
  return B * 3 * (layers * layer + 2 * T * V * D);
}

function median(values) {
  const v = [...values].sort((a, b) => a - b);
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// CPU time of this process (user + system), ms. On this shared machine a
// step's wall time also counts the spells the process waits for a core; its
// CPU time does not (it still counts the slowdown of sharing caches).
function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

// One trainer per implementation; `rounds` rounds of `perRound` timed steps
// each, after `warmup` steps. Returns { wall, cpu }: id -> per-step ms.
async function measure(impls, { warmup, rounds, perRound }) {
  const wall = new Map(impls.map(({ id }) => [id, []]));
  const cpu = new Map(impls.map(({ id }) => [id, []]));
  for (const impl of impls) for (let i = 0; i < warmup; i++) impl.step();
  for (let r = 0; r < rounds; r++) {
    for (const impl of impls) {
      const n = impl.slow ? Math.max(1, perRound >> 1) : perRound;
      for (let i = 0; i < n; i++) {
        const c0 = cpuMs();
        const t0 = performance.now();
        impl.step();
        wall.get(impl.id).push(performance.now() - t0);
        cpu.get(impl.id).push(cpuMs() - c0);
      }
    }
  }
  return { wall, cpu };
}

// normlab_bench_train built for wasm (CMake: normlab_bench_train_wasm_*):
// its JSON, or null when the build has none.
function wasmBench(dir, flavour, quick) {
  const file = path.join(dir, `normlab_bench_train_wasm_${flavour}.cjs`);
  if (!existsSync(file)) return null;
  const json = path.join(ROOT, `build/bench-train-wasm-${flavour}.json`);
  const args = [file, '--text', path.join(ROOT, 'web/data/training-text.zh.txt'), '--json', json];
  if (quick || flavour === 'scalar') args.push('--quick');
  process.stdout.write(execFileSync(process.execPath, args, { encoding: 'utf8' }));
  return JSON.parse(readFileSync(json, 'utf8'));
}

// The variants against plain pre-norm, each trainer stepped in turn in
// every round. Returns the text table's rows.
const VARIANTS = [
  ['pre (plain)', { placement: 'pre' }],
  ['post', { placement: 'post' }],
  ['pre, qkNorm', { placement: 'pre', qkNorm: true }],
  ['deepnorm', { placement: 'deepnorm' }],
  ['output', { placement: 'output' }],
  ['sandwich', { placement: 'sandwich' }],
  ['pre, dyt', { placement: 'pre', norm: 'dyt' }],
];

async function measureVariants(nl, quick) {
  const impls = [];
  for (const [id, options] of VARIANTS) {
    const trainer = await nl.createTrainer({ layers: 24, ...options });
    impls.push({ id, trainer, step: () => trainer.step(1) });
  }
  const budget = quick ? { warmup: 1, rounds: 2, perRound: 2 } : { warmup: 2, rounds: 4, perRound: 5 };
  const { wall, cpu } = await measure(impls, budget);
  for (const i of impls) i.trainer.delete();
  const plain = median(cpu.get(VARIANTS[0][0]));
  return VARIANTS.map(([id]) => ({
    label: id,
    cells: [
      median(wall.get(id)).toFixed(1),
      median(cpu.get(id)).toFixed(1),
      `${(median(cpu.get(id)) / plain).toFixed(2)}x`,
    ],
  }));
}

function printVariants(rows) {
  console.log(
    textTable(
      'Trainer variants, ms per step in wasm SIMD128 (JS API), D 32, H 4, L 24, T 64, B 8, RMSNorm',
      ['wall ms', 'CPU ms', 'CPU / pre'],
      rows,
      24,
      12,
    ),
  );
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const loadNormlab = await loadApi(o.dist);
  const simd = await loadNormlab({ backend: 'simd128' });
  if (o.variantsOnly) {
    const load = os.loadavg();
    console.log(`Node ${process.version}, load average ${load.map((l) => l.toFixed(2)).join(' ')}`);
    printVariants(await measureVariants(simd, o.quick));
    console.log(
      `load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    simd.dispose();
    return;
  }
  const scalar = await loadNormlab({ backend: 'scalar' });
  const tfjs = await loadTfjsWasm();
  const load = os.loadavg();
  console.log(
    `Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'}, load average ${load.map((l) => l.toFixed(2)).join(' ')}; tfjs-backend-wasm ${tfjs.version}, ${tfjs.threads} thread`,
  );

  const native = existsSync(o.native) ? JSON.parse(readFileSync(o.native, 'utf8')) : null;
  const inWasm = { simd: wasmBench(o.wasmBench, 'simd', o.quick), scalar: wasmBench(o.wasmBench, 'scalar', o.quick) };

  const results = [];
  for (const layers of [24, 6]) {
    const demo = await simd.createTrainer({ layers });
    const config = demo.config;
    const ours = [
      { id: 'ours-simd', trainer: demo },
      { id: 'ours-scalar', trainer: await scalar.createTrainer({ layers }), slow: true },
    ];
    const peers = FORMULATIONS.map((f) => ({ id: `tfjs-${f}`, trainer: createTfjsTrainer(config, f), slow: true }));
    const impls = [ours[0], ...peers, ours[1]].map((i) => ({ ...i, step: () => i.trainer.step(1) }));
    const budget = o.quick
      ? { warmup: 1, rounds: 2, perRound: 2 }
      : { warmup: 2, rounds: 3, perRound: layers > 6 ? 6 : 10 };
    const { wall: times, cpu } = await measure(impls, budget);
    const ms = Object.fromEntries([...times].map(([id, t]) => [id, median(t)]));
    const cpuMsOf = Object.fromEntries([...cpu].map(([id, t]) => [id, median(t)]));
    const samples = Object.fromEntries([...times].map(([id, t]) => [id, t.length]));
    for (const i of ours) i.trainer.delete();
    for (const p of peers) p.trainer.dispose();
    const flops = flopsPerStep(config);
    const tfFlops = Object.fromEntries(FORMULATIONS.map((f) => [f, tfjsFlopsPerStep(config, f)]));
    const nativeStep = native?.steps.find((s) => s.layers === layers) ?? null;
    const wasmStep = inWasm.simd?.steps.find((s) => s.layers === layers) ?? null;
    const bestTf = Math.min(...FORMULATIONS.map((f) => ms[`tfjs-${f}`]));
    results.push({
      layers,
      config,
      flops,
      tfFlops,
      ms,
      cpuMs: cpuMsOf,
      samples,
      nativeMs: nativeStep?.median_ms ?? null,
      wasmCppMs: wasmStep?.median_ms ?? null,
      bestTf,
    });
  }

  const fmt = (v) => (v === null || v === undefined ? '—' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
  const gf = (flops, ms) => (ms ? (flops / (ms * 1e6)).toFixed(1) : '—');
  const headers = results.map((r) => `L ${r.layers}: ms (GFLOP/s)`);
  const row = (label, get, flopsOf = (r) => r.flops) => ({
    label,
    cells: results.map((r) => `${fmt(get(r))} (${gf(flopsOf(r), get(r))})`),
  });
  const rows = [
    row('normlab, wasm SIMD128 (JS API)', (r) => r.ms['ours-simd']),
    row('normlab, wasm SIMD128 (JS API), CPU time', (r) => r.cpuMs['ours-simd']),
    row('normlab, wasm SIMD128 (C++ loop in wasm)', (r) => r.wasmCppMs),
    row('normlab, native (-O3 -march=native)', (r) => r.nativeMs),
    row('normlab, wasm scalar (JS API)', (r) => r.ms['ours-scalar']),
    ...FORMULATIONS.map((f) =>
      row(
        `tfjs-backend-wasm, ${f}`,
        (r) => r.ms[`tfjs-${f}`],
        (r) => r.tfFlops[f],
      ),
    ),
    {
      label: 'best tfjs / normlab SIMD128',
      cells: results.map((r) => `${(r.bestTf / r.ms['ours-simd']).toFixed(1)}x`),
    },
    ...FORMULATIONS.map((f) => ({
      label: `GFLOP per step: normlab / tfjs ${f} (ratio)`,
      cells: results.map(
        (r) =>
          `${(r.flops / 1e9).toFixed(3)} / ${(r.tfFlops[f] / 1e9).toFixed(3)} (${(r.tfFlops[f] / r.flops).toFixed(2)})`,
      ),
    })),
  ];
  console.log(
    textTable(
      'Trainer, ms per step (forward + backward + Adam), D 32, H 4, T 64, B 8, post-norm',
      headers,
      rows,
      54,
      24,
    ),
  );
  console.log('samples per cell:', results.map((r) => `L ${r.layers} ${JSON.stringify(r.samples)}`).join('; '));

  const matmul = (json, label) =>
    json
      ? `${label}: ${json.matmul.map((m) => `${m.shape.replace(/\s+/g, ' ')} ${m.gflops.toFixed(1)}`).join('; ')} GFLOP/s`
      : `${label}: not measured`;
  console.log(matmul(inWasm.simd, 'matmul, wasm SIMD128'));
  console.log(matmul(inWasm.scalar, 'matmul, wasm scalar'));
  console.log(matmul(native, 'matmul, native'));

  const demo = results[0];
  console.log('\nTargets, printed, not asserted:');
  const check = (ok, text) => console.log(`  ${ok ? 'met    ' : 'NOT met'}  ${text}`);
  check(
    demo.ms['ours-simd'] <= 40,
    `<= 40 ms per step at L 24 in wasm SIMD128: ${demo.ms['ours-simd'].toFixed(1)} ms (CPU time ${demo.cpuMs['ours-simd'].toFixed(1)} ms)`,
  );
  check(
    demo.bestTf / demo.ms['ours-simd'] >= 5,
    `>= 5x faster than the best tfjs formulation: ${(demo.bestTf / demo.ms['ours-simd']).toFixed(1)}x`,
  );
  for (const r of results) {
    const near = FORMULATIONS.filter((f) => Math.abs(r.tfFlops[f] / r.flops - 1) <= 0.1);
    const ratios = FORMULATIONS.map((f) => `${f} ${(r.tfFlops[f] / r.flops).toFixed(3)}`).join(', ');
    check(
      near.length > 0,
      `L ${r.layers}: a tfjs formulation within 10% of our FLOPs (${near.join(', ') || 'none'}; ratios ${ratios})`,
    );
    if (near.length > 0) {
      const best = Math.min(...near.map((f) => r.ms[`tfjs-${f}`]));
      check(
        best / r.ms['ours-simd'] >= 5,
        `L ${r.layers}: >= 5x faster than the best of those: ${(best / r.ms['ours-simd']).toFixed(1)}x`,
      );
    }
  }

  const variantRows = await measureVariants(simd, o.quick);
  printVariants(variantRows);

  const loadEnd = os.loadavg();
  console.log(`load average at the end ${loadEnd.map((l) => l.toFixed(2)).join(' ')}`);
  const md = [
    `Node ${process.version}, load average ${load.map((l) => l.toFixed(2)).join(' ')} at the start and ${loadEnd.map((l) => l.toFixed(2)).join(' ')} at the end, tfjs-backend-wasm ${tfjs.version} (${tfjs.threads} thread), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    mdTable(['per training step (median)', ...headers], rows),
    '',
    mdTable(['variant, L 24, wasm SIMD128 (median)', 'wall ms', 'CPU ms', 'CPU / pre'], variantRows),
  ].join('\n');
  writeFileSync(o.md, md + '\n');
  writeFileSync(
    o.md.replace(/\.md$/, '.json'),
    JSON.stringify({ load, loadEnd, tfjs, results, wasm: inWasm, native }, null, 1),
  );
  console.log(`\nwrote ${path.relative(ROOT, o.md)}`);
  simd.dispose();
  scalar.dispose();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
