// Figures the lessons quote from the demo panel's forward view (compute.js's
// forwardView): the calculator's challenges, the exercise's model answer and
// the breakdown's std-vs-RMS pointer read them here, so the numbers they
// print are the ones the demo panel shows. Small plain objects, cheap to
// compare between paints.
import { EXERCISE_LAYERS } from './constants.js';

// The norm inputs, whose mean LayerNorm would subtract.
export const NORM_INPUTS = Object.freeze([
  { box: 'inputNormIn', probe: 'inputNorm.in' },
  { box: 'postNormIn', probe: 'postAttentionNorm.in' },
]);

// One probe's token-averaged statistics at a layer, and how far its std is
// from its RMS. Per token RMS² = mean² + std², so std ≤ RMS, and a gap near 0
// at every token means every token's mean is near 0: `gap` is that relative
// gap (RMS − std) / RMS of the averages, `meanShare` the mean's size as a
// fraction of the RMS.
export function stdRmsGap(view, probe, layer) {
  const stats = view.probes[probe];
  const mean = stats.mean[layer];
  const std = stats.std[layer];
  const rms = stats.rms[layer];
  return { mean, std, rms, gap: rms > 0 ? (rms - std) / rms : 0, meanShare: rms > 0 ? Math.abs(mean) / rms : 0 };
}

// The largest std-vs-RMS gap of the norm inputs over all the view's layers.
export function largestGap(view) {
  let largest = 0;
  for (const { probe } of NORM_INPUTS) {
    for (let layer = 0; layer < view.layers; layer++) largest = Math.max(largest, stdRmsGap(view, probe, layer).gap);
  }
  return largest;
}

// What the calculator's challenges quote: the input norm's L2/tok in and out
// at the first and the last layer, and the largest std-vs-RMS gap.
export function challengeFacts(view) {
  if (!view) return null;
  const { norm, placement } = view.config;
  const last = view.layers - 1;
  if (norm === 'none') return { norm, placement, depth: view.layers };
  const inL2 = view.probes['inputNorm.in'].l2;
  const outL2 = view.probes['inputNorm.out'].l2;
  return {
    norm,
    placement,
    depth: view.layers,
    first: { in: inL2[0], out: outL2[0] },
    last: { layer: last, in: inL2[last], out: outL2[last] },
    largestGap: largestGap(view),
  };
}

// What the exercise's model answer quotes: at each of the exercise's layers
// (those the view has), the stream entering the layer and the input norm's
// L2/tok in and out; and the range of the stream entering layers 1 and up
// (and leaving the last), which post-norm keeps near sqrt(d).
export function exerciseFacts(view) {
  if (!view) return null;
  const { norm, placement } = view.config;
  const at = (layer) => ({
    layer,
    residual: view.residualL2[layer],
    in: norm === 'none' ? null : view.probes['inputNorm.in'].l2[layer],
    out: norm === 'none' ? null : view.probes['inputNorm.out'].l2[layer],
  });
  const later = view.residualL2.slice(1);
  return {
    norm,
    placement,
    depth: view.layers,
    sqrtD: view.sqrtD,
    layers: EXERCISE_LAYERS.filter((layer) => layer < view.layers).map(at),
    later: later.length ? { lo: Math.min(...later), hi: Math.max(...later) } : null,
  };
}
