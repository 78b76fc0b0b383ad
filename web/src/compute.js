// Everything the widgets show that is a computed number comes from here, and
// here every such number comes from the wasm kernels (nl). Widgets never call
// the kernels themselves; they get these plain results through update().
import {
  CALCULATOR_MAX_ENTRIES,
  EPS_CHOICES,
  EXAMPLE_A,
  MAX_PROMPT_TOKENS,
  PLAYGROUND_DIM,
  PLAYGROUND_SEED,
  PLAYGROUND_SPREAD,
  SOFTMAX_L2_UNIT,
  SOFTMAX_SCORES,
  SOFTMAX_TOKENS,
  STRETCH_CHAPTER_MAX,
  STRETCH_CHAPTER_MIN,
  STRETCH_LOG10_MAX,
  STRETCH_LOG10_MIN,
  ZONE_DRIFT_FROM,
  ZONE_SATURATED_FROM,
} from './constants.js';
import { seededNormalVector } from './seeded-vector.js';
import { parseVector } from './vector-parse.js';

// growth: how the scores follow the magnitude. 'linear' is the chapter's
// widget (scale = L2 / 32: one side of the dot product grows); 'square' is
// attention when queries and keys both come from a stream that grows: each
// grows by L2 / 32, so their dot product by its square.
export const softmaxScale = (l2, growth = 'linear') =>
  growth === 'square' ? (l2 / SOFTMAX_L2_UNIT) ** 2 : l2 / SOFTMAX_L2_UNIT;

export function computeSoftmax(nl, l2, growth = 'linear') {
  const scale = softmaxScale(l2, growth);
  const logits = SOFTMAX_SCORES.map((s) => s * scale);
  const probs = Array.from(nl.softmax(logits));
  const { maxProb, entropy } = nl.distributionStats(probs);
  const top = maxProb[0];
  const zone = top >= ZONE_SATURATED_FROM ? 'saturated' : top >= ZONE_DRIFT_FROM ? 'drift' : 'informative';
  return {
    l2,
    growth,
    scale,
    tokens: SOFTMAX_TOKENS,
    scores: SOFTMAX_SCORES,
    logits,
    probs,
    maxProb: top,
    entropy: entropy[0],
    // The entropy of the uniform distribution: the most there can be.
    maxEntropy: Math.log(SOFTMAX_SCORES.length),
    zone,
  };
}

// The softmax widget's data: the probabilities at l2 with the scores growing
// as `growth` says, and what the other way of growing gives at the same l2.
export function computeSoftmaxView(nl, l2, growth = 'linear') {
  const other = computeSoftmax(nl, l2, growth === 'square' ? 'linear' : 'square');
  return {
    ...computeSoftmax(nl, l2, growth),
    other: { growth: other.growth, scale: other.scale, maxProb: other.maxProb },
  };
}

// The chapter's example is stated with eps = 1e-6 whatever the page's eps
// setting, so the text around it stays true.
export function computeWorkedExample(nl) {
  const eps = EPS_CHOICES[0];
  return { x: EXAMPLE_A, eps, ...nl.rmsnormSteps(EXAMPLE_A, { eps }) };
}

// The calculator's steps for one vector, through the kernels. The kernels
// read float32, so the steps start from the float32 values. The squares
// (and LayerNorm's variance and centred entries) of entries past ~1.8e19
// overflow float32 although the kernels' results stay finite: a row whose
// float sums are not finite is recomputed by the double-precision reference
// (src/normlab/rmsnorm.hpp, layernorm.hpp). Such steps are shown in double
// precision too, as that reference computes them, and `overflow` says which
// column holds them, so no step reads Infinity beside a finite result.
export function calculatorSteps(nl, values, eps) {
  const x = Float32Array.from(values);
  const n = x.length;
  const rms = nl.rmsnormSteps(x, { eps });
  const ln = nl.layernormSteps(x, { eps });
  const overflow = { rms: false, ln: false };
  if (!rms.squares.every(Number.isFinite)) {
    overflow.rms = true;
    rms.squares = Float64Array.from(x, (v) => v * v);
    rms.meanSquare = rms.squares.reduce((a, b) => a + b, 0) / n;
  }
  if (!Number.isFinite(ln.variance) || !ln.centered.every(Number.isFinite)) {
    overflow.ln = true;
    const mean = x.reduce((a, b) => a + b, 0) / n;
    ln.centered = Float64Array.from(x, (v) => v - ln.mean);
    ln.variance = x.reduce((sum, v) => sum + (v - mean) ** 2, 0) / n;
  }
  // Rows: x, RMSNorm's y, LayerNorm's y.
  const stats = nl.stats([...x, ...rms.y, ...ln.y], { dim: n });
  const xL2 = Number.isFinite(stats.l2[0]) ? stats.l2[0] : Math.hypot(...x);
  return {
    x,
    eps,
    rms,
    ln,
    overflow,
    xL2,
    rmsL2: stats.l2[1],
    lnL2: stats.l2[2],
    // mean(y²) of RMSNorm's output: 1 when eps is negligible.
    yMeanSquare: stats.rms[1] ** 2,
  };
}

