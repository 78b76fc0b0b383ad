// The training lab's reading of its runs, chosen and filled from the
// computed numbers only: which runs learned, which stalled, what the first
// layer's gradient did, what warmup changed, and how the reader's guess
// compares. Returns sentences as { key, params } (keys of lab/en.js); the
// numbers in params are raw, the widget formats them.
import { LAB_RUNS } from '../predictions.js';

// How a run ended, as the lab's reading, the sweep and the tests judge it.
// A run learned when its final training loss (the mean of its last
// FINAL_WINDOW steps' losses) ends at least LEARNED_BELOW under the unigram
// entropy of the training text (the loss of a model that knows only byte
// frequencies); it is leaving the plateau ('between') when at least
// STALLED_WITHIN under it. Otherwise it stalled, in one of three ways:
//   vanished   no gradient is left to compare: over the final window, no
//              step has a finite ratio of the first layer's gradient norm
//              to the last layer's, the last layer's being exactly 0 (a
//              norm whose output no longer depends on its input, as a tanh
//              past where its slope rounds to 0 in float32). Nothing moves
//              any more.
//   collapsed  the gradient reaching the first layer collapsed: over the
//              final window, the median of the first layer's gradient norm
//              over the last layer's is below RATIO_COLLAPSED. The loss
//              barely tells the first layers anything any more.
//   plateau    the gradients stay alive through the stack, but the loss
//              sits at the entropy (within STALLED_WITHIN): a slow start.
// A run still above the plateau is 'above' (a run cut short, or a loss
// spike), whatever its gradients. Whether the first layers still move is a third
// figure, the relative update size (updateRatio): Adam divides each
// parameter's step by its gradient's running size, so even a collapsed
// gradient may move a layer, in directions the loss hardly informs.
export const LEARNED_BELOW = 0.3;
export const STALLED_WITHIN = 0.2;
export const RATIO_COLLAPSED = 1e-2;
export const FINAL_WINDOW = 20;

// The mean of the last FINAL_WINDOW steps' losses (all of them in a shorter
// run). The held-out loss is reported beside it, not judged: the held-out
// text's own byte frequencies differ from the training text's, so even a
// model that knows the training text's exactly scores above its entropy
// there.
export function finalLoss(run) {
  const last = run.loss.slice(-FINAL_WINDOW);
  return last.reduce((sum, v) => sum + v, 0) / last.length;
}

// The median over the last FINAL_WINDOW steps of first[i] / last[i]
// (NaN when none is finite).
export function ratioMedian(first, last) {
  const n = first.length;
  const ratios = [];
  for (let i = Math.max(0, n - FINAL_WINDOW); i < n; i++) {
    const r = first[i] / last[i];
    if (Number.isFinite(r)) ratios.push(r);
  }
  if (!ratios.length) return NaN;
  ratios.sort((a, b) => a - b);
  const mid = ratios.length >> 1;
  return ratios.length % 2 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
}

export const gradientRatio = (run) => ratioMedian(run.gradFirst, run.gradLast);
export const updateRatio = (run) => ratioMedian(run.updateFirst, run.updateLast);

// 'learned' | 'between' | 'vanished' | 'collapsed' | 'plateau' | 'above' |
// 'diverged', from a finished run's numbers (what the committed tables keep
// of a run; a table's JSON keeps a ratio that is not a number as null).
export function outcomeOf({ diverged, final, entropy, gradRatio }) {
  if (diverged) return 'diverged';
  const gap = entropy - final;
  if (gap >= LEARNED_BELOW) return 'learned';
  if (gap >= STALLED_WITHIN) return 'between';
  if (gap < -STALLED_WITHIN) return 'above';
  if (!Number.isFinite(gradRatio)) return 'vanished';
  return gradRatio < RATIO_COLLAPSED ? 'collapsed' : 'plateau';
}

