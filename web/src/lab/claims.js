// What the page's own prose says about training, computed from the lab's
// committed tables (web/data, ./build.sh sweep) at build time, per page
// language (each language's runs train on its own text): web/build.mjs
// bundles the numbers into main.js, where the placement section, the
// takeaways, quiz questions 2 and 6 and the gradient panel quote them, and fails
// the build when claimProblems() finds that the tables no longer say what
// those sentences say.
import { LAB_DEFAULTS, LAB_SHAPE } from './runs.js';
import { depthsAtRate, robustnessTable, sweepTable, windowAt } from './sweep.js';

const RUNS = ['pre', 'post', 'warmup'];

export function pageClaims(sweepJson, robustJson, lang) {
  const sweep = sweepTable(sweepJson, lang);
  const robust = robustnessTable(robustJson, lang);
  const { lr, layers } = LAB_DEFAULTS;
  const counted = (run) => robust.counts[run]?.[robust.claims[run].outcome] ?? 0;
  return {
    steps: sweep.steps,
    seeds: sweep.grid.seeds.length,
    lr,
    layers,
    // The lab's head size: QK-norm's ceiling on a score is its root (quiz
    // question 7).
    headSize: LAB_SHAPE.hidden / LAB_SHAPE.heads,
    warmup: sweep.warmup,
    depths: sweep.grid.layers,
    total: sweep.grid.lr.length,
    rates: [...sweep.grid.lr],
    // At the lab's learning rate: the depths where each run learned in most
    // seeds, and where it did not.
    atRate: Object.fromEntries(RUNS.map((id) => [id, depthsAtRate(sweep, id, lr)])),
    // Per run, per depth: at how many of the sweep's learning rates it
    // learned in most seeds (its window's width on the grid), and the
    // window's ends.
    windows: Object.fromEntries(
      RUNS.map((id) => [id, sweep.grid.layers.map((depth) => ({ layers: depth, ...windowAt(sweep, id, depth) }))]),
    ),
    // The default contrast over the robustness table's seeds.
    robust: {
      seeds: robust.seeds.length,
      pre: counted('pre'),
      post: counted('post'),
      warmup: counted('warmup'),
      post6: counted('post6'),
    },
  };
}

// The sentences' claims, each checked on the numbers: a list of what no
// longer holds (empty when all do).
export function claimProblems(c) {
  const problems = [];
  const fail = (claim) => problems.push(claim);
  const shallow = c.depths[0];
  const { post, warmup, pre } = c.atRate;
  // "Post-norm without warmup trains at 6 layers and stalls at the lab's 24,
  // at the lab's learning rate."
  if (!post.learnedAt.includes(shallow)) fail(`post-norm at lr ${c.lr} does not learn at ${shallow} layers`);
  if (!post.failedAt.includes(c.layers)) fail(`post-norm at lr ${c.lr} does not stall at ${c.layers} layers`);
  // "Warmup lets it train at 24."
  if (!warmup.learnedAt.includes(c.layers))
    fail(`post-norm with warmup at lr ${c.lr} does not learn at ${c.layers} layers`);
  // "Pre-norm trains at that learning rate at every depth up to 24."
  const upTo = c.depths.filter((d) => d <= c.layers);
  if (!upTo.every((d) => pre.learnedAt.includes(d)))
    fail(`pre-norm at lr ${c.lr} does not learn at every depth up to ${c.layers}`);
  // "Post-norm's window narrows as depth grows."
  const width = (id) => c.windows[id].map((w) => w.count);
  const postWidth = width('post');
  if (postWidth.some((n, i) => i > 0 && n > postWidth[i - 1]))
    fail(`post-norm's window widens somewhere with depth: ${postWidth}`);
  if (!(postWidth.at(-1) < postWidth[0]))
    fail(`post-norm's window is no narrower at ${c.depths.at(-1)} than at ${shallow} layers`);
  // "Warmup widens it."
  const warmWidth = width('warmup');
  if (warmWidth.some((n, i) => n < postWidth[i]))
    fail(`warmup narrows post-norm's window somewhere: ${warmWidth} vs ${postWidth}`);
  if (!warmWidth.some((n, i) => n > postWidth[i]))
    fail(`warmup widens post-norm's window nowhere: ${warmWidth} vs ${postWidth}`);
  // "Pre-norm keeps it wide": at every depth at least as wide as post-norm's
  // with warmup, and at the deepest wider than post-norm's without.
  const preWidth = width('pre');
  if (preWidth.some((n, i) => n < warmWidth[i]))
    fail(`pre-norm's window is narrower than warmup's somewhere: ${preWidth} vs ${warmWidth}`);
  if (!(preWidth.at(-1) > postWidth.at(-1)))
    fail(`pre-norm's window is not wider than post-norm's at ${c.depths.at(-1)} layers`);
  // Quiz question 6: "pre-norm's window is at least as wide as the other
  // two at every depth" (with warmup above, without here); and, as its
  // explanation quotes the window at
  // the lab's depth, "the lab's learning rate is inside pre-norm's window
  // there and outside post-norm's".
  if (preWidth.some((n, i) => n < postWidth[i]))
    fail(`pre-norm's window is narrower than post-norm's somewhere: ${preWidth} vs ${postWidth}`);
  // "At every depth pre-norm's window reaches a higher rate than either of
  // the others."
  c.windows.pre.forEach((w, i) => {
    const others = [c.windows.post[i].hi, c.windows.warmup[i].hi];
    if (w.hi === null || others.some((hi) => hi !== null && hi >= w.hi))
      fail(`pre-norm's window at ${w.layers} layers reaches no higher rate than the others': ${w.hi} vs ${others}`);
  });
  const windowAtLab = (id) => c.windows[id].find((w) => w.layers === c.layers);
  if (!windowAtLab('pre')?.learned.includes(c.lr))
    fail(`lr ${c.lr} is outside pre-norm's window at ${c.layers} layers`);
  if (windowAtLab('post')?.learned.includes(c.lr) !== false)
    fail(`lr ${c.lr} is not outside post-norm's window at ${c.layers} layers`);
  // The lab's own contrast, over the robustness table's seeds.
  const most = Math.ceil(c.robust.seeds * 0.8);
  for (const run of ['pre', 'post', 'warmup', 'post6']) {
    if (c.robust[run] < most)
      fail(`the default contrast's ${run} run holds in ${c.robust[run]} of ${c.robust.seeds} seeds`);
  }
  return problems;
}

