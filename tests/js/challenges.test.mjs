// The calculator's challenges under Node, on worked examples: what completes
// each task (challenge-machine.js's rules, on the kernels' results), what
// the buttons put in the calculator, the sequence a student's reading broke
// (3, 3, 3, 3, then "Add 10", then "Subtract the mean") with every sentence
// it leaves in both languages, the notes on vectors that do not count, the
// examples after a reload and the stored progress. The property test
// (challenges.property.test.mjs) covers arbitrary sequences.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import {
  flatVerdict,
  hasZeroMean,
  nextChecks,
  initialChecks,
  shiftBetween,
  shiftPair,
  shiftVerdict,
  zeroVerdict,
} from '../../web/src/challenge-machine.js';
import { sentenceText } from '../../web/src/challenge-text.js';
import {
  buttonText,
  centeredText,
  challengeExamples,
  doneCount,
  isChallengeSection,
  shiftedText,
} from '../../web/src/challenges.js';
import { calculatorSteps } from '../../web/src/compute.js';
import { clearRoot } from '../../web/src/eps-share.js';
import { lookup, plain } from '../../web/src/i18n/index.js';
import { createChallengePage } from './challenge-page.mjs';

let nl;
before(async () => {
  nl = await loadNormlab({ backend: 'simd128' });
});
after(() => nl.dispose());

const steps = (x, eps = 1e-6) => calculatorSteps(nl, x, eps);
const keys = (item) => [...item.sentences, ...item.closing].map((s) => s.key);
const texts = (item, lang) => [...item.sentences, ...item.closing].map((s) => sentenceText(s, tr(lang)));
const tr = (lang) => (key, params) => plain(lookup(lang, key), params);
const f32 = (v) => Math.fround(v);

