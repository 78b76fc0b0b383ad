// Double-precision references of the JS API's ops with every documented
// special case (src/normlab/reference.h), for the numerics stress test.
// One row at a time: x is the row (float32 values), the result a
// Float64Array or an object of numbers. Scalars the kernels receive as
// float32 (eps, temperature) are rounded to float32 here too.

// y = x r g, r = 1 / sqrt(mean(x^2) + eps), r = 0 when mean(x^2) + eps == 0
// (all-zero row, eps = 0). In double a row holding NaN gives NaN, one
// holding +-inf gives r = 0: 0 for its finite entries, NaN for the others.
export function rmsnormRow(x, gain, eps) {
  const D = x.length;
  let sumSq = 0;
  for (let i = 0; i < D; i++) sumSq += x[i] * x[i];
  const v = sumSq / D + Math.fround(eps);
  const r = v === 0 ? 0 : 1 / Math.sqrt(v);
  const y = new Float64Array(D);
  for (let i = 0; i < D; i++) y[i] = x[i] * r * (gain ? gain[i] : 1);
  return y;
}

// y = (x - mean) r g + b, r = 1 / sqrt(var + eps), r = 0 when var + eps == 0
// (constant row, eps = 0). A row holding NaN or +-inf gives NaN throughout.
// Also returns mean and r, which the stress test uses to tell well- from
// ill-conditioned rows.
export function layernormRow(x, gain, bias, eps) {
  const D = x.length;
  let sum = 0;
  for (let i = 0; i < D; i++) sum += x[i];
  const mean = sum / D;
  let sumSqDev = 0;
  for (let i = 0; i < D; i++) sumSqDev += (x[i] - mean) ** 2;
  const v = sumSqDev / D + Math.fround(eps);
  const r = v === 0 ? 0 : 1 / Math.sqrt(v);
  const y = new Float64Array(D);
  for (let i = 0; i < D; i++) y[i] = (x[i] - mean) * r * (gain ? gain[i] : 1) + (bias ? bias[i] : 0);
  return { y, mean, r };
}

// Any NaN -> all NaN; else k entries of +inf -> 1/k each, 0 elsewhere; else
// all -inf (fully masked) -> all 0; else the max-subtracted softmax of
// x / temperature, -inf entries exactly 0.
export function softmaxRow(x, temperature) {
  const D = x.length;
  const t = Math.fround(temperature);
  const p = new Float64Array(D);
  let hasNaN = false;
  let posInf = 0;
  let max = -Infinity;
  for (let i = 0; i < D; i++) {
    if (Number.isNaN(x[i])) hasNaN = true;
    else if (x[i] === Infinity) posInf++;
    else if (x[i] > max) max = x[i];
  }
  if (hasNaN) return p.fill(NaN);
  if (posInf > 0) {
    for (let i = 0; i < D; i++) p[i] = x[i] === Infinity ? 1 / posInf : 0;
    return p;
  }
  if (max === -Infinity) return p;
  let sum = 0;
  for (let i = 0; i < D; i++) sum += p[i] = Math.exp((x[i] - max) / t);
  for (let i = 0; i < D; i++) p[i] /= sum;
  return p;
}

// Plain IEEE evaluation in double; maxAbs keeps a NaN.
export function statsRow(x) {
  const D = x.length;
  let sum = 0;
  let sumSq = 0;
  let maxAbs = 0;
  for (let i = 0; i < D; i++) {
    sum += x[i];
    sumSq += x[i] * x[i];
    const a = Math.abs(x[i]);
    if (Number.isNaN(a) || a > maxAbs) maxAbs = a;
  }
  const mean = sum / D;
  let sumSqDev = 0;
  for (let i = 0; i < D; i++) sumSqDev += (x[i] - mean) ** 2;
  const variance = sumSqDev / D;
  return { l2: Math.sqrt(sumSq), mean, variance, std: Math.sqrt(variance), rms: Math.sqrt(sumSq / D), maxAbs };
}

// entropy = -sum p log p (0 log 0 = 0), maxProb = max p (NaN sticks).
export function distributionRow(p) {
  let sum = 0;
  let max = -Infinity;
  for (let i = 0; i < p.length; i++) {
    if (p[i] !== 0) sum += p[i] * Math.log(p[i]);
    if (Number.isNaN(p[i]) || p[i] > max) max = p[i];
  }
  return { entropy: 0 - sum, maxProb: max };
}
