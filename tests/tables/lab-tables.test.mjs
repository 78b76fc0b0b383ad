// The training lab's committed tables (web/data, made by ./build.sh sweep in
// the WebAssembly SIMD128 build) against the lab as it is now and against
// what the page claims of them:
//   - each was made with the lab's current defaults, steps and texts;
//   - every run's stored outcome is the one the lab's rule gives its stored
//     numbers (web/src/lab/conclusions.js);
//   - the default contrast's claims over seeds 1..10 hold in each language,
//     and the lab's default seed is one where all four hold;
//   - the default seed's runs, trained again here with the options the
//     lab's code builds, give the same losses bit for bit, and the same
//     held-out loss, gradient and update ratios;
//   - the setup investigation's chosen candidate is the robustness table's
//     Chinese contrast, run for run.
// The runs train in worker threads (NORMLAB_TABLE_THREADS, default every
// core); ./build.sh test runs this file beside the sanitized and wasm
// Catch2 runs, on one thread.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';

import { CONTRAST_RUNS, contrastOptions, LAB_TEXT_FILES, ROBUSTNESS_CLAIMS } from '../bench/lab-contrast.mjs';
import { runPool } from '../bench/train-pool.mjs';
import { outcomeOf } from '../../web/src/lab/conclusions.js';
import { LAB_DEFAULTS, LAB_DEPTHS, LAB_LRS, LAB_RUNS, LAB_STEPS } from '../../web/src/lab/runs.js';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url));
const json = (path) => JSON.parse(read(path).toString('utf8'));
const robustness = json('web/data/lab-robustness.json');
const sweep = json('web/data/train-sweep.json');
const setup = json('web/data/lab-setup.json');
const texts = Object.fromEntries(
  Object.entries(LAB_TEXT_FILES).map(([lang, file]) => [lang, read(file).toString('utf8')]),
);
const THREADS = Number(process.env.NORMLAB_TABLE_THREADS ?? availableParallelism());
const DEFAULTS = { ...LAB_DEFAULTS, steps: LAB_STEPS };

function checkMadeWithTheLab(table, name) {
  assert.deepEqual(table.defaults, JSON.parse(JSON.stringify(DEFAULTS)), `${name}: made with other lab defaults`);
  for (const [lang, file] of Object.entries(LAB_TEXT_FILES)) {
    const info = table.texts[lang];
    assert.equal(info.file, file);
    assert.equal(info.sha256, createHash('sha256').update(texts[lang]).digest('hex'), `${name}: ${file} changed`);
  }
  for (const row of table.rows) {
    assert.equal(
      row.outcome,
      outcomeOf({ ...row, diverged: row.divergedAt !== null }),
      `${name}: ${JSON.stringify(row)}`,
    );
  }
}

test('the robustness table: the lab defaults, and the claims over seeds 1..10 in each language', () => {
  checkMadeWithTheLab(robustness, 'lab-robustness.json');
  assert.deepEqual(
    robustness.seeds,
    Array.from({ length: 10 }, (_, i) => i + 1),
  );
  assert.deepEqual(robustness.claims, ROBUSTNESS_CLAIMS);
  for (const lang of Object.keys(LAB_TEXT_FILES)) {
    for (const [run, { outcome, atLeast }] of Object.entries(ROBUSTNESS_CLAIMS)) {
      const rows = robustness.rows.filter((r) => r.lang === lang && r.run === run);
      assert.equal(rows.length, 10);
      const count = rows.filter((r) => r.outcome === outcome).length;
      console.log(`  ${lang} ${run}: ${outcome} in ${count} of 10 seeds (claim: at least ${atLeast})`);
      assert.ok(count >= atLeast, `${lang} ${run}: ${outcome} in ${count} of 10, fewer than ${atLeast}`);
    }
    for (const run of CONTRAST_RUNS) {
      const row = robustness.rows.find((r) => r.lang === lang && r.run === run && r.seed === LAB_DEFAULTS.seed);
      assert.equal(row.outcome, ROBUSTNESS_CLAIMS[run].outcome, `the default seed's ${lang} ${run} run`);
    }
  }
});

