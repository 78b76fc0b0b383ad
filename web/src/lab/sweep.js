// The committed tables of the training lab (./build.sh sweep, trained in the
// same WebAssembly build the page runs), as the lab draws and reads them.
// web/build.mjs calls these on the JSON and bundles only their results into
// dist/lab.js, one table per page language (each language's runs train on
// its own committed text):
//
//   sweepTable(web/data/train-sweep.json, lang)
//     = { grid: { layers, lr, seeds }, steps, warmup, entropy,
//         made: { date, commit, node },
//         cells: { 'run|layers|lr': [{ seed, outcome, final, heldout, divergedAt }] } }
//   robustnessTable(web/data/lab-robustness.json, lang)
//     = { seeds, claims, counts: { run: { outcome: seeds } }, defaults, made }
//   variantSweepTable(web/data/variant-sweep.json)
//     = sweepTable's form for the one text the variants trained on, with
//       lang (that text's language), runs (the variants, in order) and
//       made's seconds and threads too
// All describe runs at the lab's full length only.
//
// run: the lab's run ids ('pre', 'post', 'warmup'); outcome: conclusions.js's.
export const cellKey = (run, layers, lr) => `${run}|${layers}|${lr}`;

const made = ({ date, commit, node }) => ({ date, commit, node });

export function sweepTable(sweep, lang) {
  const cells = {};
  let entropy = null;
  for (const row of sweep.rows) {
    if (row.lang !== lang) continue;
    entropy = row.entropy;
    (cells[cellKey(row.run, row.layers, row.lr)] ??= []).push({
      seed: row.seed,
      outcome: row.outcome,
      final: row.final,
      heldout: row.heldout,
      divergedAt: row.divergedAt,
    });
  }
  for (const list of Object.values(cells)) list.sort((a, b) => a.seed - b.seed);
  return {
    grid: { layers: sweep.grid.layers, lr: sweep.grid.lr, seeds: sweep.grid.seeds },
    steps: sweep.defaults.steps,
    warmup: sweep.defaults.warmup,
    entropy,
    made: made(sweep.made),
    cells,
  };
}

export function variantSweepTable(sweep) {
  const [lang] = Object.keys(sweep.texts);
  const { seconds, threads } = sweep.made;
  const table = sweepTable(sweep, lang);
  return { ...table, made: { ...table.made, seconds, threads }, lang, runs: sweep.grid.runs };
}

export function robustnessTable(robustness, lang) {
  return {
    seeds: robustness.seeds,
    claims: robustness.claims,
    counts: robustness.counts[lang],
    defaults: robustness.defaults,
    made: made(robustness.made),
  };
}

// A cell's class on the map: what most seeds did, counting both kinds of
// stall (and a run just leaving the plateau) as stalled; a tie goes to the
// worse: diverged, then stalled.
export const verdictOf = (outcome) =>
  outcome === 'learned' ? 'learned' : outcome === 'diverged' ? 'diverged' : 'stalled';

// What a cell shows: the seeds' outcomes in seed order, the median final
// training loss, and the verdict most seeds reached, with the counts.
export function cellSummary(entries) {
  const finals = entries
    .map((e) => e.final)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const median = finals.length ? medianOf(finals) : null;
  const counts = { diverged: 0, stalled: 0, learned: 0 };
  for (const e of entries) counts[verdictOf(e.outcome)] += 1;
  const verdict = ['diverged', 'stalled', 'learned'].reduce((best, v) => (counts[v] > counts[best] ? v : best));
  return { outcomes: entries.map((e) => e.outcome), median, verdict, counts };
}

