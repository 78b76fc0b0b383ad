// The panel list (web/src/panels/panel-list.js) the page walks and each
// custom element holds: panels are created and painted in list order, a
// panel with inputs is painted only when they changed, one without inputs
// every frame, a scoped paint paints only the panels named, and a failing
// panel is reported through env.guard while the rest go on.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createPanelList } from '../../web/src/panels/panel-list.js';

function surface() {
  const log = [];
  const env = {
    guard(name, fn) {
      try {
        fn();
      } catch (error) {
        log.push(`failed ${name}: ${error.message}`);
      }
    },
  };
  const descriptors = [
    {
      name: 'first',
      create: () => (log.push('create first'), { count: 0 }),
      inputs: ({ state }) => [state.lang],
      paint: ({ state }, panel) => log.push(`first ${state.lang} ${++panel.count}`),
    },
    {
      name: 'second',
      // Reads the first panel's object, created before it.
      create: ({ panel }) => (log.push('create second'), { first: panel('first') }),
      paint: (frame, { first }) => {
        frame.seen = first.count;
        log.push(`second ${first.count}`);
      },
    },
    {
      name: 'broken',
      create: () => ({}),
      inputs: ({ state }) => [state.x],
      paint: () => {
        throw new Error('no');
      },
    },
  ];
  return { log, list: createPanelList(descriptors, env) };
}

test('panels paint in order, each with inputs only when they changed', () => {
  const { log, list } = surface();
  assert.deepEqual(log.splice(0), ['create first', 'create second']);
  const frame = { state: { lang: 'en', x: 1 } };
  list.paint(frame);
  assert.equal(frame.seen, 1, 'a later panel reads what an earlier one left');
  list.paint({ state: { lang: 'en', x: 1 } });
  list.paint({ state: { lang: 'zh-CN', x: 2 } });
  assert.deepEqual(log, [
    'first en 1',
    'second 1',
    'failed broken: no',
    'second 1',
    'first zh-CN 2',
    'second 2',
    'failed broken: no',
  ]);
  assert.equal(list.get('first').count, 2);
});

test('a scoped paint paints the panels named', () => {
  const { log, list } = surface();
  log.length = 0;
  list.paint({ state: { lang: 'en', x: 1 } }, ['second']);
  assert.deepEqual(log.splice(0), ['second 0']);
  list.paint({ state: { lang: 'en', x: 1 } });
  assert.deepEqual(log, ['first en 1', 'second 1', 'failed broken: no']);
});

// A window for a deferred or sliced paint: its clock moves only when a
// panel works (work(ms)), and its tasks (setTimeout) wait in a queue the
// test runs, one by one or all (runAll()).
function fakeTasks() {
  const tasks = [];
  let clock = 0;
  const win = { performance: { now: () => clock }, setTimeout: (fn) => tasks.push(fn) };
  return {
    tasks,
    env: { win, guard: (name, fn) => fn() },
    work: (ms) => (clock += ms),
    async runAll() {
      while (tasks.length) {
        tasks.shift()();
        await new Promise((r) => setImmediate(r));
      }
    },
  };
}

test("a deferred list builds nothing in the caller's task, then the first screen first, a few ms per task, in list order", async () => {
  const log = [];
  const { tasks, env, work } = fakeTasks();
  // Each unit of work takes 20 ms on this clock, more than a task's share:
  // every task runs one.
  const step = (entry) => {
    log.push(entry);
    work(20);
  };
  const descriptors = [
    {
      name: 'text',
      create: () => (step('create text'), {}),
      inputs: ({ state }) => [state.lang],
      paint: () => step('text whole'),
      paintSteps: () => [() => step('text top'), () => step('text rest')],
    },
    { name: 'top', create: () => (step('create top'), {}), paint: () => step('top') },
    {
      name: 'below',
      create: ({ panel }) => (step(`create below (top ${panel('top') ? 'made' : 'missing'})`), {}),
      inputs: ({ state }) => [state.lang],
      paint: () => step('below'),
    },
  ];
  const list = createPanelList(descriptors, env, { deferred: true });
  assert.deepEqual(log, [], 'a deferred list creates nothing until build()');
  const frame = { state: { lang: 'en' } };
  let done = false;
  const built = list.build(frame, 2).then(() => (done = true));
  assert.deepEqual(log, [], 'nothing in the task that called build()');
  const perTask = [];
  const runTask = async () => {
    tasks.shift()();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    perTask.push(log.splice(0));
  };
  for (let i = 0; i < 4; i++) await runTask();
  // A repaint before the build is done paints the panels built so far only
  // (the text's first paint is not done until its last step).
  list.paint({ state: { lang: 'en' } });
  assert.deepEqual(log.splice(0), ['top']);
  work(20);
  while (tasks.length) await runTask();
  await built;
  assert.ok(done);
  // The first screen's panels, then the text's later steps, then the rest.
  assert.deepEqual(perTask, [
    ['create text'],
    ['text top'],
    ['create top'],
    ['top'],
    ['text rest'],
    ['create below (top made)'],
    ['below'],
  ]);
  // The build's paints count: the same inputs do not paint again.
  list.paint({ state: { lang: 'en' } });
  assert.deepEqual(log.splice(0), ['top']);
  list.paint({ state: { lang: 'zh-CN' } });
  assert.deepEqual(log.splice(0), ['text whole', 'top', 'below']);
});

test('paintSliced paints what changed, in list order, over tasks of a few ms', async () => {
  const log = [];
  const { env, work, runAll } = fakeTasks();
  const slow = (name) => ({
    name,
    create: () => ({}),
    inputs: ({ state }) => [state.lang],
    paint: () => {
      log.push(name);
      work(20);
    },
  });
  const list = createPanelList([slow('a'), slow('b'), slow('c')], env);
  list.paint({ state: { lang: 'en' } });
  log.length = 0;
  const done = list.paintSliced({ state: { lang: 'zh-CN' } });
  assert.deepEqual(log, ['a'], 'a slice ends once it took its time');
  await runAll();
  await done;
  assert.deepEqual(log, ['a', 'b', 'c']);
});

test('a language switch while a sliced paint runs: what it painted in the old language is painted again', async () => {
  const log = [];
  const { env, work, runAll } = fakeTasks();
  const title = (name) => ({
    name,
    create: () => ({}),
    inputs: ({ state }) => [state.lang],
    paint: ({ ctx }) => {
      log.push(`${name} ${ctx.lang}`);
      work(20);
    },
  });
  const list = createPanelList([title('a'), title('b')], env);
  // The page's state is one object; each frame's ctx is made for the
  // language of its time (app.js makeFrame).
  const state = { lang: 'zh-CN' };
  const done = list.paintSliced({ state, ctx: { lang: 'zh-CN' } });
  assert.deepEqual(log.splice(0), ['a zh-CN']);
  // The reader picks English, whose dictionary is still on its way (app.js
  // paint() waits for it): the sliced paint goes on in Chinese.
  state.lang = 'en';
  await runAll();
  await done;
  assert.deepEqual(log.splice(0), ['b zh-CN']);
  // The dictionary is here: both are painted in English.
  list.paint({ state, ctx: { lang: 'en' } });
  assert.deepEqual(log, ['a en', 'b en']);
});
