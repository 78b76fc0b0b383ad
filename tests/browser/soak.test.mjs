// The soak's short run for `./build.sh test` (the full run, 10,000 moves and
// 1,000 prompt changes: `./build.sh soak`). The same code and the same
// verdict as the full run (tests/browser/soak.mjs): after warm-up, a few
// hundred scripted moves over every control of the page and of the embed
// demo's custom elements must leave the wasm memory where it was, the JS
// heap after GC within its tolerance, the console free of errors and the
// sliders as quick to paint as at the start. On the page the training lab's
// contrasts start, pause, end and are reset among the moves, and every
// trainer's wasm instance must be collected once its run is over.
import os from 'node:os';
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { shareBrowserAndServer } from './page-support.mjs';
import { embedControls, mib, openSoakPage, pageControls, soak, summary, verdict } from './soak.mjs';

const shared = shareBrowserAndServer();

function check(report, controls) {
  const failures = verdict(report);
  assert.deepEqual(failures, [], `${summary(report)}\n${failures.join('\n')}`);
  // What verdict() judged is really there.
  const warm = report.samples.find((s) => s.phase === 'warm-up');
  const end = report.samples.find((s) => s.phase === 'end');
  assert.equal(warm.wasm.length, 1, 'one wasm module');
  assert.equal(warm.wasm[0].backend, 'simd128');
  assert.ok(warm.wasm[0].bufferBytes >= 16 * 1024 * 1024, `wasm memory ${warm.wasm[0].bufferBytes}`);
  assert.equal(end.wasm[0].bufferBytes, warm.wasm[0].bufferBytes);
  assert.ok(
    warm.js.usedBytes > 1024 * 1024 && end.js.usedBytes > 1024 * 1024,
    `JS heap ${mib(warm.js.usedBytes)}, ${mib(end.js.usedBytes)}`,
  );
  assert.ok(report.responsiveness.endMedianMs > 0 && report.responsiveness.startMedianMs > 0);
  // Every control got moves.
  for (const c of controls) assert.ok(report.perControl[c.name] > 0, `no move on ${c.name}`);
}

// The lab's runs really happened, each trainer in an instance of its own,
// and every one of those instances was collected.
function checkLab(report) {
  const { lab, trainerModules } = report;
  assert.ok(lab.started >= 2, `${lab.started} contrasts started`);
  assert.ok(lab.finished >= 1, `${lab.finished} contrasts finished`);
  assert.ok(lab.resetMidRun >= 1, `${lab.resetMidRun} contrasts reset mid-run`);
  assert.ok(lab.paused >= 1, `${lab.paused} pauses`);
  // A contrast that ends trains each run in a new instance (a worker's):
  // the warm-up's contrast alone made three after the one reset.
  assert.ok(trainerModules.length >= 4, `${trainerModules.length} trainer instances made`);
  const ids = trainerModules.map((m) => m.id);
  assert.deepEqual(
    ids,
    [...ids.keys()].map((i) => i + 1),
  );
  for (const m of trainerModules) {
    assert.equal(m.alive, false, `trainer instance ${m.id} still alive`);
    assert.equal(m.backend, 'worker simd128');
    // Its memory as its worker reported it, the trainer made: the module's
    // initial 16 MiB or more (parameters, Adam state, activations), never
    // less while it trained; a worker reset before its trainer was made
    // reported none.
    assert.ok(m.createdBytes === 0 || m.createdBytes >= 16 * 1024 * 1024, `instance ${m.id}: ${m.createdBytes} bytes`);
    assert.ok(m.maxBytes >= m.createdBytes, `instance ${m.id}: ${m.maxBytes} bytes`);
  }
  // Every sample after GC: at most one trainer per worker the lab runs at
  // once, none at the end.
  const atOnce = Math.max(1, os.cpus().length - 1);
  assert.ok(
    trainerModules.some((m) => m.maxBytes > 16 * 1024 * 1024),
    "no trainer instance reported more than the module's initial memory",
  );
  assert.ok(report.samples.every((s) => s.trainers.live <= atOnce));
  assert.equal(report.samples.at(-1).trainers.live, 0);
}

