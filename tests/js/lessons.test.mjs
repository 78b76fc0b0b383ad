// The logic behind the student's own work on the page, under Node: the
// quiz's answer records (first pick, score, when the explanation opens; the
// key and the truth of each answer are in quiz.test.mjs), the
// calculator's double-precision steps where float32 overflows, and the
// figures the lessons quote from a forward view. The calculator's challenges
// have their own files (challenges.test.mjs, challenges.property.test.mjs).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { calculatorSteps } from '../../web/src/compute.js';
import { MODEL_SHAPE } from '../../web/src/constants.js';
import { challengeFacts, exerciseFacts, largestGap, stdRmsGap } from '../../web/src/model-facts.js';
import {
  QUIZ_KEY,
  isQuizSection,
  pickAnswer,
  questionView,
  quizScore,
  showExplanation,
} from '../../web/src/quiz-answers.js';
import { forwardView } from '../../web/src/compute.js';

let nl;
before(async () => {
  nl = await loadNormlab();
});
after(() => nl.dispose());

describe('quiz answers', () => {
  const wrong = (id) => ['a', 'b', 'c'].filter((o) => o !== QUIZ_KEY[id]);

  test('a right first pick scores and opens the explanation', () => {
    const s = pickAnswer({}, 'q2', QUIZ_KEY.q2);
    assert.deepEqual(s, { q2: { f: QUIZ_KEY.q2, r: 1, c: QUIZ_KEY.q2, w: 1 } });
    assert.deepEqual(questionView(s, 'q2'), {
      id: 'q2',
      chosen: QUIZ_KEY.q2,
      mark: 'correct',
      explained: true,
      revealKey: false,
      firstTryRight: true,
    });
    assert.deepEqual(quizScore(s), { answered: 1, firstTry: 1, total: 7 });
  });

  test('a first wrong pick opens nothing; the second wrong one opens the explanation and points at the answer', () => {
    const [w1, w2] = wrong('q1');
    let s = pickAnswer({}, 'q1', w1);
    assert.deepEqual(s.q1, { f: w1, r: 0, c: w1, w: 0 });
    assert.equal(questionView(s, 'q1').explained, false);
    assert.equal(questionView(s, 'q1').revealKey, false);
    // Picking the same option again changes nothing.
    assert.equal(pickAnswer(s, 'q1', w1), s);
    s = pickAnswer(s, 'q1', w2);
    assert.deepEqual(s.q1, { f: w1, r: 0, c: w2, w: 1 });
    assert.deepEqual(questionView(s, 'q1'), {
      id: 'q1',
      chosen: w2,
      mark: 'wrong',
      explained: true,
      revealKey: true,
      firstTryRight: false,
    });
    // Right at last: no first-try point, and the explanation stays open
    // whatever is picked next.
    s = pickAnswer(s, 'q1', QUIZ_KEY.q1);
    assert.deepEqual(quizScore(s), { answered: 1, firstTry: 0, total: 7 });
    assert.equal(pickAnswer(s, 'q1', w1).q1.w, 1);
  });

  test('"show why" opens the explanation of an answered question only', () => {
    const [w1] = wrong('q3');
    assert.deepEqual(showExplanation({}, 'q3'), {});
    const s = showExplanation(pickAnswer({}, 'q3', w1), 'q3');
    assert.deepEqual(s.q3, { f: w1, r: 0, c: w1, w: 1 });
    assert.equal(questionView(s, 'q3').revealKey, true);
  });

  test('stored sections are checked field by field; unknown questions or options are ignored', () => {
    assert.equal(isQuizSection({ q1: { f: 'a', r: 0, c: 'b', w: 1 }, q3: { f: 'b', r: 1, c: 'b' } }), true);
    assert.equal(isQuizSection({}), true);
    for (const bad of [
      null,
      [],
      'q1',
      { q8: { f: 'a', r: 0, c: 'a' } },
      { q1: { f: 'd', r: 0, c: 'a' } },
      { q1: { f: 'a', r: true, c: 'a' } },
      { q1: { f: 'a', r: 0 } },
      { q1: { f: 'a', r: 0, c: 'a', w: 2 } },
      { q1: 'a' },
    ]) {
      assert.equal(isQuizSection(bad), false, JSON.stringify(bad));
    }
    assert.deepEqual(pickAnswer({}, 'q9', 'a'), {});
    assert.deepEqual(pickAnswer({}, 'q1', 'z'), {});
  });
});