// The same for a run as the runner records it, or 'none' while it is not
// done.
export function runOutcome(run) {
  if (run.status === 'diverged') return 'diverged';
  if (run.status !== 'done') return 'none';
  return outcomeOf({ diverged: false, final: finalLoss(run), entropy: run.entropy, gradRatio: gradientRatio(run) });
}

export const isStall = (outcome) => outcome === 'vanished' || outcome === 'collapsed' || outcome === 'plateau';

export const gradientRatios = (run) => run.gradFirst.map((g, i) => g / run.gradLast[i]);
export const updateRatios = (run) => run.updateFirst.map((u, i) => u / run.updateLast[i]);

const OUTCOME_KEY = {
  learned: 'runLearned',
  between: 'runBetween',
  vanished: 'runVanished',
  collapsed: 'runCollapsed',
  plateau: 'runPlateau',
  above: 'runAbove',
};

// runs: the runner's records; settings: { warmup, lr } of the contrast;
// steps per run; guess: the reader's prediction record ({ g: [ids] }), or
// null.
export function labConclusions(runs, { settings, steps, guess }) {
  const sentences = [];
  const byId = Object.fromEntries(runs.map((run) => [run.id, run]));
  for (const run of runs) {
    const outcome = runOutcome(run);
    if (outcome === 'none') continue;
    if (outcome === 'diverged') {
      sentences.push({ key: 'runDiverged', params: { run: run.id, step: run.divergedAt } });
      continue;
    }
    const final = finalLoss(run);
    const update = updateRatio(run);
    // A collapsed gradient may still move a layer under Adam (see above).
    const moving = outcome === 'collapsed' && update >= RATIO_COLLAPSED;
    sentences.push({
      key: moving ? 'runCollapsedMoving' : OUTCOME_KEY[outcome],
      params: {
        run: run.id,
        final,
        window: Math.min(FINAL_WINDOW, run.loss.length),
        heldout: run.heldout,
        entropy: run.entropy,
        // How far below the plateau (above it, for 'above').
        gap: Math.abs(run.entropy - final),
        ratio: gradientRatio(run),
        update,
      },
    });
  }
  const cold = byId.post;
  const warm = byId.warmup;
  if (warm && settings.warmup > steps)
    sentences.push({ key: 'warmupLonger', params: { warmup: settings.warmup, steps, lr: settings.lr } });
  if (cold?.status === 'done' && warm?.status === 'done') {
    // Helped, held back (a warmup still under way keeps the rate low, so
    // the run has moved less), or no clear difference either way.
    const gain = finalLoss(cold) - finalLoss(warm);
    sentences.push({
      key: gain >= LEARNED_BELOW ? 'warmupHelped' : gain <= -LEARNED_BELOW ? 'warmupSlower' : 'warmupSame',
      params: { warmup: settings.warmup, warm: finalLoss(warm), cold: finalLoss(cold) },
    });
  }
  // The guess is about the chapter's runs only: a variant trained beside
  // them is neither guessed nor counted, and a contrast without them says
  // nothing of the guess.
  const ran = runs.map((run) => run.id).filter((id) => LAB_RUNS.includes(id));
  if (
    ran.length &&
    guess &&
    Array.isArray(guess.g) &&
    runs.every((run) => runOutcome(run) !== 'none' || run.status === 'failed')
  ) {
    const guessed = guess.g.filter((id) => ran.includes(id));
    const learned = runs.filter((run) => ran.includes(run.id) && runOutcome(run) === 'learned').map((run) => run.id);
    const same = guessed.length === learned.length && guessed.every((id) => learned.includes(id));
    // When no run learned, the sentence names none of them: its own wording
    // ("结果没有一组学起来", not "结果学起来的是没有一组").
    const key = learned.length ? (same ? 'guessMatch' : 'guessDiffer') : same ? 'guessMatchNone' : 'guessDifferNone';
    sentences.push({ key, params: { guessed, learned } });
  }
  return sentences;
}