function medianOf(sorted) {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// The depths at which a run ('pre', 'post', 'warmup') learned at learning
// rate lr in most seeds, and those where it did not.
export function depthsAtRate(table, id, lr) {
  const verdict = (layers) => cellSummary(table.cells[cellKey(id, layers, lr)] ?? []).verdict;
  return {
    learnedAt: table.grid.layers.filter((l) => verdict(l) === 'learned'),
    failedAt: table.grid.layers.filter((l) => verdict(l) !== 'learned'),
  };
}

// The learning rates at which a run learned in most seeds at a depth: its
// trainable window on the sweep's grid (lo, hi: the window's ends, null
// when it learned at none).
export function windowAt(table, id, layers) {
  const learned = table.grid.lr.filter(
    (lr) => cellSummary(table.cells[cellKey(id, layers, lr)] ?? []).verdict === 'learned',
  );
  return { learned, count: learned.length, lo: learned[0] ?? null, hi: learned.at(-1) ?? null };
}

// The learning-rate window chart's data at a depth: per run, the median
// final loss at each learning rate (null where no seed has one) and every
// seed's point with its outcome.
export function windowSeries(table, layers) {
  return ['pre', 'post', 'warmup'].map((id) => ({
    id,
    medians: table.grid.lr.map((lr) => [lr, cellSummary(table.cells[cellKey(id, layers, lr)] ?? []).median]),
    seeds: table.grid.lr.flatMap((lr) =>
      (table.cells[cellKey(id, layers, lr)] ?? []).map((e) => ({
        lr,
        seed: e.seed,
        final: e.final,
        outcome: e.outcome,
      })),
    ),
  }));
}

// What the sweep says at the lab's depth and learning rate, as sentences
// { key, params } (keys of lab/en.js; raw numbers): at learning rate lr,
// the depths where each kind of run learned (most seeds) and where it did
// not; at depth `layers`, each run's window of learning rates; and, where
// post-norm trains there, the best post-norm cell against pre-norm's best.
export function sweepReading(table, { layers, lr }) {
  const sentences = [];
  if (table.grid.lr.includes(lr)) {
    for (const id of ['pre', 'post', 'warmup']) {
      const { learnedAt, failedAt } = depthsAtRate(table, id, lr);
      const key = !failedAt.length ? 'sweepDepthsAll' : !learnedAt.length ? 'sweepDepthsNone' : 'sweepDepths';
      sentences.push({ key, params: { run: id, lr, learnedAt, failedAt, seeds: table.grid.seeds.length } });
    }
  }
  if (table.grid.layers.includes(layers)) {
    const windows = Object.fromEntries(['pre', 'post', 'warmup'].map((id) => [id, windowAt(table, id, layers)]));
    sentences.push({
      key: 'sweepWindows',
      params: {
        layers,
        total: table.grid.lr.length,
        preCount: windows.pre.count,
        postCount: windows.post.count,
        warmupCount: windows.warmup.count,
      },
    });
    const best = (id) =>
      table.grid.lr
        .map((r) => ({ lr: r, ...cellSummary(table.cells[cellKey(id, layers, r)] ?? []) }))
        .filter((c) => c.verdict === 'learned')
        .sort((a, b) => a.median - b.median)[0] ?? null;
    const pre = best('pre');
    const post = best('post');
    if (pre && post) {
      sentences.push({
        key: post.median < pre.median ? 'sweepTunedPostLower' : 'sweepTunedPreLower',
        params: { layers, post: post.median, postLr: post.lr, pre: pre.median, preLr: pre.lr },
      });
    }
  }
  return sentences;
}

// What the variants' sweep says at the reader's depth and learning rate,
// where its grid has them: how many seeds of each variant learned there, as
// one sentence { key, params } (counts: [{ run, learned }] in the table's
// order), or none.
export function variantReading(table, { layers, lr }) {
  if (!table.grid.layers.includes(layers) || !table.grid.lr.includes(lr)) return [];
  const counts = table.runs.map((run) => ({
    run,
    learned: (table.cells[cellKey(run, layers, lr)] ?? []).filter((e) => e.outcome === 'learned').length,
  }));
  return [{ key: 'variantCounts', params: { layers, lr, seeds: table.grid.seeds.length, counts } }];
}

// What the committed tables say of a contrast's runs, as sentences
// { key, params }: for settings that are the lab's defaults (any seed), the
// robustness table's counts over its seeds, the 6-layer post-norm run's
// included; else, where the sweep has the run's cell (its depth and
// learning rate, the lab's warmup, RMSNorm, the language's own text, the
// full length), the cell's outcomes over its seeds. Then, for each run
// whose seed the table holds, whether this run gave the committed final
// loss to the last bit. runs: [{ id, final }] (final: the run's, or null).
export function seedsReading({ sweep, robust }, settings, steps, runs) {
  const sentences = [];
  const full = steps === sweep.steps && settings.text === null && settings.norm === 'rmsnorm';
  const defaults = robust.defaults;
  const isDefault =
    full && settings.layers === defaults.layers && settings.lr === defaults.lr && settings.warmup === defaults.warmup;
  const tally = (outcomes) => ({
    seeds: outcomes.length,
    learnedCount: outcomes.filter((o) => o === 'learned').length,
    collapsedCount: outcomes.filter((o) => o === 'collapsed').length,
    stalledCount: outcomes.filter((o) => verdictOf(o) === 'stalled').length,
    divergedCount: outcomes.filter((o) => o === 'diverged').length,
  });
  if (isDefault) {
    for (const [run, { outcome }] of Object.entries(robust.claims)) {
      if (run !== 'post6' && !runs.some((r) => r.id === run)) continue;
      sentences.push({
        key: run === 'post6' ? 'seedsPost6' : outcome === 'learned' ? 'seedsLearned' : 'seedsCollapsed',
        params: { run, count: robust.counts[run]?.[outcome] ?? 0, seeds: robust.seeds.length, layers: 6 },
      });
    }
  }
  if (!full) return sentences;
  for (const { id, final } of runs) {
    if (id === 'warmup' && settings.warmup !== sweep.warmup) continue;
    const entries = sweep.cells[cellKey(id, settings.layers, settings.lr)];
    if (!entries) continue;
    if (!isDefault) {
      sentences.push({ key: 'seedsCell', params: { run: id, ...tally(entries.map((e) => e.outcome)) } });
    }
    const row = entries.find((e) => e.seed === settings.seed);
    if (row && final !== null) {
      sentences.push({
        key: Object.is(row.final, final) ? 'sameBits' : 'otherBits',
        params: { run: id, final, committed: row.final, seed: settings.seed },
      });
    }
  }
  return sentences;
}