describe('calculator steps', () => {
  test('the worked example, float32 throughout', () => {
    const r = calculatorSteps(nl, [2, -1, 3, 0], 1e-6);
    assert.deepEqual(r.overflow, { rms: false, ln: false });
    assert.deepEqual(Array.from(r.rms.squares), [4, 1, 9, 0]);
    assert.equal(r.rms.meanSquare, 3.5);
    assert.equal(r.xL2, Math.fround(Math.sqrt(14)));
    assert.ok(Math.abs(r.yMeanSquare - 3.5 / (3.5 + 1e-6)) < 1e-6, `mean(y²) ${r.yMeanSquare}`);
    assert.ok(Math.abs(r.rmsL2 - 2) < 1e-6);
  });

  test('1e20: the squares and the variance overflow float32, the steps come in double precision', () => {
    const r = calculatorSteps(nl, [1e20, 2, 3], 1e-6);
    assert.deepEqual(r.overflow, { rms: true, ln: true });
    const x0 = Math.fround(1e20);
    assert.deepEqual(Array.from(r.rms.squares), [x0 * x0, 4, 9]);
    assert.equal(r.rms.meanSquare, (x0 * x0 + 13) / 3);
    // The kernel's RMS (float32) is the square root of that mean square.
    assert.ok(Math.abs(r.rms.rms / Math.sqrt(r.rms.meanSquare) - 1) < 2 ** -23, `RMS ${r.rms.rms}`);
    const mean = (x0 + 5) / 3;
    const variance = ((x0 - mean) ** 2 + (2 - mean) ** 2 + (3 - mean) ** 2) / 3;
    assert.ok(Math.abs(r.ln.variance / variance - 1) < 1e-12, `variance ${r.ln.variance}`);
    assert.ok(Math.abs(r.ln.std / Math.sqrt(variance) - 1) < 2 ** -22, `std ${r.ln.std}`);
    for (const v of [...r.rms.squares, r.rms.meanSquare, ...r.ln.centered, r.ln.variance, r.xL2])
      assert.ok(Number.isFinite(v));
    assert.ok(Math.abs(r.xL2 / Math.hypot(x0, 2, 3) - 1) < 2 ** -22);
  });

  test("entries near float32's limit with opposite signs: x − mean stays finite", () => {
    const r = calculatorSteps(nl, [3e38, -3e38], 1e-6);
    assert.equal(r.overflow.ln, true);
    assert.deepEqual(Array.from(r.ln.centered), [Math.fround(3e38), -Math.fround(3e38)]);
    assert.deepEqual(
      Array.from(r.ln.y, (v) => Math.round(v)),
      [1, -1],
    );
  });
});

describe('figures from the forward view', () => {
  const prompt = 'Each layer adds to the stream.';
  function view(settings) {
    const config = { ...MODEL_SHAPE, layers: 24, eps: 1e-6, ...settings };
    const model = nl.createModel(config);
    try {
      return forwardView(model.forward(prompt, { topK: 1 }), config, prompt);
    } finally {
      model.delete();
    }
  }

  test('pre-norm: the stream grows, the input norm lifts layer 0 to about 32, std ≈ RMS', () => {
    const v = view({ norm: 'rmsnorm', placement: 'pre' });
    const facts = challengeFacts(v);
    assert.equal(facts.first.in, v.residualL2[0]);
    assert.ok(facts.first.in < 12 && Math.abs(facts.first.out - 32) < 1.5, JSON.stringify(facts.first));
    assert.ok(facts.last.in > 60 && Math.abs(facts.last.out - 32) < 1.5, JSON.stringify(facts.last));
    const g = stdRmsGap(v, 'inputNorm.in', 22);
    const s = v.probes['inputNorm.in'];
    assert.equal(g.gap, (s.rms[22] - s.std[22]) / s.rms[22]);
    assert.ok(g.gap >= 0 && g.gap < 0.01 && facts.largestGap >= g.gap && facts.largestGap === largestGap(v));
    const ex = exerciseFacts(v);
    assert.deepEqual(
      ex.layers.map((l) => l.layer),
      [0, 22],
    );
    assert.ok(ex.layers[1].in > 3 * ex.layers[0].in);
  });

  test('post-norm: from layer 1 on the stream stays near 32; only the embedding is far from it', () => {
    const ex = exerciseFacts(view({ norm: 'rmsnorm', placement: 'post' }));
    assert.ok(ex.layers[0].residual < 12, `embedding ${ex.layers[0].residual}`);
    assert.ok(ex.later.lo > 28 && ex.later.hi < 36, JSON.stringify(ex.later));
  });

  test('no norm: no norm figures; a shallow stack has no layer 22', () => {
    assert.deepEqual(challengeFacts(view({ norm: 'none', placement: 'pre' })), {
      norm: 'none',
      placement: 'pre',
      depth: 24,
    });
    const shallow = exerciseFacts(view({ norm: 'rmsnorm', placement: 'pre', layers: 12 }));
    assert.deepEqual(
      shallow.layers.map((l) => l.layer),
      [0],
    );
  });
});
