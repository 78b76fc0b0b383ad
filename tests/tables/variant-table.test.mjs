// The variants' committed table (web/data/variant-sweep.json, made by
// tests/bench/variant-sweep.mjs in ./build.sh sweep, WebAssembly SIMD128)
// against the lab as it is now and against what the page says of it:
//   - made with the lab's current defaults, steps and Chinese text, on the
//     grid web/src/lab/runs.js names (VARIANT_DEPTHS x VARIANT_LRS x
//     VARIANT_RUNS), every cell once, each outcome the lab's rule's;
//   - its pre- and post-norm rows are the lab's sweep's runs of the same
//     cell, bit for bit (two tables, one trainer);
//   - a few of its variant rows, trained again here with the options the
//     lab's code builds, give the same losses bit for bit, and the same
//     largest attention logit and stream growth;
//   - the After pre-norm section's claims (web/src/lab/claims.js
//     variantClaims) hold on it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';

import { committedTexts, gridCells } from '../bench/sweep-file.mjs';
import { runPool } from '../bench/train-pool.mjs';
import { outcomeOf } from '../../web/src/lab/conclusions.js';
import { variantClaimProblems, variantClaims } from '../../web/src/lab/claims.js';
import { LAB_DEFAULTS, LAB_STEPS, VARIANT_DEPTHS, VARIANT_LRS, VARIANT_RUNS } from '../../web/src/lab/runs.js';

const json = (path) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));
const table = json('web/data/variant-sweep.json');
const sweep = json('web/data/train-sweep.json');
const THREADS = Number(process.env.NORMLAB_TABLE_THREADS ?? availableParallelism());
const same = (a, b) => ['lang', 'layers', 'lr', 'run', 'seed'].every((k) => a[k] === b[k]);

test('the variant table: the lab defaults and text, every cell of its grid once, outcomes by the lab rule', () => {
  assert.deepEqual(table.defaults, JSON.parse(JSON.stringify({ ...LAB_DEFAULTS, steps: LAB_STEPS })));
  const { info } = committedTexts(['zh-CN']);
  assert.deepEqual(table.texts, info, 'made on another text');
  assert.deepEqual(
    { layers: table.grid.layers, lr: table.grid.lr, runs: table.grid.runs },
    { layers: VARIANT_DEPTHS, lr: VARIANT_LRS, runs: VARIANT_RUNS },
  );
  assert.ok(table.grid.seeds.length >= 5);
  assert.equal(table.complete, true);
  const cells = gridCells({ 'zh-CN': '' }, table.grid);
  assert.equal(table.rows.length, cells.length);
  for (const cell of cells) assert.equal(table.rows.filter((r) => same(r, cell)).length, 1, JSON.stringify(cell));
  for (const row of table.rows)
    assert.equal(row.outcome, outcomeOf({ ...row, diverged: row.divergedAt !== null }), JSON.stringify(row));
});

test("the variant table's pre- and post-norm runs are the lab sweep's, bit for bit", () => {
  const shared = table.rows.filter((r) => r.run === 'pre' || r.run === 'post');
  assert.equal(shared.length, 2 * VARIANT_DEPTHS.length * VARIANT_LRS.length * table.grid.seeds.length);
  for (const row of shared) {
    const cell = sweep.rows.find((r) => same(r, row));
    assert.ok(cell, `the lab's sweep has no ${row.layers} ${row.lr} ${row.run} seed ${row.seed}`);
    assert.equal(cell.lossSha256, row.lossSha256, `${row.layers} ${row.lr} ${row.run} seed ${row.seed}`);
    assert.equal(cell.outcome, row.outcome);
  }
});

test('the After pre-norm section says what the table says', () => {
  assert.deepEqual(variantClaimProblems(variantClaims(table)), []);
});

test('a few variant runs trained again: the committed bits and probes', { timeout: 10 * 60 * 1000 }, async () => {
  const { texts } = committedTexts(['zh-CN']);
  // Shallow cells (a few seconds each), one per variant the lab's sweep lacks.
  const picks = [
    { layers: 6, lr: 0.03, run: 'qknorm', seed: 1 },
    { layers: 6, lr: 0.003, run: 'sandwich', seed: 2 },
    { layers: 6, lr: 0.01, run: 'output', seed: 3 },
    { layers: 6, lr: 0.003, run: 'deepnorm', seed: 4 },
    { layers: 6, lr: 0.01, run: 'dyt', seed: 5 },
  ];
  const cells = gridCells(texts, table.grid);
  const jobs = picks.map((p) => cells.find((c) => same(c, { lang: 'zh-CN', ...p })));
  const again = await runPool(jobs, { threads: THREADS });
  for (const [i, job] of jobs.entries()) {
    const want = table.rows.find((r) => same(r, job));
    const got = again[i];
    const name = `${job.layers} ${job.lr} ${job.run} seed ${job.seed}`;
    console.log(`  ${name}: ${got.outcome}, logit peak ${got.logitPeak}, losses ${got.lossSha256.slice(0, 12)}`);
    assert.equal(got.lossSha256, want.lossSha256, `${name}: the losses differ`);
    for (const field of ['final', 'outcome', 'logitPeak', 'logitEnd', 'streamGrowth'])
      assert.equal(got[field], want[field], `${name}: ${field}`);
  }
});
