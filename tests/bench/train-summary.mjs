// What the sweep, the robustness table and their tests keep of a trained
// run: its outcome by the lab's own rule (web/src/lab/conclusions.js), the
// numbers that rule reads, curves every CURVE_EVERY steps for the page's
// charts, and a SHA-256 of its per-step losses' float32 bytes, so that a
// run trained again elsewhere (another process, a browser) can be compared
// bit for bit.
import { createHash } from 'node:crypto';

import { finalLoss, runOutcome, ratioMedian } from '../../web/src/lab/conclusions.js';

export const CURVE_EVERY = 10;

export const lossDigest = (loss) =>
  createHash('sha256')
    .update(new Uint8Array(loss.buffer, loss.byteOffset, loss.byteLength))
    .digest('hex');

// Means over consecutive blocks of CURVE_EVERY steps.
function blockMeans(values) {
  const out = [];
  for (let i = 0; i < values.length; i += CURVE_EVERY) {
    const block = values.slice(i, i + CURVE_EVERY);
    out.push(block.reduce((sum, v) => sum + v, 0) / block.length);
  }
  return out;
}

const round = (x, digits = 4) => (Number.isFinite(x) ? Number(x.toPrecision(digits)) : null);

// Per step, the largest of `width` values (a step's row of a steps x width array).
function rowMax(values, width) {
  const out = [];
  for (let i = 0; i < values.length; i += width) out.push(Math.max(...values.subarray(i, i + width)));
  return out;
}

// The probes current models' norms are about, where the trainer reports them:
// the largest attention logit q.k / sqrt(dh) of each layer (run.maxLogit,
// steps x L) and the stream's norm entering each layer and leaving the last
// (run.streamNorm, steps x (L + 1)), each from the step's own forward pass.
//   logitPeak    the largest logit of any layer at any step
//   logitEnd     the largest of any layer in the last CURVE_EVERY steps
//   streamFirst  the stream's norm per layer at the first step (L + 1)
//   streamLast   the same at the last step
//   streamGrowth at the last step, leaving the last layer over entering the first
function probeSummary(run, layers) {
  const steps = run.loss.length;
  const logit = rowMax(run.maxLogit, layers);
  const width = layers + 1;
  const streamFirst = Array.from(run.streamNorm.subarray(0, width));
  const streamLast = Array.from(run.streamNorm.subarray((steps - 1) * width, steps * width));
  return {
    figures: {
      logitPeak: round(Math.max(...logit)),
      logitEnd: round(Math.max(...logit.slice(-CURVE_EVERY))),
      streamFirst: streamFirst.map((v) => round(v)),
      streamLast: streamLast.map((v) => round(v)),
      streamGrowth: round(streamLast[layers] / streamLast[0]),
    },
    curves: { maxLogit: blockMeans(logit).map((v) => round(v, 3)) },
  };
}

// trainer: after its run; run: the TrainRun of all its steps (step(steps)).
export function runSummary(trainer, run) {
  const record = {
    status: run.diverged ? 'diverged' : 'done',
    loss: Array.from(run.loss),
    gradFirst: Array.from(run.gradFirst),
    gradLast: Array.from(run.gradLast),
    updateFirst: Array.from(run.updateFirst),
    updateLast: Array.from(run.updateLast),
    entropy: trainer.unigramEntropy,
  };
  const divergedAt = run.diverged ? record.loss.findIndex((v) => !Number.isFinite(v)) + 1 : null;
  const ratio = (a, b) => a.map((v, i) => v / b[i]);
  const probes = run.maxLogit ? probeSummary(run, trainer.config.layers) : { figures: {}, curves: {} };
  return {
    outcome: runOutcome(record),
    final: finalLoss(record),
    entropy: record.entropy,
    heldout: run.diverged ? null : trainer.evaluate(),
    gradRatio: ratioMedian(record.gradFirst, record.gradLast),
    updateRatio: ratioMedian(record.updateFirst, record.updateLast),
    divergedAt,
    lossSha256: lossDigest(run.loss),
    ...probes.figures,
    curves: {
      ...probes.curves,
      loss: blockMeans(record.loss).map((v) => round(v)),
      gradRatio: blockMeans(ratio(record.gradFirst, record.gradLast)).map((v) => round(v, 3)),
      updateFirst: blockMeans(record.updateFirst).map((v) => round(v, 3)),
      updateLast: blockMeans(record.updateLast).map((v) => round(v, 3)),
    },
  };
}