// The calculator keeps its last valid result so a typo does not blank it.
export function createCalculatorModel() {
  let lastGood = null;
  return function computeCalculator(nl, text, eps) {
    const parsed = parseVector(text, { max: CALCULATOR_MAX_ENTRIES });
    if (!parsed.ok) return { text, eps, error: parsed.error, result: lastGood };
    try {
      lastGood = calculatorSteps(nl, parsed.values, eps);
      return { text, eps, error: null, result: lastGood };
    } catch (error) {
      return { text, eps, error: { code: 'errKernel', params: { message: error.message } }, result: lastGood };
    }
  };
}

// Output L2 further than this (relative) from sqrt(d) counts as "eps broke
// the invariance": 0.5% is where a 3-significant-digit read-out first moves.
const INVARIANCE_TOLERANCE = 0.005;
const SWEEP_POINTS = 81;
const TABLE_STRETCHES = [1e-4, 1e-3, 1e-2, 0.1, 1, 10];

export function createPlaygroundModel() {
  const base = seededNormalVector(PLAYGROUND_DIM, PLAYGROUND_SEED).map((v) => v * PLAYGROUND_SPREAD);
  const sweeps = new Map();

  // Input and output L2 for several stretch factors in one kernel call each:
  // the rows are the stretched copies of the base vector.
  function lengths(nl, stretches, eps) {
    const x = new Float32Array(stretches.length * PLAYGROUND_DIM);
    stretches.forEach((s, row) => {
      for (let i = 0; i < PLAYGROUND_DIM; i++) x[row * PLAYGROUND_DIM + i] = base[i] * s;
    });
    const y = nl.rmsnorm(x, { dim: PLAYGROUND_DIM, eps });
    const inStats = nl.stats(x, { dim: PLAYGROUND_DIM });
    const outL2 = nl.stats(y, { dim: PLAYGROUND_DIM }).l2;
    return stretches.map((stretch, row) => ({
      stretch,
      inputL2: inStats.l2[row],
      outputL2: outL2[row],
      meanSquare: inStats.rms[row] ** 2,
    }));
  }

  return function computePlayground(nl, stretch, eps) {
    if (!sweeps.has(eps)) {
      const span = STRETCH_LOG10_MAX - STRETCH_LOG10_MIN;
      const stretches = Array.from(
        { length: SWEEP_POINTS },
        (_, i) => 10 ** (STRETCH_LOG10_MIN + (span * i) / (SWEEP_POINTS - 1)),
      );
      sweeps.set(eps, { sweep: lengths(nl, stretches, eps), tableRows: lengths(nl, TABLE_STRETCHES, eps) });
    }
    const [current] = lengths(nl, [stretch], eps);
    const sqrtD = Math.sqrt(PLAYGROUND_DIM);
    const holds = Math.abs(current.outputL2 - sqrtD) / sqrtD <= INVARIANCE_TOLERANCE;
    // Slider positions are powers of ten computed in floating point; allow
    // for the last bit when comparing with the chapter's bounds.
    const inside = stretch >= STRETCH_CHAPTER_MIN * (1 - 1e-9) && stretch <= STRETCH_CHAPTER_MAX * (1 + 1e-9);
    const regime = inside ? 'inside' : stretch > STRETCH_CHAPTER_MAX ? 'above' : holds ? 'belowHolds' : 'belowBreaks';
    return { ...current, eps, dim: PLAYGROUND_DIM, regime, ...sweeps.get(eps) };
  };
}

// ---------------------------------------------------------------------------
// The demo panel's synthetic model: what its runs show (the model instances
// and when they run: demo-controller.js).

const utf8 = new TextEncoder();

export function promptTokenCount(prompt) {
  return utf8.encode(prompt).length;
}

// The problem with a prompt, in the page's message codes, or null.
export function promptProblem(prompt, minTokens = 1) {
  const count = promptTokenCount(prompt);
  if (count === 0) return { code: 'errEmpty', params: {} };
  if (count > MAX_PROMPT_TOKENS) return { code: 'errTooLong', params: { count, max: MAX_PROMPT_TOKENS } };
  if (count < minTokens) return { code: 'errTooShort', params: { count, min: minTokens } };
  return null;
}