describe('what completes a task', () => {
  test('flat: two or more equal entries, eps negligible', () => {
    assert.equal(flatVerdict(steps([3, 3, 3, 3])), 'done');
    assert.equal(flatVerdict(steps([-0.1, -0.1])), 'done');
    assert.equal(flatVerdict(steps([1e30, 1e30, 1e30])), 'done');
    assert.equal(flatVerdict(steps([0, 0, 0, 0])), 'zero');
    // RMS 0.01 < 100·√eps = 0.1: eps shows (y = 0.99995 at eps 10⁻⁶).
    assert.equal(flatVerdict(steps([0.01, 0.01])), 'small');
    assert.equal(flatVerdict(steps([1e-30, 1e-30])), 'small');
    // At eps = 10⁻⁵ the bound is 0.316.
    assert.equal(flatVerdict(steps([0.2, 0.2], 1e-5)), 'small');
    assert.equal(flatVerdict(steps([3])), null);
    assert.equal(flatVerdict(steps([3, 3.0001])), null);
  });

  test('zero: mean 0 next to the RMS, not all zeros, eps negligible', () => {
    assert.equal(zeroVerdict(steps([1, -2, 2, -1])), 'done');
    assert.equal(zeroVerdict(steps([0.3, -0.1, -0.2])), 'done');
    assert.equal(zeroVerdict(steps([1, -2, 2, -0.99])), null);
    assert.equal(zeroVerdict(steps([0, 0, 0])), 'allZero');
    assert.equal(zeroVerdict(steps([0])), 'allZero');
    assert.equal(zeroVerdict(steps([0.001, -0.001])), 'small');
    assert.equal(zeroVerdict(steps([5])), null);
    assert.equal(hasZeroMean(steps([1e30, -1e30])), true);
  });

  test('shift: one number added to a vector whose entries differ, and the kernels show it', () => {
    const verdict = (a, b, eps) => shiftVerdict(shiftPair(steps(a, eps), steps(b, eps)));
    assert.equal(shiftBetween(Float32Array.from([2, -1, 3, 0]), Float32Array.from([12, 9, 13, 10])), 10);
    assert.equal(shiftBetween(Float32Array.from([2, -1]), Float32Array.from([4, -2])), null);
    assert.equal(shiftBetween(Float32Array.from([2, -1]), Float32Array.from([2, -1])), null);
    assert.equal(verdict([2, -1, 3, 0], [12, 9, 13, 10]), 'done');
    assert.equal(verdict([100, 120, 90], [110, 130, 100]), 'done');
    // 3, 3, 3, 3 and 13, 13, 13, 13: LayerNorm's zeros both times, RMSNorm's
    // ones both times: nothing moves.
    assert.equal(verdict([3, 3, 3, 3], [13, 13, 13, 13]), 'constant');
    assert.equal(verdict([0, 0, 0, 0], [3, 3, 3, 3]), 'constant');
    // float32 keeps ~7 digits: 10 vanishes next to 10⁹, or reaches some
    // entries only.
    assert.equal(verdict([1e9, 2e9], [1e9 + 10, 2e9 + 10]), 'absorbed');
    assert.equal(verdict([1e9, 1], [1e9 + 10, 11]), 'uneven');
    assert.equal(verdict([0.001, 0.002], [10.001, 10.002]), 'small');
    assert.equal(verdict([1000, 1001], [1010, 1011]), 'tiny');
    // Added 10⁵ to entries 0.1 apart: float32's spacing there is 0.0078.
    assert.equal(verdict([0.1, 0.2, 0.4], [1e5 + 0.1, 1e5 + 0.2, 1e5 + 0.4]), 'rounding');
  });

  test("the buttons' texts: the constant example, the vector shifted by 10, or centred", () => {
    assert.equal(buttonText('flat', 'anything'), '3, 3, 3, 3');
    assert.equal(buttonText('shift', '2, -1, 3, 0'), '12, 9, 13, 10');
    assert.equal(buttonText('center', '[2, 4, 4, 8]'), '-2.5, -0.5, -0.5, 3.5');
    assert.equal(buttonText('shift', '2, x'), null);
    assert.equal(shiftedText('2, -1, 3, 0', 10), '12, 9, 13, 10');
    assert.equal(centeredText('2.3 1.1'), '0.6, -0.6');
    assert.equal(centeredText('13, 13, 13, 13'), '0, 0, 0, 0');
  });
});

