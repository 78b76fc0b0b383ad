// Merges partial outputs of the trainer's sweep (normlab_train_sweep --out,
// tests/bench/native/train_sweep.cpp) into one table, web/data/train-sweep.json,
// saying which rows of the full grid were run, in which build, and which were
// not. Nothing is filled in: a row is in `runs` only if some input measured it.
//
//   node tests/bench/merge-train-sweep.mjs OUT IN.json...
//
// The inputs must share the text (its SHA-256), the model and the verdict
// rule. A row measured by several inputs keeps the values of the last input
// that has it and lists every build that measured it in `measured_in`, with
// `identical: true` when all of them gave the same numbers (the trainer is
// deterministic in a build; builds of the same code agree bit for bit).
// The `demonstration` block is the choice of config the trainer's defaults
// (src/train/options.h) follow, with the rows it rests on.
import { readFile, writeFile } from 'node:fs/promises';

const GRID = {
  layers: [6, 12, 24, 48],
  lr: [1e-3, 3e-3, 5e-3, 1e-2],
  variant: ['pre', 'post', 'post+warmup'],
  seed: [1, 2, 3],
};
const MEASURED = [
  'final_train_loss',
  'last_loss',
  'heldout',
  'grad_first',
  'grad_last',
  'ratio',
  'diverged_at',
  'verdict',
];

const [out, ...inputs] = process.argv.slice(2);
if (!out || inputs.length === 0) {
  console.error('usage: node tests/bench/merge-train-sweep.mjs OUT IN.json...');
  process.exit(2);
}

const tables = await Promise.all(inputs.map(async (file) => ({ file, ...JSON.parse(await readFile(file, 'utf8')) })));
const first = tables[0];
for (const t of tables.slice(1)) {
  for (const key of ['text', 'model', 'verdict_rule']) {
    if (JSON.stringify(t[key]) !== JSON.stringify(first[key])) {
      console.error(`${t.file}: its ${key} differs from ${first.file}'s`);
      process.exit(1);
    }
  }
}

const keyOf = (r) => `${r.layers}|${r.lr}|${r.variant}|${r.seed}`;
const rows = new Map();
for (const t of tables) {
  for (const run of t.runs) {
    const key = keyOf(run);
    const previous = rows.get(key);
    const same =
      previous !== undefined && MEASURED.every((m) => JSON.stringify(previous.run[m]) === JSON.stringify(run[m]));
    rows.set(key, {
      run: { ...run, build: t.build.commit },
      measured_in: [...(previous?.measured_in ?? []), t.build.commit],
      identical: previous === undefined ? null : previous.identical !== false && same,
    });
  }
}

const runs = [];
const notRun = [];
for (const layers of GRID.layers) {
  for (const lr of GRID.lr) {
    for (const variant of GRID.variant) {
      for (const seed of GRID.seed) {
        const row = rows.get(`${layers}|${lr}|${variant}|${seed}`);
        if (row === undefined) {
          notRun.push({ layers, lr, variant, seed });
          continue;
        }
        const run = { ...row.run, measured_in: row.measured_in };
        if (row.identical !== null) run.identical_in_every_build = row.identical;
        runs.push(run);
      }
    }
  }
}

// The demonstration config: deep post-norm without warmup stalls while
// pre-norm and post-norm with warmup learn, at one lr where 6-layer
// post-norm learns; each claim in at least 2 of 3 seeds (the thesis test's
// rule, tests/cpp/test_train_thesis.cpp).
const entropy = first.text.unigram_entropy;
const demo = { layers: 24, lr: 3e-3 };
const pick = (layers, variant, lr) => runs.filter((r) => r.layers === layers && r.lr === lr && r.variant === variant);
const count = (list, test) => `${list.filter(test).length} of ${list.length}`;
const stalls = (r) => Math.abs(r.final_train_loss - entropy) <= 0.2 && r.ratio < 1e-2;
const learns = (r) => r.final_train_loss <= entropy - 0.3;
const claims = (lr) => ({
  post_stalls: count(pick(demo.layers, 'post', lr), stalls),
  pre_learns: count(pick(demo.layers, 'pre', lr), learns),
  post_warmup_learns: count(pick(demo.layers, 'post+warmup', lr), learns),
  post_6_layers_learns: count(pick(6, 'post', lr), learns),
});

const table = {
  tool: 'tests/bench/merge-train-sweep.mjs',
  complete: notRun.length === 0,
  command: `node tests/bench/merge-train-sweep.mjs web/data/train-sweep.json ${inputs.join(' ')}`,
  full_sweep_command: first.command,
  builds: tables.map((t) => ({ file: t.file, ...t.build, rows: t.runs.length })),
  text: first.text,
  model: first.model,
  verdict_rule: first.verdict_rule,
  curves: first.curves,
  seconds_note: 'seconds: wall time of the run on a shared, loaded 2-core machine; not a speed measurement',
  grid: GRID,
  rows_run: runs.length,
  rows_not_run: notRun.length,
  demonstration: {
    config: {
      layers: demo.layers,
      hidden: 32,
      heads: 4,
      norm: 'rmsnorm',
      lr: demo.lr,
      steps: 400,
      seq: 64,
      batch: 8,
      warmup_variant: first.model.warmup_steps,
    },
    rule: 'post-norm, no warmup: final train loss within 0.2 of the unigram entropy and grad_first/grad_last < 1e-2; pre-norm and post-norm with warmup at the same depth and lr, and 6-layer post-norm at the same lr: final train loss at least 0.3 below the entropy; each in at least 2 of 3 seeds',
    ...claims(demo.lr),
    // The four claims at every lr of the grid (the chosen one is the only lr
    // where all four hold in 2 of 3 seeds, if the table says so).
    by_lr: Object.fromEntries(GRID.lr.map((lr) => [lr, claims(lr)])),
  },
  runs,
  not_run: notRun,
};
// One line per row: the table stays readable in a diff and small.
const { runs: runRows, not_run: notRunRows, ...head } = table;
const lines = (list) => list.map((r) => `  ${JSON.stringify(r)}`).join(',\n');
const headText = JSON.stringify(head, null, 1).slice(0, -2);
await writeFile(out, `${headText},\n "runs": [\n${lines(runRows)}\n ],\n "not_run": [\n${lines(notRunRows)}\n ]\n}\n`);
console.log(
  `${out}: ${runs.length} rows run, ${notRun.length} not run; demonstration L ${demo.layers}, lr ${demo.lr}:`,
);
for (const lr of GRID.lr) console.log(`  lr ${lr}${lr === demo.lr ? ' (chosen)' : ''}: ${JSON.stringify(claims(lr))}`);
