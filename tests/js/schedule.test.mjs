// The repaint scheduler (web/src/panels/schedule.js), which the page and the
// custom elements share, on a window whose animation frames, idle callbacks
// and intersections the test runs by hand: one paint per frame whatever the
// number of requests, one view's scope kept only when no other was asked
// for, and a view far from the screen painted with its newest inputs when it
// nears the screen or at idle time, never twice for the same inputs.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createScheduler } from '../../web/src/panels/schedule.js';

// A window whose frames, idle callbacks and intersection observers run when
// the test says.
function fakeWindow({ observers = true } = {}) {
  const frames = [];
  const idles = [];
  const watchers = [];
  const win = {
    performance: { now: () => 0 },
    requestAnimationFrame: (fn) => frames.push(fn),
    requestIdleCallback: (fn) => idles.push(fn) - 1,
    cancelIdleCallback: (handle) => (idles[handle] = null),
    setTimeout: (fn) => idles.push(fn) - 1,
    clearTimeout: (handle) => (idles[handle] = null),
  };
  if (observers) {
    win.IntersectionObserver = class {
      constructor(callback) {
        this.callback = callback;
        this.targets = [];
        watchers.push(this);
      }
      observe(target) {
        this.targets.push(target);
      }
      disconnect() {
        this.targets = [];
      }
    };
  }
  return {
    win,
    frame() {
      const run = frames.splice(0);
      for (const fn of run) fn();
      return run.length;
    },
    idle() {
      const run = idles.splice(0).filter(Boolean);
      for (const fn of run) fn();
      return run.length;
    },
    // The section of `node` comes near the screen (or leaves it).
    intersect(target, isIntersecting) {
      for (const watcher of watchers) {
        if (watcher.targets.includes(target)) watcher.callback([{ target, isIntersecting }]);
      }
    },
  };
}

// A view's node inside a demo part, as on the page and in <normlab-demo>.
function viewNode(name) {
  const section = { className: 'demo-part' };
  return {
    section,
    node: { dataset: { widget: name }, closest: (selector) => (selector === '.demo-part' ? section : null) },
  };
}

test('frames coalesce: one paint per frame, with the one scope asked for or the whole', () => {
  const fake = fakeWindow();
  const painted = [];
  const scheduler = createScheduler({ win: fake.win, paint: (scope) => painted.push(scope) });
  scheduler.request('softmax');
  scheduler.request('softmax');
  assert.equal(fake.frame(), 1);
  assert.deepEqual(painted, ['softmax']);
  scheduler.request('softmax');
  scheduler.request('playground');
  scheduler.request('softmax');
  fake.frame();
  assert.deepEqual(painted, ['softmax', null]);
  scheduler.request();
  scheduler.request('softmax');
  fake.frame();
  assert.deepEqual(painted, ['softmax', null, null]);
  assert.equal(fake.frame(), 0, 'no frame without a request');
});

test('a view off screen keeps its newest paint for idle time or for when it nears the screen', () => {
  const fake = fakeWindow();
  const measured = [];
  const wholePaints = [];
  const scheduler = createScheduler({
    win: fake.win,
    paint: (scope) => wholePaints.push(scope),
    measure: (name, start, kind) => measured.push(`${kind}:${name}`),
  });
  const { section, node } = viewNode('attention');
  const shown = [];
  const view = (inputs) => scheduler.view(node, inputs, () => shown.push(inputs[0]));
  // Near until the observer says otherwise.
  view([1]);
  assert.deepEqual(shown, [1]);
  fake.intersect(section, false);
  view([2]);
  view([3]);
  assert.deepEqual(shown, [1], 'off screen: kept, not painted');
  fake.idle();
  assert.deepEqual(shown, [1, 3], 'the newest inputs, once, at idle time');
  view([3]);
  assert.equal(fake.idle(), 0, 'the inputs it shows: nothing kept');
  view([4]);
  fake.intersect(section, true);
  assert.deepEqual(wholePaints, [], 'the repaint comes in the next frame');
  fake.frame();
  assert.deepEqual(wholePaints, [null]);
  view([4]);
  assert.deepEqual(shown, [1, 3, 4], 'near again: painted in the frame');
  fake.intersect(section, false);
  scheduler.view(node, [6], () => shown.push(6), true);
  assert.deepEqual(shown, [1, 3, 4, 6], 'now: painted at once off screen too');
  assert.deepEqual(measured, ['view:attention', 'offscreen:attention', 'view:attention', 'view:attention']);
});

test('a failing view reports its name and leaves the others painted; without IntersectionObserver views paint at once', () => {
  const fake = fakeWindow({ observers: false });
  const errors = [];
  const scheduler = createScheduler({
    win: fake.win,
    paint: () => {},
    onError: (error, name) => errors.push([name, error.message]),
  });
  const shown = [];
  scheduler.view(viewNode('attention').node, [1], () => {
    throw new Error('broken');
  });
  scheduler.view(viewNode('gradient-flow').node, [1], () => shown.push(1));
  assert.deepEqual(errors, [['attention', 'broken']]);
  assert.deepEqual(shown, [1]);
  assert.equal(fake.idle(), 0);
});
