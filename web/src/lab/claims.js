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