// The gradient view's data from one stack's backward pass (model.gradients()).
export function gradientView(g, placement) {
  // The rescaling factors come with the backward pass (its forward run): no
  // second forward pass for them.
  const rescale = g.postNorm;
  return {
    error: null,
    placement,
    layers: g.layers,
    tokens: g.tokens,
    loss: g.loss,
    layer: Array.from(g.layer),
    residual: Array.from(g.residual),
    rescale: rescale && { factor: Array.from(rescale.meanRescale), product: Array.from(rescale.meanProduct) },
  };
}

// What a pre-norm stack's norms do to the gradient, read off its forward
// view (forwardView below): a norm's backward multiplies the gradient that
// crosses it by about sqrt(d) rms(g) / ||x||, which is also how its forward
// changes a vector's length, output L2 over input L2. Per layer l,
// factor[2l] is the input norm's and factor[2l + 1] the post-attention
// norm's (token-averaged L2s); streamL2 is the residual stream's L2 per
// token entering each layer, then leaving the last (L + 1 values); top, the
// probability of the model's top guess for the byte after the prompt.
export function normScaling(view) {
  const l2 = (probe) => view.probes[probe].l2;
  const [inputIn, inputOut, postIn, postOut] = [
    'inputNorm.in',
    'inputNorm.out',
    'postAttentionNorm.in',
    'postAttentionNorm.out',
  ].map(l2);
  const factor = [];
  for (let l = 0; l < view.layers; l++) factor.push(inputOut[l] / inputIn[l], postOut[l] / postIn[l]);
  return { factor, streamL2: [...view.residualL2], top: view.next.probs[0] };
}

// What the gain widget reads off a set of gains: how many of the shown
// values amplify (> 1) or suppress (< 1), their extremes, and the RMS over
// all the norm's gains (nl.stats), the factor its outputs' length carries.
export function gainStats(nl, values, all) {
  return {
    amplified: values.filter((g) => g > 1).length,
    suppressed: values.filter((g) => g < 1).length,
    min: Math.min(...values),
    max: Math.max(...values),
    rmsAll: nl.stats(Float32Array.from(all)).rms[0],
  };
}

// The gain widget's data for one norm a lab run trained (lab-widget.js
// trainedRuns): all its gains, read as the sample's are, and its output's
// L2 per token the lab measured on the held-out window after training
// (null if it has none).
export function trainedGainView(nl, run, layer, which) {
  const values = run.gains.layers[layer][which];
  return {
    source: 'trained',
    run: { id: run.id, options: run.options, steps: run.steps, diverged: run.diverged, serial: run.serial },
    layer,
    which,
    hidden: values.length,
    features: values.map((_, i) => i),
    values,
    ...gainStats(nl, values, values),
    outputL2: run.normOut?.[which]?.[layer] ?? null,
  };
}

// The gain widget's data: the gain sample (demo-controller.js gains()) and
// the sampled norm's output L2 per token in the forward view, the length the
// gains' RMS predicts (null without a norm: the probe is then its input).
export function gainView(gains, view) {
  if (!gains) return null;
  const outputL2 = view.config.norm === 'none' ? null : view.probes[`${gains.which}.out`].l2[gains.layer];
  return { ...gains, source: 'synthetic', outputL2 };
}

// The forward views' data: per-layer averages over the prompt's tokens.
// Its arrays are copies, not views of the run's one buffer, which also holds
// every token's statistics: a kept view holds only what it shows.
export function forwardView(run, config, prompt) {
  const L = run.layers;
  const copy = (stats) => Object.fromEntries(Object.entries(stats).map(([stat, values]) => [stat, values.slice()]));
  const probes = Object.fromEntries(run.probeNames.map((name) => [name, copy(run.probes[name].mean)]));
  const T = run.tokens.length;
  // The entropy a uniform attention row would have, averaged over the query
  // tokens: token t sees t + 1 tokens, so at most log(t + 1) nats.
  let uniformEntropy = 0;
  for (let t = 0; t < T; t++) uniformEntropy += Math.log(t + 1);
  uniformEntropy /= T;
  return {
    config,
    prompt,
    layers: L,
    hidden: run.hidden,
    heads: run.heads,
    sqrtD: Math.sqrt(run.hidden),
    tokens: T,
    tokenLabels: run.tokenLabels,
    probes,
    // The stream entering each layer, then leaving the last one (the final
    // norm's input): L + 1 points.
    residualL2: [...probes['residual.in'].l2, run.final['finalNorm.in'].mean.l2],
    final: Object.fromEntries(Object.entries(run.final).map(([name, value]) => [name, value.mean])),
    attention: {
      maxProb: run.attention.meanMaxProb.slice(),
      entropy: run.attention.meanEntropy.slice(),
      uniformEntropy,
    },
    postNorm: run.postNorm && { factor: run.postNorm.meanRescale.slice(), product: run.postNorm.meanProduct.slice() },
    next: { tokens: Array.from(run.next.tokens), probs: Array.from(run.next.probs) },
  };
}