// The variants' table (web/data/variant-sweep.json, tests/bench/
// variant-sweep.mjs): what the After pre-norm section quotes of it. Per run
// of VARIANT_RUNS: how many of its seeds learned at each learning rate and
// depth, over the whole grid, and the largest attention logit any of its
// steps gave (finite steps only: a diverged run's later steps are NaN).
export function variantClaims(table) {
  const { grid } = table;
  const rowsOf = (run, where = () => true) => table.rows.filter((r) => r.run === run && where(r));
  const learned = (rows) => rows.filter((r) => r.outcome === 'learned').length;
  const peak = (rows) => Math.max(...rows.map((r) => r.logitPeak).filter(Number.isFinite));
  const atLab = (r) => r.layers === LAB_DEFAULTS.layers && r.lr === LAB_DEFAULTS.lr;
  const atHigh = (r) => r.layers === Math.max(...grid.layers) && r.lr === Math.max(...grid.lr);
  const runs = Object.fromEntries(
    grid.runs.map((run) => [
      run,
      {
        // learnedAt[i][j]: seeds that learned at grid.lr[i] and grid.layers[j].
        learnedAt: grid.lr.map((lr) =>
          grid.layers.map((layers) => learned(rowsOf(run, (r) => r.lr === lr && r.layers === layers))),
        ),
        learned: learned(rowsOf(run)),
        // At each learning rate, over every depth and seed.
        learnedAtRate: grid.lr.map((lr) => learned(rowsOf(run, (r) => r.lr === lr))),
        diverged: rowsOf(run, (r) => r.divergedAt !== null).length,
        // Stalled with no gradient left (conclusions.js), and of those, at
        // a rate above the lab's.
        vanished: rowsOf(run, (r) => r.outcome === 'vanished').length,
        vanishedAbove: rowsOf(run, (r) => r.outcome === 'vanished' && r.lr > LAB_DEFAULTS.lr).length,
        logitPeak: peak(rowsOf(run)),
        logitPeakAt: grid.lr.map((lr) => peak(rowsOf(run, (r) => r.lr === lr))),
        // At the lab's depth and rate, the median over seeds of the
        // stream's length leaving the last layer at the last step, and of
        // that over its length entering the first.
        streamEnd: median(rowsOf(run, atLab).map((r) => r.streamLast.at(-1))),
        // The same at the deepest stack and the highest rate.
        streamEndHigh: median(rowsOf(run, atHigh).map((r) => r.streamLast.at(-1))),
        // The median final training loss at the lab's depth and rate.
        final: median(rowsOf(run, atLab).map((r) => r.final)),
        // Seeds that learned at the lab's depth and rate.
        learnedAtLab: learned(rowsOf(run, atLab)),
      },
    ]),
  );
  return {
    lr: LAB_DEFAULTS.lr,
    layers: LAB_DEFAULTS.layers,
    steps: table.defaults.steps,
    seeds: grid.seeds.length,
    depths: [...grid.layers],
    rates: [...grid.lr],
    // Runs of one variant over the grid.
    runsEach: grid.layers.length * grid.lr.length * grid.seeds.length,
    hidden: LAB_SHAPE.hidden,
    heads: LAB_SHAPE.heads,
    // The narrowest model in Wortsman et al. (2023), whose logit growth
    // QK-norm prevents.
    wortsmanWidth: 256,
    runs,
  };
}