test('the sweep: the lab defaults, every cell of its map, at least 5 seeds each', () => {
  checkMadeWithTheLab(sweep, 'train-sweep.json');
  assert.deepEqual(sweep.grid, { layers: LAB_DEPTHS, lr: LAB_LRS, runs: LAB_RUNS, seeds: sweep.grid.seeds });
  assert.ok(sweep.grid.seeds.length >= 5);
  assert.equal(sweep.complete, true);
  for (const lang of Object.keys(LAB_TEXT_FILES))
    for (const layers of LAB_DEPTHS)
      for (const lr of LAB_LRS)
        for (const run of LAB_RUNS)
          for (const seed of sweep.grid.seeds)
            assert.equal(
              sweep.rows.filter(
                (r) => r.lang === lang && r.layers === layers && r.lr === lr && r.run === run && r.seed === seed,
              ).length,
              1,
              `${lang} ${layers} ${lr} ${run} ${seed}`,
            );
  // The robustness table's 24-layer runs at the lab's rate are sweep cells.
  for (const row of robustness.rows.filter((r) => r.run !== 'post6' && r.seed <= sweep.grid.seeds.length)) {
    const cell = sweep.rows.find(
      (r) =>
        r.lang === row.lang &&
        r.layers === LAB_DEFAULTS.layers &&
        r.lr === LAB_DEFAULTS.lr &&
        r.run === row.run &&
        r.seed === row.seed,
    );
    assert.equal(cell.lossSha256, row.lossSha256, `${row.lang} ${row.run} seed ${row.seed}`);
  }
});

test("the setup investigation: every run's outcome by the lab's rule; the lab's own row is the robustness table's", () => {
  assert.deepEqual(setup.defaults, JSON.parse(JSON.stringify(DEFAULTS)));
  for (const c of setup.candidates) {
    for (const row of c.rows) assert.equal(row.outcome, outcomeOf({ ...row, diverged: row.divergedAt !== null }), c.id);
  }
  const lab = setup.candidates.find((c) => c.id === 'lab');
  assert.deepEqual(lab.change, {});
  const zh = robustness.rows.filter((r) => r.lang === 'zh-CN').map(({ lang, lossCurve, ...row }) => row);
  assert.deepEqual(lab.rows, zh);
});

test(
  "the default seed's contrast trained again: the committed bits in each language",
  { timeout: 20 * 60 * 1000 },
  async () => {
    const jobs = Object.entries(texts).flatMap(([lang, text]) =>
      CONTRAST_RUNS.map((run) => ({ lang, run, options: contrastOptions(run, LAB_DEFAULTS.seed, text) })),
    );
    const seconds = [];
    const again = await runPool(jobs, { threads: THREADS, onResult: (i, summary, s) => (seconds[i] = s) });
    // What the default contrast costs a reader: its three 24-layer runs.
    for (const lang of Object.keys(texts)) {
      const contrast = jobs.reduce(
        (sum, job, i) => sum + (job.lang === lang && job.run !== 'post6' ? seconds[i] : 0),
        0,
      );
      console.log(`  ${lang}: the default contrast's training took ${contrast.toFixed(1)} s (one run per core)`);
    }
    for (const [i, job] of jobs.entries()) {
      const want = robustness.rows.find(
        (r) => r.lang === job.lang && r.run === job.run && r.seed === LAB_DEFAULTS.seed,
      );
      const got = again[i];
      console.log(
        `  ${job.lang} ${job.run}: ${got.outcome}, final ${got.final}, losses ${got.lossSha256.slice(0, 12)}`,
      );
      assert.equal(got.lossSha256, want.lossSha256, `${job.lang} ${job.run}: the losses differ`);
      for (const field of ['final', 'heldout', 'gradRatio', 'updateRatio', 'outcome'])
        assert.equal(got[field], want[field], `${job.lang} ${job.run}: ${field}`);
    }
  },
);