describe("the student's sequence: 3, 3, 3, 3, then Add 10, then Subtract the mean", () => {
  function walk() {
    const page = createChallengePage(nl);
    page.press('flat');
    page.press('shift');
    page.answer('unit', 'b');
    page.answer('size', 'c');
    page.press('center');
    return page;
  }

  test('the flat task is done; the shift and zero-mean tasks are not, and say why', () => {
    const page = walk();
    assert.equal(page.text, '0, 0, 0, 0');
    assert.deepEqual(page.stored, { flat: 1, unit: 'b', size: 'c' });
    const v = page.view();
    // The flat task: done with 3, 3, 3, 3, then 13, 13, 13, 13 (also
    // constant); now shown with the last, as an earlier vector.
    assert.equal(v.flat.done, true);
    assert.equal(v.flat.source, 'earlier');
    assert.deepEqual(Array.from(v.flat.subject.x), [13, 13, 13, 13]);
    // "Add 10" on a constant vector: not done; the note stays, as earlier.
    assert.equal(v.shift.done, false);
    assert.equal(v.shift.source, 'earlier');
    assert.equal(v.shift.verdict, 'constant');
    assert.deepEqual(keys(v.shift), ['challenges.shift.constant']);
    assert.deepEqual(Array.from(v.shift.subject.before.x), [3, 3, 3, 3]);
    // "Subtract the mean" left zeros: explained, on the vector shown.
    assert.equal(v.zero.done, false);
    assert.equal(v.zero.source, 'now');
    assert.deepEqual(keys(v.zero), ['challenges.zero.allZero']);
    assert.equal(v.zero.sentences[0].params.rms, f32(Math.sqrt(f32(1e-6))));
    assert.equal(v.zero.modelFacts, false);
    // The questions, on the zero vector: no √d claim, no "kept its length".
    assert.deepEqual(keys(v.unit), ['challenges.unit.zero', 'challenges.zeroVector']);
    assert.deepEqual(keys(v.size), ['challenges.size.zero', 'challenges.size.why']);
    assert.equal(v.size.modelFacts, true);
  });

  for (const lang of ['en', 'zh-CN']) {
    test(`every sentence it leaves, in ${lang}`, () => {
      const v = walk().view();
      const t = tr(lang);
      const zeroLead = t('challenges.source.now', { x: '[0, 0, 0, 0]' });
      assert.deepEqual(texts(v.zero, lang), [t('challenges.zero.allZero', { lead: zeroLead, rms: '0.001' })]);
      const verdict = t('challenges.right');
      assert.deepEqual(texts(v.unit, lang), [
        t('challenges.unit.zero', { verdict, least: '0.1' }),
        t('challenges.zeroVector', { rms: '0.001', std: '0.001', sqrtD: '2' }),
      ]);
      assert.deepEqual(texts(v.size, lang), [t('challenges.size.zero', { verdict }), t('challenges.size.why')]);
      assert.deepEqual(texts(v.shift, lang), [
        t('challenges.shift.constant', {
          lead: t('challenges.source.earlier', { x: '[13, 13, 13, 13]' }),
          before: '[3, 3, 3, 3]',
          c: '10',
        }),
      ]);
      assert.deepEqual(texts(v.flat, lang), [
        t('challenges.flat.result', {
          lead: t('challenges.source.earlier', { x: '[13, 13, 13, 13]' }),
          lnY: '[0, 0, 0, 0]',
          rmsY: '[1, 1, 1, 1]',
        }),
        t('challenges.flat.why', { mean: '13', std: '0.001', rms: '13' }),
      ]);
      // What the student's reading found: eps's RMS read as a length, and a
      // length of 0 read as √d.
      const all = Object.values(v).flatMap((item) => texts(item, lang));
      for (const line of all) assert.doesNotMatch(line, /0\.001 → |√4 = 2）：它本来|already had that length/);
    });
  }

  test('then every task can still be completed: Example A, Subtract the mean; Add 10', () => {
    const page = walk();
    page.type('2, -1, 3, 0');
    page.press('center');
    assert.equal(page.text, '1, -2, 2, -1');
    let v = page.view();
    assert.equal(v.zero.done, true);
    assert.equal(v.zero.source, 'now');
    assert.deepEqual(keys(v.zero), ['challenges.zero.result', 'challenges.zero.why']);
    // Subtracting the mean is a shift (by −1 here): it counts for that task
    // too, and says so.
    assert.equal(v.shift.done, true);
    assert.equal(v.shift.subject.c, -1);
    page.press('shift');
    v = page.view();
    assert.equal(v.shift.source, 'now');
    assert.equal(v.shift.subject.c, 10);
    assert.deepEqual(page.stored, { flat: 1, unit: 'b', size: 'c', zero: 1, shift: 1 });
  });
});