// After pre-norm's sentences, each checked on the variants' table: a list of
// what no longer holds (empty when all do).
export function variantClaimProblems(v) {
  const problems = [];
  const fail = (claim) => problems.push(claim);
  const { pre, post, qknorm, sandwich, output, deepnorm, dyt } = v.runs;
  const last = v.rates.length - 1;
  // "No QK-norm run's score went above {qkPeak}, while pre-norm's climbed
  // with the learning rate, to {prePeakLow} at the lowest rate ..."
  if (!(qknorm.logitPeak < pre.logitPeakAt[0]))
    fail(`QK-norm's largest score ${qknorm.logitPeak} is not under pre-norm's at the lowest rate`);
  if (pre.logitPeakAt.some((p, i) => i > 0 && !(p > pre.logitPeakAt[i - 1])))
    fail(`pre-norm's largest score does not climb with the learning rate: ${pre.logitPeakAt}`);
  // "... none of either diverged" and "its rescue does not show": QK-norm
  // learned within a seed's count of pre-norm's runs.
  if (pre.diverged || qknorm.diverged) fail(`runs diverged: pre-norm ${pre.diverged}, QK-norm ${qknorm.diverged}`);
  if (Math.abs(qknorm.learned - pre.learned) > v.seeds)
    fail(`QK-norm learned in ${qknorm.learned} runs, pre-norm in ${pre.learned}: more than ${v.seeds} apart`);
  // "Sandwich and output norms bound what each layer adds, not the stream":
  // at the lab's setting their stream is no shorter than half pre-norm's;
  // at the deepest stack and highest rate it is under a quarter of it.
  for (const [name, run] of [
    ['sandwich', sandwich],
    ['output', output],
  ]) {
    if (!(run.streamEnd >= pre.streamEnd / 2))
      fail(`${name}'s stream at the lab's setting is ${run.streamEnd}, under half pre-norm's ${pre.streamEnd}`);
    if (!(run.streamEndHigh < pre.streamEndHigh / 4))
      fail(`${name}'s stream at the highest setting is ${run.streamEndHigh}, not under a quarter of pre-norm's`);
  }
  // "The output norm's scores grew furthest of all": ten times any other's.
  const others = Object.entries(v.runs).filter(([id]) => id !== 'output');
  if (!others.every(([, run]) => output.logitPeak > 10 * run.logitPeak))
    fail(`the output norm's largest score ${output.logitPeak} is not ten times every other run's`);
  // "DeepNorm learned where post-norm did not; at the lab's setting it
  // ended lowest of all; at the highest rate none learned."
  if (!(deepnorm.learned > post.learned)) fail(`DeepNorm learned ${deepnorm.learned}, post-norm ${post.learned}`);
  if (post.learnedAtLab !== 0) fail(`post-norm learned at the lab's setting in ${post.learnedAtLab} seeds`);
  if (!Object.values(v.runs).every((run) => deepnorm.final <= run.final))
    fail(`DeepNorm's median final loss at the lab's setting is not the lowest`);
  if (deepnorm.learnedAtRate[last] !== 0) fail(`DeepNorm learned at the highest rate`);
  // "DyT learned in fewer runs than pre-norm, all at the lab's setting,
  // ended higher there, and its stream there grew longest."
  if (!(dyt.learned < pre.learned)) fail(`DyT learned in ${dyt.learned}, pre-norm in ${pre.learned}`);
  if (!(dyt.final > pre.final)) fail(`DyT's median final loss is not above pre-norm's at the lab's setting`);
  if (dyt.learned !== dyt.learnedAtLab) fail(`DyT learned away from the lab's setting`);
  if (!Object.values(v.runs).every((run) => dyt.streamEnd >= run.streamEnd))
    fail(`DyT's stream at the lab's setting is not the longest`);
  // "In {dytVanished} of its runs, all at the higher rates, no gradient was
  // left; no other run stalled that way."
  if (!(dyt.vanished > 0 && dyt.vanishedAbove === dyt.vanished))
    fail(`DyT's runs with no gradient left: ${dyt.vanished}, ${dyt.vanishedAbove} above the lab's rate`);
  const alsoVanished = Object.entries(v.runs).filter(([id, run]) => id !== 'dyt' && run.vanished > 0);
  if (alsoVanished.length) fail(`other runs stalled with no gradient left: ${alsoVanished.map(([id]) => id)}`);
  return problems;
}

const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
