// Reproducible randomness for the page's fixed illustrations: the
// playground's vector of roughly standard-normal entries and the learned-gain
// widget's sample of features, the same on every visit (and in every test).

// mulberry32: a tiny 32-bit generator, good enough to draw demo data.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// k distinct indices of 0..n-1, drawn with the seed (a partial
// Fisher-Yates shuffle), in increasing order.
export function seededSample(n, k, seed) {
  const uniform = mulberry32(seed);
  const pool = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(uniform() * (n - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, k).sort((a, b) => a - b);
}

// Box-Muller turns pairs of uniforms into normals.
export function seededNormalVector(dim, seed) {
  const uniform = mulberry32(seed);
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i += 2) {
    const u = 1 - uniform();
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    out[i] = r * Math.cos(2 * Math.PI * v);
    if (i + 1 < dim) out[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return out;
}
