// The README's headline figures are the committed benchmark run's: the table
// between the README's headline markers, and the one in
// tests/bench/RESULTS.md, are what tests/bench/results.mjs writes from
// tests/bench/headline.json, to the character. A figure typed into either by
// hand, or a report from another run than the headline, fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { README_END, README_START, headlineFrom, headlineMarkdown, readmeWithHeadline } from '../bench/results.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');
const headline = JSON.parse(read('tests/bench/headline.json'));

test("the README's headline table is headline.json's", () => {
  const readme = read('README.md');
  assert.equal(readme.split(README_START).length, 2, 'one headline block');
  assert.equal(readmeWithHeadline(readme, headline), readme);
});

test("RESULTS.md's headline is the same run's, with its date and commit", () => {
  const report = read('tests/bench/RESULTS.md');
  assert.ok(report.includes(headlineMarkdown(headline)), "RESULTS.md's headline differs from headline.json");
  assert.ok(report.includes(`- date: ${headline.date}; commit: ${headline.commit}`));
});

test('the headline states each figure with its peer or budget and the ratio computed from them', () => {
  const table = headlineMarkdown(headline);
  for (const row of headline.kernels.rows) {
    const line = table.split('\n').find((l) => l.startsWith(`| ${row.op},`));
    assert.ok(line, `no row for ${row.op}`);
    const shown = (r) => `${r < 10 ? r.toFixed(1) : r.toFixed(0)}x`;
    const peer = row.peers['ort-web'];
    const us = peer >= 100 ? peer.toFixed(0) : peer.toFixed(1);
    assert.ok(
      line.includes(`onnxruntime-web ${us} (${shown(peer / row.copying)} / ${shown(peer / row.resident)})`),
      line,
    );
  }
  const train = table.split('\n').find((l) => l.startsWith('| one training step'));
  const speedup = headline.training.bestTfjsMs / headline.training.ms;
  assert.ok(train.includes(`(${speedup < 10 ? speedup.toFixed(1) : speedup.toFixed(0)}x)`), train);
  for (const row of headline.page.rows) assert.ok(table.includes(`budget ${row.budget} ms`));
  // Phone class: each figure at 4× throttling, at the phone's viewport, with
  // its target met or not as the figure says.
  assert.equal(headline.phone.rate, 4);
  for (const row of headline.phone.rows) {
    const line = table
      .split('\n')
      .find((l) => l.startsWith(`| ${row.label}, phone class (at 4× CPU throttling, 390 × 844)`));
    assert.ok(line, `no phone row for ${row.label}`);
    if (row.target !== null)
      assert.ok(line.endsWith(`target ${row.target} ms: ${row.median <= row.target ? 'met' : 'not met'} |`), line);
  }
});

test('a saved run without the row the headline quotes is named, not skipped', () => {
  const page = { rows: [], loads: [], chromium: '1', loadAtEnd: [1] };
  assert.throws(
    () =>
      headlineFrom({
        kernels: { results: {}, env: { cpu: 'x', node: 'v20', peers: {} } },
        train: { results: [{ layers: 24, ms: { 'ours-simd': 1 }, bestTf: 2 }] },
        page,
        phone: { rows: [] },
        commit: 'abc',
        date: 'd',
      }),
    /bench-page\.json has no row "prompt keystroke \(last token changed\): input -> frame painted" at 32 tokens/,
  );
  const fullPage = {
    rows: [
      { name: 'prompt keystroke (last token changed): input -> frame painted', section: { tokens: 32 }, median: 1 },
      { name: 'gradient depth drag: last input -> views', section: { tokens: 32 }, median: 1 },
    ],
    loads: [{ name: 'navigation -> computed views painted', median: 1 }],
    chromium: '1',
    loadAtEnd: [1],
  };
  assert.throws(
    () =>
      headlineFrom({
        kernels: { results: {}, env: { cpu: 'x', node: 'v20', peers: {} } },
        train: { results: [{ layers: 24, ms: { 'ours-simd': 1 }, bestTf: 2 }] },
        page: fullPage,
        phone: { rows: [{ rate: 1, name: 'largest contentful paint', median: 1 }] },
        commit: 'abc',
        date: 'd',
      }),
    /bench-phone\.json has no row "navigation -> computed views painted" at 4×/,
  );
  assert.throws(() => readmeWithHeadline('# no block\n', headline), /README.md has no headline block/);
  assert.ok(README_END.startsWith('<!--'));
});
