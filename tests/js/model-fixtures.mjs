// Prompts and helpers shared by the model tests (tests/js/model-*.test.mjs).

export const BACKENDS = ['simd128', 'scalar'];

// Prompts of 16+ tokens, English, Chinese and mixed: attention statistics
// need rows long enough to spread over.
export const LONG_PROMPTS = [
  'The quick brown fox jumps over the lazy dog.',
  '层归一化让深层网络可以训练。', // "Layer normalization makes deep networks trainable."
  'Pre-norm 预归一化 keeps the highway clean',
];

// Every prompt the shape claims must hold for, the short ones included.
export const ALL_PROMPTS = [...LONG_PROMPTS, 'RMSNorm', 'x', '你好'];

// The benchmark's prompt: 16 ASCII characters, 16 tokens.
export const PROMPT_16 = 'RMSNorm keeps it';

export const SQRT_D = 32; // default hidden 1024

// Mean of arr[from..to).
export function meanOf(arr, from = 0, to = arr.length) {
  let sum = 0;
  for (let i = from; i < to; i++) sum += arr[i];
  return sum / (to - from);
}

// Every typed array and number in a result, by path ('probes.mlp.out.mean.l2').
export function leaves(value, path = '') {
  if (ArrayBuffer.isView(value) || typeof value === 'number') return [[path, value]];
  if (Array.isArray(value))
    return value.every((v) => typeof v === 'string') ? [] : value.flatMap((v, i) => leaves(v, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  }
  return [];
}