// The page and the embed demo: the same short soak, each over its own controls.
for (const [name, target, moves, prompts, samples, controls] of [
  ['300 moves and 30 prompt changes over every widget of the page', 'page', 300, 30, 3, pageControls],
  ["150 moves and 15 prompt changes over the embed demo's elements", 'embed', 150, 15, 2, embedControls],
]) {
  test(`soak, short: ${name}`, async () => {
    const report = await soak({ browser: shared.browser, baseUrl: shared.server.url, target, moves, prompts, samples });
    assert.equal(report.moves, moves);
    assert.equal(report.prompts, prompts);
    check(report, controls());
    if (target === 'page') checkLab(report);
  });
}

test('the embed elements delete the models they no longer show', async () => {
  const { page, problems, close } = await openSoakPage(shared.browser, `${shared.server.url}embed-demo.html`);
  try {
    await page.waitForFunction(() =>
      [...document.querySelectorAll('*')]
        .filter((n) => n.localName.startsWith('normlab-'))
        .every((n) => n.dataset.painted === 'computed'),
    );
    await page.evaluate(() => window.__soak.idle());
    // The models' shared scratch is allocated at its largest on first use
    // (the kept run for every layer of a 64-layer model, the backward's
    // checkpoints at their budget); the layer chart goes to depth 50 and the
    // gradient views to 48 once before the baseline all the same.
    await page.evaluate(
      (a) => window.__soak.run(a),
      [
        { kind: 'attr', host: 'normlab-layer-chart', name: 'depth', value: '50' },
        { kind: 'range', host: 'normlab-gradient-flow', sel: '#grad-depth', fraction: 1 },
        { kind: 'idle' },
        { kind: 'attr', host: 'normlab-layer-chart', name: 'depth', value: '24' },
        { kind: 'range', host: 'normlab-gradient-flow', sel: '#grad-depth', fraction: 6 / 42 },
        { kind: 'idle' },
      ],
    );
    const memory = async () => (await page.evaluate(() => window.__soak.memory()))[0];
    const base = await memory();
    // 22 gradient depths x 2 stacks on <normlab-gradient-flow> (the first
    // `depth` layers of two 64-layer instances, which the page's pool holds
    // with the layer chart's) while <normlab-layer-chart>'s depth moves over
    // the same range on its instance.
    const actions = [];
    for (let depth = 8; depth <= 50; depth += 2) {
      actions.push(
        { kind: 'range', host: 'normlab-gradient-flow', sel: '#grad-depth', fraction: (Math.min(depth, 48) - 6) / 42 },
        { kind: 'attr', host: 'normlab-layer-chart', name: 'depth', value: String(depth) },
        { kind: 'idle' },
      );
    }
    // Back to where they started: gdepth 12, depth 24.
    actions.push(
      { kind: 'range', host: 'normlab-gradient-flow', sel: '#grad-depth', fraction: 6 / 42 },
      { kind: 'attr', host: 'normlab-layer-chart', name: 'depth', value: '24' },
      { kind: 'idle' },
    );
    await page.evaluate((a) => window.__soak.run(a), actions);
    const after = await memory();
    assert.equal(after.liveAllocations, base.liveAllocations);
    assert.ok(
      after.mallocBytes <= base.mallocBytes + 1024 * 1024,
      `malloc'd ${base.mallocBytes} -> ${after.mallocBytes} bytes`,
    );
    assert.ok(
      after.bufferBytes <= base.bufferBytes * 1.5,
      `wasm memory ${base.bufferBytes} -> ${after.bufferBytes} bytes`,
    );
    assert.equal(await page.textContent('normlab-gradient-flow #grad-depth + output').then((t) => /12/.test(t)), true);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