describe('shifts', () => {
  test('a typed shift of a constant vector does not count: 0, 0, 0, 0 then 3, 3, 3, 3', () => {
    const page = createChallengePage(nl, { text: '0, 0, 0, 0' });
    page.type('3, 3, 3, 3');
    const v = page.view();
    assert.equal(v.shift.done, false);
    assert.equal(v.shift.source, null);
    assert.deepEqual(keys(v.shift), []);
    // The flat task does count: a constant other than 0.
    assert.equal(v.flat.done, true);
  });

  test('a typed shift of a vector whose entries differ counts, also retyped key by key', () => {
    const page = createChallengePage(nl);
    for (const text of ['1', '12', '12, 9', '12, 9, 1', '12, 9, 13', '12, 9, 13, 1', '12, 9, 13, 10']) page.type(text);
    const v = page.view();
    assert.equal(v.shift.done, true);
    assert.equal(v.shift.source, 'now');
    assert.deepEqual(keys(v.shift), ['challenges.shift.result', 'challenges.shift.why']);
    const [result, why] = v.shift.sentences;
    assert.equal(result.params.c, 10);
    assert.deepEqual(Array.from(result.params.before), [2, -1, 3, 0]);
    assert.equal(result.params.lnChange, 0);
    assert.ok(result.params.rmsChange > 1);
    assert.equal(why.params.rmsBefore, f32(Math.sqrt(3.5 + 1e-6)));
  });

  test("the button's notes: entries too large for float32 to take 10, too small for eps", () => {
    const page = createChallengePage(nl, { text: '1e9, 2e9' });
    page.press('shift');
    assert.deepEqual(keys(page.view().shift), ['challenges.shift.absorbed']);
    page.type('1e9, 1');
    page.press('shift');
    assert.equal(page.text, '1000000010, 11');
    assert.deepEqual(keys(page.view().shift), ['challenges.shift.uneven']);
    page.type('0.001, 0.002');
    page.press('shift');
    const small = page.view().shift;
    assert.deepEqual(keys(small), ['challenges.shift.small', 'challenges.epsShare']);
    assert.deepEqual(Array.from(small.sentences[0].params.small), [f32(0.001), f32(0.002)]);
    page.type('1000, 1001');
    page.press('shift');
    assert.deepEqual(keys(page.view().shift), ['challenges.shift.tiny']);
    assert.equal(page.stored.shift, undefined);
  });
});

describe('vectors that do not count', () => {
  test('a small constant: RMSNorm gives less than 1, printed so', () => {
    const page = createChallengePage(nl, { text: '0.001, 0.001, 0.001' });
    const v = page.view();
    assert.equal(v.flat.done, false);
    assert.equal(v.flat.source, 'now');
    assert.deepEqual(keys(v.flat), ['challenges.flat.small', 'challenges.epsShare']);
    const [small, share] = texts(v.flat, 'en');
    // mean(x²) = eps: y = 1 / √2.
    assert.match(small, /RMSNorm outputs \[0\.71, 0\.71, 0\.71\] instead of ±1/);
    assert.match(share, /makes up 50% of RMS²/);
  });

  test('0, 0, 0, 0 typed: the flat and zero-mean tasks each say why not', () => {
    const page = createChallengePage(nl, { text: '0, 0, 0, 0' });
    const v = page.view();
    assert.deepEqual(keys(v.flat), ['challenges.flat.zero']);
    assert.deepEqual(keys(v.zero), ['challenges.zero.allZero']);
    assert.deepEqual(page.stored, {});
  });

  test('entries of 10⁻³⁰: eps is 100% of RMS² in float32; the questions say so', () => {
    const page = createChallengePage(nl, { text: '1e-30, -1e-30' });
    page.answer('unit', 'b');
    page.answer('size', 'c');
    const v = page.view();
    assert.deepEqual(keys(v.zero), ['challenges.zero.small', 'challenges.epsShare']);
    assert.deepEqual(keys(v.unit), ['challenges.unit.small', 'challenges.epsShare']);
    assert.deepEqual(keys(v.size), ['challenges.size.small', 'challenges.epsShare', 'challenges.size.why']);
    assert.equal(v.unit.sentences[1].params.share, 100);
    const [unit] = texts(v.unit, 'en');
    assert.match(unit, /short of √2 = 1\.414/);
  });

  test('a length just short of √d prints short of it', () => {
    // RMS 0.3 at eps 10⁻⁵: eps is 0.011% of RMS², y's length 7.99956.
    const page = createChallengePage(nl, { text: Array(64).fill('0.3').join(' '), eps: 1e-5 });
    page.answer('unit', 'b');
    const v = page.view();
    assert.deepEqual(keys(v.unit), ['challenges.unit.small', 'challenges.epsShare']);
    const [unit, share] = texts(v.unit, 'en');
    assert.match(unit, /mean\(y²\) = 0\.9999 rather than 1, so the length of y is 7\.9996, short of √64 = 8:/);
    assert.match(share, /makes up 0\.011% of RMS²/);
    assert.equal(v.flat.verdict, 'small');
  });
});

