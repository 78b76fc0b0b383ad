// Writes the hand-made seed inputs of the fuzz targets into
// tests/fuzz/corpus/<target>/seed-<name>, in each target's input layout (see
// the comment at the top of tests/fuzz/<target>.cpp). The corpus also holds
// inputs the fuzzers found (found-<what> for those that exposed a bug, the
// others named by their hash, as libFuzzer names them); this script leaves
// those alone. Run it after changing an input layout:
//
//   node tests/fuzz/seeds.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const corpus = join(dirname(fileURLToPath(import.meta.url)), 'corpus');

function write(target, name, bytes) {
  mkdirSync(join(corpus, target), { recursive: true });
  writeFileSync(join(corpus, target, `seed-${name}`), bytes);
}

// fuzz_kernels: 16 header bytes, then float32 bit patterns.
const EPS = { 0: 0, 1e-6: 1, 1e-5: 2, 1: 3, flt_min: 4, denorm_min: 5, flt_max: 6, raw: 7 };
const TEMPERATURE = { 1: 0, 0.5: 1, 2: 2, 1e-3: 3, denorm_min: 4, 1e36: 5, 2e36: 6, flt_max: 7, raw: 8 };
function kernels({
  T,
  D,
  gain = false,
  bias = false,
  accumulate = false,
  eps = EPS[1e-5],
  temperature = 0,
  xShift = 0,
  dyShift = 0,
  pool,
}) {
  const header = Buffer.alloc(16);
  header[0] = T - 1;
  header.writeUInt16LE(D - 1, 1);
  header[3] = (gain ? 1 : 0) | (bias ? 2 : 0) | (accumulate ? 4 : 0);
  header[4] = eps;
  header[9] = temperature;
  header.writeInt8(xShift, 14);
  header.writeInt8(dyShift, 15);
  const values = Buffer.alloc(4 * pool.length);
  pool.forEach((v, i) => values.writeFloatLE(v, 4 * i));
  return Buffer.concat([header, values]);
}

// Deterministic values in [-1, 1) (a linear congruential sequence).
function spread(n, seed, scale = 1, shift = 0) {
  let s = seed >>> 0;
  return Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return shift + scale * (s / 2 ** 31 - 1);
  });
}

const all = { T: 3, gain: true, bias: true, accumulate: true };
write('fuzz_kernels', 'plain', kernels({ ...all, D: 67, pool: spread(97, 1, 2) }));
write('fuzz_kernels', 'long-rows', kernels({ ...all, T: 2, D: 2100, pool: spread(251, 2) }));
write('fuzz_kernels', 'huge', kernels({ ...all, D: 33, eps: EPS[0], pool: [3e38, -2e38, 1e19, -1.8e19, 1, 3.4e38] }));
write('fuzz_kernels', 'tiny', kernels({ ...all, D: 19, eps: EPS[0], pool: [1e-38, -1e-40, 1.4e-45, 0, -2e-39] }));
write('fuzz_kernels', 'eps-zero-zero-rows', kernels({ T: 4, D: 16, eps: EPS[0], pool: [0, -0] }));
write(
  'fuzz_kernels',
  'nan-and-inf-rows',
  kernels({ ...all, T: 5, D: 9, pool: [1, 2, NaN, 3, -1, Infinity, 4, -Infinity] }),
);
write(
  'fuzz_kernels',
  'masked-softmax',
  kernels({
    T: 4,
    D: 8,
    temperature: TEMPERATURE[0.5],
    pool: [-Infinity, -Infinity, -Infinity, 2, -Infinity, -Infinity, -Infinity, -Infinity, -Infinity],
  }),
);
write(
  'fuzz_kernels',
  'ill-conditioned-layernorm',
  kernels({ ...all, D: 129, eps: EPS[0], pool: spread(61, 3, 1e-3, 1e6) }),
);
write(
  'fuzz_kernels',
  'temperature-extremes',
  kernels({ T: 2, D: 40, temperature: TEMPERATURE[2e36], pool: [-3e38, 3e38, 1, 0] }),
);
// dx = r (u - xhat c) and p (dy - dot) overflowing float for dy near FLT_MAX
// while the exact dx is finite (rmsnorm/layernorm/softmax.hpp handle it).
write(
  'fuzz_kernels',
  'gradients-near-flt-max',
  kernels({ T: 1, D: 4, eps: EPS[0], pool: [4, 4, 4, -4, 3e38, -3e38, -3e38, 0] }),
);
write(
  'fuzz_kernels',
  'shifted-gradients',
  kernels({ ...all, D: 23, xShift: -60, dyShift: 100, pool: spread(37, 4, 3) }),
);

// fuzz_model: choice bytes for layers, hidden, heads, norm, placement, eps,
// seed (index into the lists in fuzz_model.cpp), two top_k bytes (value + 20),
// the split byte, then the prompts.
function model(choices, topK, first, second) {
  const k = topK + 20;
  const prompts = Buffer.concat([Buffer.from(first, 'utf8'), Buffer.from(second, 'utf8')]);
  return Buffer.concat([Buffer.from([...choices, k & 0xff, k >> 8, Buffer.byteLength(first, 'utf8')]), prompts]);
}
write('fuzz_model', 'pre-rmsnorm', model([1, 0, 1, 0, 0, 0, 1], 5, 'Hello', 'The cat sat on the mat.'));
write('fuzz_model', 'post-layernorm', model([0, 1, 2, 1, 1, 2, 0], 256, '你好，世界', 'ab'));
write(
  'fuzz_model',
  'no-norm',
  model([1, 0, 0, 2, 0, 1, 2], 1, 'x', 'a much longer prompt that the buffers must grow for'),
);
write('fuzz_model', 'bad-options', model([3, 4, 3, 3, 2, 4, 3], 0, '', 'z'.repeat(70)));
