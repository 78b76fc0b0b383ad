// The student's own state (web/src/learner.js): kept in storage between
// visits, each section read back through its owner's check, and working in
// memory where storage cannot be used.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createLearnerStore, createMemoryLearnerStore } from '../../web/src/learner.js';

function fakeStorage({ full = false } = {}) {
  const items = new Map();
  return {
    items,
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => {
      if (full) throw new Error('QuotaExceededError');
      items.set(k, String(v));
    },
    removeItem: (k) => items.delete(k),
  };
}

const isAnswers = (v) => typeof v === 'object' && Object.values(v).every((a) => ['a', 'b', 'c'].includes(a));

test('a section written in one visit is read back in the next', () => {
  const storage = fakeStorage();
  createLearnerStore({ storage }).write('quiz', { q1: 'b', q2: 'c' });
  const next = createLearnerStore({ storage });
  assert.deepEqual(next.read('quiz', isAnswers), { q1: 'b', q2: 'c' });
  assert.equal(
    next.read('predictions', () => true),
    null,
  );
});

test('a section that fails its check, or stored JSON that is not an object, reads as absent', () => {
  const storage = fakeStorage();
  storage.setItem('normlab:learner:v1', JSON.stringify({ quiz: { q1: 'z' } }));
  assert.equal(createLearnerStore({ storage }).read('quiz', isAnswers, 'none'), 'none');
  storage.setItem('normlab:learner:v1', '[1, 2]');
  assert.equal(createLearnerStore({ storage }).read('quiz', isAnswers), null);
  storage.setItem('normlab:learner:v1', '{not json');
  assert.equal(createLearnerStore({ storage }).read('quiz', isAnswers), null);
  // A check that throws on a malformed value counts as a failed check.
  storage.setItem('normlab:learner:v1', JSON.stringify({ quiz: 5 }));
  assert.equal(
    createLearnerStore({ storage }).read('quiz', (v) => v.q1.length > 0),
    null,
  );
});

test('storage that refuses writes leaves the store working in memory', () => {
  const store = createLearnerStore({ storage: fakeStorage({ full: true }) });
  store.write('quiz', { q1: 'a' });
  assert.deepEqual(store.read('quiz', isAnswers), { q1: 'a' });
  const memory = createMemoryLearnerStore();
  memory.write('exercise', { revealed: true });
  assert.deepEqual(
    memory.read('exercise', (v) => typeof v.revealed === 'boolean'),
    { revealed: true },
  );
});

test('values are copied in and out; clear, snapshot, restore and subscribers', () => {
  const storage = fakeStorage();
  const store = createLearnerStore({ storage });
  const seen = [];
  const stop = store.subscribe((data) => seen.push(Object.keys(data).sort().join(',')));
  const value = { q1: 'a' };
  store.write('quiz', value);
  value.q1 = 'c';
  assert.deepEqual(store.read('quiz', isAnswers), { q1: 'a' });
  store.write('exercise', { revealed: true });
  const snapshot = store.snapshot();
  store.clear();
  assert.equal(store.read('quiz', isAnswers), null);
  assert.equal(storage.getItem('normlab:learner:v1'), '{}');
  store.restore(snapshot);
  assert.deepEqual(store.read('quiz', isAnswers), { q1: 'a' });
  store.write('exercise', null);
  assert.deepEqual(Object.keys(store.snapshot()), ['quiz']);
  stop();
  store.write('quiz', { q1: 'b' });
  assert.deepEqual(seen, ['quiz', 'exercise,quiz', '', 'exercise,quiz', 'quiz']);
  store.restore('not an object');
  assert.deepEqual(store.snapshot(), {});
});
