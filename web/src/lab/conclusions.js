// The training lab's reading of its runs, chosen and filled from the
// computed numbers only: which runs learned, which stalled, what the first
// layer's gradient did, what warmup changed, and how the reader's guess
// compares. Returns sentences as { key, params } (keys of lab/en.js); the
// numbers in params are raw, the widget formats them.

// The criteria, as the trainer's thesis test and the committed sweep
// apply them: a run learned when its final training loss (the mean of its
// last FINAL_WINDOW steps' losses) ends at least LEARNED_BELOW under the
// unigram entropy of the training text,
// stalled when within STALLED_WITHIN of it; otherwise it is between the two
// ('between') or still above the plateau ('above', a short run).
export const LEARNED_BELOW = 0.3;
export const STALLED_WITHIN = 0.2;
// A first/last-layer gradient ratio below this at the last step reads as
// collapsed (stalled runs end far below it, healthy ones near 1).
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

export function runOutcome(run) {
  if (run.status === 'diverged') return 'diverged';
  if (run.status !== 'done') return 'none';
  const gap = run.entropy - finalLoss(run);
  if (gap >= LEARNED_BELOW) return 'learned';
  if (Math.abs(gap) <= STALLED_WITHIN) return 'stalled';
  return gap > 0 ? 'between' : 'above';
}

export const gradientRatios = (run) => run.gradFirst.map((g, i) => g / run.gradLast[i]);

// runs: the runner's records; settings: { warmup, lr }; steps per run;
// guess: the reader's prediction record ({ g: [ids] }), or null.
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
    const gap = run.entropy - final;
    const key = { learned: 'runLearned', stalled: 'runStalled', between: 'runBetween', above: 'runAbove' }[outcome];
    // gap: how far below the plateau (above it, for 'above'); a stalled run
    // is said to be within STALLED_WITHIN of it.
    const said = outcome === 'stalled' ? STALLED_WITHIN : Math.abs(gap);
    sentences.push({
      key,
      params: {
        run: run.id,
        final,
        window: Math.min(FINAL_WINDOW, run.loss.length),
        heldout: run.heldout,
        entropy: run.entropy,
        gap: said,
      },
    });
  }
  for (const run of runs) {
    const ratios = gradientRatios(run).filter(Number.isFinite);
    if (run.status !== 'done' || !ratios.length) continue;
    const low = Math.min(...ratios);
    const last = ratios.at(-1);
    if (last < RATIO_COLLAPSED) {
      sentences.push({
        key: 'ratioCollapsed',
        params: { run: run.id, ratio: last, low, lowStep: ratios.indexOf(low) + 1 },
      });
    } else sentences.push({ key: 'ratioKept', params: { run: run.id, low, high: Math.max(...ratios) } });
  }
  const cold = byId.post;
  const warm = byId.warmup;
  if (warm && settings.warmup > steps)
    sentences.push({ key: 'warmupLonger', params: { warmup: settings.warmup, steps, lr: settings.lr } });
  if (cold?.status === 'done' && warm?.status === 'done') {
    const helped = finalLoss(cold) - finalLoss(warm) >= LEARNED_BELOW;
    sentences.push({
      key: helped ? 'warmupHelped' : 'warmupSame',
      params: { warmup: settings.warmup, warm: finalLoss(warm), cold: finalLoss(cold) },
    });
  }
  if (guess && Array.isArray(guess.g) && runs.every((run) => runOutcome(run) !== 'none' || run.status === 'failed')) {
    const ran = runs.map((run) => run.id);
    const guessed = guess.g.filter((id) => ran.includes(id));
    const learned = runs.filter((run) => runOutcome(run) === 'learned').map((run) => run.id);
    const same = guessed.length === learned.length && guessed.every((id) => learned.includes(id));
    sentences.push({ key: same ? 'guessMatch' : 'guessDiffer', params: { guessed, learned } });
  }
  return sentences;
}
