// The playground's synthetic input: a reproducible vector of roughly
// standard-normal entries, so every visit (and every test) sees the same one.

// mulberry32: a tiny 32-bit generator, good enough to draw demo data.
function mulberry32(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// Box-Muller turns pairs of uniforms into normals.
export function seededNormalVector(dim, seed) {
  const uniform = mulberry32(seed)
  const out = new Float32Array(dim)
  for (let i = 0; i < dim; i += 2) {
    const u = 1 - uniform()
    const v = uniform()
    const r = Math.sqrt(-2 * Math.log(u))
    out[i] = r * Math.cos(2 * Math.PI * v)
    if (i + 1 < dim) out[i + 1] = r * Math.sin(2 * Math.PI * v)
  }
  return out
}
