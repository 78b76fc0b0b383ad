// The committed sweep (web/data/train-sweep.json, `./build.sh sweep`) as the
// lab's trainability map draws it: web/build.mjs calls sweepTable() on the
// JSON and bundles only its result into dist/lab.js (the loss and ratio
// curves stay out).
//
// table = { grid: { layers, lr, seeds }, steps, warmup, entropy,
//           builds: [{ commit, compiler, arch }],
//           cells: { 'variant|layers|lr': [{ seed, verdict, final, heldout,
//                    divergedAt, build } | { seed, verdict: 'not run' }] } }
// variant: the lab's run ids ('pre', 'post', 'warmup').
const VARIANT_IDS = { pre: 'pre', post: 'post', 'post+warmup': 'warmup' };

export const cellKey = (variant, layers, lr) => `${variant}|${layers}|${lr}`;

export function sweepTable(sweep) {
  const cells = {};
  const add = (row, entry) => {
    const key = cellKey(VARIANT_IDS[row.variant], row.layers, row.lr);
    (cells[key] ??= []).push({ seed: row.seed, ...entry });
  };
  for (const row of sweep.runs) {
    add(row, {
      verdict: row.verdict,
      final: row.final_train_loss,
      heldout: row.heldout,
      divergedAt: row.diverged_at,
      build: row.build,
    });
  }
  for (const row of sweep.not_run) add(row, { verdict: 'not run' });
  for (const list of Object.values(cells)) list.sort((a, b) => a.seed - b.seed);
  const commits = new Set(sweep.runs.map((row) => row.build));
  return {
    grid: { layers: sweep.grid.layers, lr: sweep.grid.lr, seeds: sweep.grid.seed },
    steps: sweep.model.steps,
    warmup: sweep.model.warmup_steps,
    entropy: sweep.text.unigram_entropy,
    builds: sweep.builds
      .filter((b) => commits.has(b.commit))
      .filter((b, i, all) => all.findIndex((o) => o.commit === b.commit) === i)
      .map(({ commit, compiler, arch }) => ({ commit, compiler, arch })),
    cells,
  };
}

// What a cell shows: the seeds' verdicts in seed order, the median held-out
// loss of the measured seeds (null when none was), and the verdict most of
// them reached (a tie goes to the worse one: diverged, then stalled).
export function cellSummary(entries) {
  const measured = entries.filter((e) => e.verdict !== 'not run');
  const losses = measured
    .map((e) => e.heldout)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const median = losses.length
    ? losses.length % 2
      ? losses[losses.length >> 1]
      : (losses[losses.length / 2 - 1] + losses[losses.length / 2]) / 2
    : null;
  const counts = { diverged: 0, stalled: 0, learned: 0 };
  for (const e of measured) counts[e.verdict] += 1;
  const most = measured.length
    ? ['diverged', 'stalled', 'learned'].reduce((best, v) => (counts[v] > counts[best] ? v : best))
    : 'not run';
  return { verdicts: entries.map((e) => e.verdict), median, verdict: most, counts };
}

// The sweep's own rule for a run trained here (its verdict_rule): diverged,
// learned when the final training loss is at least 0.3 under the entropy,
// else stalled.
export function sweepVerdict(diverged, final, entropy) {
  if (diverged) return 'diverged';
  return final <= entropy - 0.3 ? 'learned' : 'stalled';
}

// The depths at which a run ('pre', 'post', 'warmup') learned at learning
// rate lr, by each cell's verdict (the seeds' majority), and those it ran
// where it did not.
export function depthsAtRate(table, id, lr) {
  const verdict = (layers) => cellSummary(table.cells[cellKey(id, layers, lr)] ?? []).verdict;
  const measured = table.grid.layers.filter((l) => verdict(l) !== 'not run');
  return {
    learnedAt: measured.filter((l) => verdict(l) === 'learned'),
    failedAt: measured.filter((l) => verdict(l) !== 'learned'),
  };
}

// What the sweep says at the lab's depth and learning rate, as sentences
// { key, params } (keys of lab/en.js; raw numbers): at learning rate lr, the
// depths where each kind of run learned (most seeds) and where it did not;
// at depth `layers`, the best learned cell of post-norm without warmup
// against pre-norm's, and at how many of the learning rates each learned.
export function sweepReading(table, { layers, lr }) {
  const sentences = [];
  const summary = (id, l, r) => cellSummary(table.cells[cellKey(id, l, r)] ?? []);
  if (table.grid.lr.includes(lr)) {
    for (const id of ['pre', 'post', 'warmup']) {
      const { learnedAt, failedAt } = depthsAtRate(table, id, lr);
      if (!learnedAt.length && !failedAt.length) continue;
      const key = !failedAt.length ? 'sweepDepthsAll' : !learnedAt.length ? 'sweepDepthsNone' : 'sweepDepths';
      sentences.push({ key, params: { run: id, lr, learnedAt, failedAt } });
    }
  }
  if (table.grid.layers.includes(layers)) {
    const best = (id) => {
      const learned = table.grid.lr
        .map((r) => ({ lr: r, ...summary(id, layers, r) }))
        .filter((c) => c.verdict === 'learned' && c.median !== null);
      return { count: learned.length, top: learned.sort((a, b) => a.median - b.median)[0] ?? null };
    };
    const pre = best('pre');
    const post = best('post');
    if (pre.top && post.top) {
      sentences.push({
        key: post.top.median < pre.top.median ? 'sweepTunedPostLower' : 'sweepTunedPreLower',
        params: {
          layers,
          post: post.top.median,
          postLr: post.top.lr,
          pre: pre.top.median,
          preLr: pre.top.lr,
          preCount: pre.count,
          postCount: post.count,
          total: table.grid.lr.length,
        },
      });
    }
  }
  return sentences;
}
