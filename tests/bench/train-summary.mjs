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
  return {
    outcome: runOutcome(record),
    final: finalLoss(record),
    entropy: record.entropy,
    heldout: run.diverged ? null : trainer.evaluate(),
    gradRatio: ratioMedian(record.gradFirst, record.gradLast),
    updateRatio: ratioMedian(record.updateFirst, record.updateLast),
    divergedAt,
    lossSha256: lossDigest(run.loss),
    curves: {
      loss: blockMeans(record.loss).map((v) => round(v)),
      gradRatio: blockMeans(ratio(record.gradFirst, record.gradLast)).map((v) => round(v, 3)),
      updateFirst: blockMeans(record.updateFirst).map((v) => round(v, 3)),
      updateLast: blockMeans(record.updateLast).map((v) => round(v, 3)),
    },
  };
}
