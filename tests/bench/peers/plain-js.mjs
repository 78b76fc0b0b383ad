// Plain JavaScript: the loops a course author writes over Float32Arrays.
export const id = 'plain-js';
export const label = 'plain JavaScript';

export function rmsnorm(x, { dim, gain, eps }) {
  const out = new Float32Array(x.length);
  for (let off = 0; off < x.length; off += dim) {
    let sumsq = 0;
    for (let i = 0; i < dim; i++) sumsq += x[off + i] * x[off + i];
    const scale = 1 / Math.sqrt(sumsq / dim + eps);
    for (let i = 0; i < dim; i++) out[off + i] = x[off + i] * scale * gain[i];
  }
  return out;
}

export function layernorm(x, { dim, gain, bias, eps }) {
  const out = new Float32Array(x.length);
  for (let off = 0; off < x.length; off += dim) {
    let mean = 0;
    for (let i = 0; i < dim; i++) mean += x[off + i];
    mean /= dim;
    let variance = 0;
    for (let i = 0; i < dim; i++) variance += (x[off + i] - mean) ** 2;
    variance /= dim;
    const scale = 1 / Math.sqrt(variance + eps);
    for (let i = 0; i < dim; i++) out[off + i] = (x[off + i] - mean) * scale * gain[i] + bias[i];
  }
  return out;
}

export function softmax(x, { dim, temperature = 1 }) {
  const out = new Float32Array(x.length);
  for (let off = 0; off < x.length; off += dim) {
    let max = -Infinity;
    for (let i = 0; i < dim; i++) if (x[off + i] > max) max = x[off + i];
    let sum = 0;
    for (let i = 0; i < dim; i++) {
      const e = Math.exp((x[off + i] - max) / temperature);
      out[off + i] = e;
      sum += e;
    }
    for (let i = 0; i < dim; i++) out[off + i] /= sum;
  }
  return out;
}

export async function load() {
  return {
    version: `Node ${process.version}`,
    async prepare(op, x, rows, dim, { gain, bias, rmsEps, lnEps, temperature }) {
      const run = {
        rmsnorm: () => rmsnorm(x, { dim, gain, eps: rmsEps }),
        layernorm: () => layernorm(x, { dim, gain, bias, eps: lnEps }),
        softmax: () => softmax(x, { dim, temperature }),
      }[op];
      return { run };
    },
  };
}