describe('progress', () => {
  test('any order: the zero mean first, then the constant, then a shift, at eps 10⁻⁵', () => {
    const page = createChallengePage(nl, { text: '2, 4, 4, 8', eps: 1e-5 });
    page.press('center');
    assert.deepEqual(page.stored, { zero: 1, shift: 1 });
    const page2 = createChallengePage(nl, { text: '2, 4, 4, 8', eps: 1e-5 });
    page2.press('flat');
    page2.type('2, 4, 4, 8');
    page2.press('shift');
    page2.press('center');
    assert.deepEqual(page2.stored, { flat: 1, shift: 1, zero: 1 });
  });

  test('a reload shows the done tasks on their examples, which complete them', () => {
    const page = createChallengePage(nl, { section: { flat: 1, shift: 1, zero: 1, unit: 'b' } });
    page.reload();
    const v = page.view();
    for (const id of ['flat', 'shift', 'zero']) {
      assert.equal(v[id].source, 'example', id);
      assert.equal(v[id].verdict, 'done', id);
    }
    const examples = challengeExamples(nl, 1e-6);
    assert.equal(flatVerdict(examples.flat), 'done');
    assert.equal(shiftVerdict(shiftPair(examples.shift.before, examples.shift.after)), 'done');
    assert.equal(zeroVerdict(examples.zero), 'done');
    assert.deepEqual(
      Array.from(v.zero.subject.ln.y, (y) => Math.round(y * 100) / 100),
      [0.63, -1.26, 1.26, -0.63],
    );
    // Another eps: the examples are computed anew with it.
    page.setEps(1e-5);
    assert.equal(page.view().flat.subject.eps, 1e-5);
  });

  test('a cleared store takes the tasks back; evidence of this visit goes with it', () => {
    let checks = nextChecks(initialChecks(), { type: 'vector', result: steps([3, 3, 3, 3]) });
    assert.deepEqual(checks.section, { flat: 1 });
    checks = nextChecks(checks, { type: 'stored', section: {} });
    assert.deepEqual(checks.section, {});
    assert.equal(checks.evidence.flat, null);
    checks = nextChecks(checks, { type: 'answer', id: 'size', option: 'a' });
    assert.deepEqual(checks.section, { size: 'a' });
    assert.equal(nextChecks(checks, { type: 'answer', id: 'size', option: 'z' }), checks);
    assert.throws(() => nextChecks(checks, { type: 'nonsense' }), RangeError);
  });

  test('the stored format is the one earlier versions wrote', () => {
    assert.equal(isChallengeSection({ flat: 1, shift: 1, zero: 1, unit: 'a', size: 'c' }), true);
    for (const bad of [{ flat: 2 }, { flat: 'a' }, { unit: 1 }, { unit: 'd' }, { other: 1 }, [], null]) {
      assert.equal(isChallengeSection(bad), false, JSON.stringify(bad));
    }
    assert.equal(doneCount({ flat: 1, unit: 'a' }), 2);
    const page = createChallengePage(nl, { section: { flat: 1, unit: 'a' } });
    page.press('shift');
    assert.deepEqual(page.stored, { flat: 1, unit: 'a', shift: 1 });
    assert.equal(isChallengeSection(page.stored), true);
  });

  test('the smallest RMS that counts is 100·√eps', () => {
    assert.equal(clearRoot(1e-6), 0.1);
    assert.ok(Math.abs(clearRoot(1e-5) - 0.31623) < 1e-5);
  });
});
