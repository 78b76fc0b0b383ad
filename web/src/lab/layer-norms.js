// The trained model's own "L2/tok across layers": what its numbers say
// (trainer.layerNorms() before the first step and after the last, as the
// runner keeps them), and how its table writes them.
//
// The lengths are means over the held-out window's tokens of each row's L2
// norm. In pre-norm the stream between layers is a sum that each sub-block
// adds to, so it may grow; in post-norm it is the MLP-side norm's output,
// pinned like the norms', and what grows instead is the sum each norm
// receives, the stream plus its sub-block's output.
import { significant } from '../format.js';

// A growth from the first layer's input to the last layer's output beyond
// this factor is "grows"; below its inverse, "shrinks"; else "about level".
export const GROWTH_FACTOR = 1.5;
// Norm outputs within this relative distance of sqrt(d) are "pinned".
export const PINNED_WITHIN = 0.1;

// The number as its float32 is: the shortest decimal that reads back as the
// same float32, so that a table cell holds the trainer's value exactly.
export function float32Text(value) {
  if (!Number.isFinite(value)) return String(value);
  for (let digits = 1; digits < 10; digits++) {
    const text = value.toPrecision(digits);
    if (Math.fround(Number(text)) === value) return String(Number(text));
  }
  return String(value);
}

// The sums the norms read, layer by layer: in post-norm each layer's
// MLP-side norm input (the stream plus the MLP's output); in pre-norm the
// stream itself (the attention-side norm's input).
function growingSums(probe, placement) {
  return streamNormed(placement) ? probe.norms.postAttentionNorm.in : probe.residual;
}

// Placements whose stream between layers is a norm's output: post-norm, and
// DeepNorm (post-norm on a sum that weights the stream up).
export const streamNormed = (placement) => placement === 'post' || placement === 'deepnorm';

const TREND_KEYS = {
  stream: { grows: 'streamGrows', level: 'streamLevel', shrinks: 'streamShrinks' },
  sums: { grows: 'sumsGrows', level: 'sumsLevel', shrinks: 'sumsShrinks' },
};

function trend(first, last) {
  const factor = last / first;
  return { factor, way: factor >= GROWTH_FACTOR ? 'grows' : factor <= 1 / GROWTH_FACTOR ? 'shrinks' : 'level' };
}

// The sentences for one probe (a run's before or after), as { key, params }:
//   stream{Grows,Level,Shrinks}   pre-norm: the stream from layer 0's input
//                                 to the last layer's output, and the factor
//   sums{Grows,Level,Shrinks}     post-norm: the sum the MLP-side norm of
//                                 each layer reads, first layer to last
//   normsPinned / normsSpread     the norm outputs' range against sqrt(d)
// when: 'before' | 'after'; placement: the run's (trainer options); hidden: d.
export function layerNormsReading(probe, { when, placement, hidden }) {
  const sentences = [];
  const sums = growingSums(probe, placement);
  const first = sums[0];
  const last = sums.at(-1);
  const { factor, way } = trend(first, last);
  const keys = TREND_KEYS[streamNormed(placement) ? 'sums' : 'stream'];
  sentences.push({ key: keys[way], params: { when, first, last, factor, lastLayer: probe.residual.length - 2 } });
  if (probe.norms) {
    const outs = [...probe.norms.inputNorm.out, ...probe.norms.postAttentionNorm.out];
    const sqrtD = Math.sqrt(hidden);
    const low = Math.min(...outs);
    const high = Math.max(...outs);
    const off = Math.max(Math.abs(low - sqrtD), Math.abs(high - sqrtD)) / sqrtD;
    // Pinned outputs equal to the digits the reading shows (3 significant)
    // are one length, not a range from a number to itself.
    const one = significant(low, 3) === significant(high, 3);
    sentences.push({
      key: off > PINNED_WITHIN ? 'normsSpread' : one ? 'normsPinnedAt' : 'normsPinned',
      params: { when, low, high, sqrtD, d: hidden, percent: off * 100 },
    });
  }
  return sentences;
}
