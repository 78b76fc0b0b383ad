// The quiz's answer key, and that each right answer is true: the kernels
// compute what questions 3, 4 and 5 say of RMSNorm and softmax, and the
// lab's committed tables say what question 6 says of the learning-rate
// window (claimProblems, which the build runs, fails when they stop).
// The pass mark is two thirds of the questions.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadNormlab } from '../../dist/normlab.mjs';
import { formatClaims } from '../../web/src/claim-params.js';
import { softmaxScale } from '../../web/src/compute.js';
import {
  EPS_CHOICES,
  PLAYGROUND_DIM,
  SOFTMAX_L2_UNIT,
  SOFTMAX_SCORES,
  STRETCH_LOG10_MIN,
  ZONE_SATURATED_FROM,
} from '../../web/src/constants.js';
import { PASS_MARK, courseProgress } from '../../web/src/course-progress.js';
import { lookup, plain } from '../../web/src/i18n/index.js';
import { claimProblems, pageClaims } from '../../web/src/lab/claims.js';
import { createMemoryLearnerStore } from '../../web/src/learner.js';
import { QUIZ_IDS, QUIZ_KEY, QUIZ_OPTIONS, pickAnswer } from '../../web/src/quiz-answers.js';

const SWEEP = JSON.parse(readFileSync(new URL('../../web/data/train-sweep.json', import.meta.url), 'utf8'));
const ROBUSTNESS = JSON.parse(readFileSync(new URL('../../web/data/lab-robustness.json', import.meta.url), 'utf8'));
const LANGS = ['en', 'zh-CN'];
const text = (lang, key, params) => plain(lookup(lang, key), params);
const l2 = (v) => Math.hypot(...v);

let nl;
before(async () => {
  nl = await loadNormlab();
});
after(() => nl.dispose());

describe('the quiz', () => {
  test('seven questions of three options; the key', () => {
    assert.deepEqual(QUIZ_IDS, ['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7']);
    assert.deepEqual(QUIZ_OPTIONS, ['a', 'b', 'c']);
    assert.deepEqual(QUIZ_KEY, { q1: 'c', q2: 'b', q3: 'b', q4: 'a', q5: 'c', q6: 'a', q7: 'b' });
  });

  test('the right answers, word for word in both languages', () => {
    const right = {
      en: {
        q1: 'Moving the vector so its entries average zero, and adding a trained offset at the very end.',
        q2: 'A path down the residual stream to the first layers that crosses no norm, so very deep stacks can still be trained.',
        q3: '4096.',
        q4: 'For every c > 0, as long as eps is negligible next to the mean square of both x and c·x; when a vector is tiny, eps dominates its RMS and its output shrinks with it.',
        q5: 'The top token takes nearly all the probability (the widget says saturated) and the gradients through the softmax nearly vanish; a norm keeps what attention reads near √d times the gains’ RMS, so the scores stop growing with the stream.',
        q6: 'Without warmup, post-norm’s window narrows as depth grows; warmup widens it at some depths, and pre-norm’s window is at least as wide as the other two at every depth.',
        q7: 'The scores the softmax receives: each q·k / √(head size) stays within √(head size) times the two gains, however large the weights that make q and k grow.',
      },
      'zh-CN': {
        q1: '先平移向量，让各元素的平均值为零，最后再加上一个训练出来的偏移量。',
        q2: '一条沿着残差流回到前几层的通道，中间不经过任何归一化，所以很深的网络依然训得动。',
        q3: '4096。',
        q4: '只要 c > 0 就成立，前提是 eps 与 x 和 c·x 的均方相比都可以忽略；向量很小时，eps 主导了它的 RMS，输出会随输入一起缩小。',
        q5: '最高分的词元几乎拿走全部概率（小部件显示“饱和”），经过 softmax 的梯度几乎消失；归一化让注意力读到的输入保持在 √d 乘以增益的 RMS 左右，分数就不再随残差流一起变大。',
        q6: '不加预热的后置归一化，窗口随深度变窄；预热在某些深度上把它放宽，而前置归一化的窗口在每个深度上都不比另外两种窄。',
        q7: '送进 softmax 的分数：不管让 q 和 k 变长的权重有多大，每个 q·k / √(头维度) 都不会超过 √(头维度) 乘以两个增益。',
      },
    };
    for (const lang of LANGS) {
      for (const id of QUIZ_IDS)
        assert.equal(text(lang, `quiz.${id}.${QUIZ_KEY[id]}`), right[lang][id], `${lang} ${id}`);
    }
  });

  test('every wrong option has a hint, the right one none, and every question an explanation, in both languages', () => {
    for (const lang of LANGS) {
      for (const id of QUIZ_IDS) {
        assert.ok(text(lang, `quiz.${id}.question`).length > 20, `${lang} ${id}`);
        assert.ok(text(lang, `quiz.${id}.explanation`).length > 100, `${lang} ${id}`);
        for (const option of QUIZ_OPTIONS) {
          const key = `quiz.${id}.${option}Hint`;
          if (option === QUIZ_KEY[id]) assert.throws(() => lookup(lang, key), /missing string/);
          else assert.ok(lookup(lang, key).length > 10, `${lang} ${key}`);
        }
      }
    }
  });

  test('the pass mark: two thirds of the questions right on the first try, 5 of 7', () => {
    assert.equal(PASS_MARK, 5);
    const progress = (rightFirst) => {
      const store = createMemoryLearnerStore();
      let quiz = {};
      QUIZ_IDS.forEach((id, i) => {
        const wrong = QUIZ_OPTIONS.find((o) => o !== QUIZ_KEY[id]);
        quiz = pickAnswer(quiz, id, i < rightFirst ? QUIZ_KEY[id] : wrong);
      });
      store.write('quiz', quiz);
      return courseProgress(store);
    };
    assert.deepEqual(
      [0, 4, 5, 7].map((n) => [progress(n).score, progress(n).total, progress(n).passed]),
      [
        [0, 7, false],
        [4, 7, false],
        [5, 7, true],
        [7, 7, true],
      ],
    );
  });
});

describe('the right answers are true', () => {
  test('q3: a normalized vector is √d long, so 64 means d = 4096; 8 and 4 entries give √8 and 2', () => {
    const rng = (i) => Math.sin(i * 12.9898) * 43758.5453 - Math.floor(Math.sin(i * 12.9898) * 43758.5453) - 0.5;
    for (const [d, length] of [
      [4096, 64],
      [8, Math.sqrt(8)],
      [4, 2],
    ]) {
      const x = Array.from({ length: d }, (_, i) => 3 * rng(i + 1));
      assert.ok(Math.abs(l2(nl.rmsnorm(x, { eps: 1e-6 })) - length) < 1e-3 * length, `d = ${d}`);
    }
    assert.ok(Math.abs(Math.sqrt(8) - 2.8) < 0.05);
  });

  test('q4: RMSNorm(c·x) = RMSNorm(x) for c > 0; −x flips the sign; a tiny x shrinks', () => {
    const x = [2, -1, 3, 0, 0.5, -2.5];
    const eps = EPS_CHOICES[0];
    const y = nl.rmsnorm(x, { eps });
    for (const c of [0.1, 10, 1000]) {
      const yc = nl.rmsnorm(
        x.map((v) => c * v),
        { eps },
      );
      yc.forEach((v, i) => assert.ok(Math.abs(v - y[i]) < 1e-4, `c = ${c}`));
    }
    nl.rmsnorm(
      x.map((v) => -v),
      { eps },
    ).forEach((v, i) => assert.ok(Math.abs(v + y[i]) < 1e-6));
    // The playground's smallest stretch on its spread of 3: mean square
    // about 9e-8, well under eps, and the output is far shorter than √d.
    const c = 10 ** STRETCH_LOG10_MIN;
    const tiny = nl.rmsnorm(
      x.map((v) => c * v),
      { eps },
    );
    assert.ok(l2(tiny) < 0.5 * l2(y), `${l2(tiny)} vs ${l2(y)}`);
    assert.equal(PLAYGROUND_DIM, 256);
  });

  test('q5: at magnitude 256 the top probability is in the saturated zone in both modes, and its derivatives near 0', () => {
    const at = (magnitude, growth) => {
      const scale = softmaxScale(magnitude, growth);
      return Array.from(nl.softmax(SOFTMAX_SCORES.map((s) => s * scale)));
    };
    assert.equal(softmaxScale(256, 'linear'), 8);
    assert.equal(softmaxScale(256, 'square'), 64);
    const base = at(SOFTMAX_L2_UNIT, 'linear');
    assert.ok(Math.abs(base[0] - 0.325) < 5e-4, `${base[0]}`);
    for (const growth of ['linear', 'square']) {
      const p = at(256, growth);
      assert.ok(p[0] >= ZONE_SATURATED_FROM, `${growth}: ${p[0]}`);
      // ∂p_i/∂s_j = p_i(δ_ij − p_j): every entry small next to the default's.
      const largest = (q) => Math.max(...q.flatMap((pi, i) => q.map((pj, j) => Math.abs(pi * ((i === j) - pj)))));
      assert.ok(largest(p) < 0.25 * largest(base), `${growth}: ${largest(p)} vs ${largest(base)}`);
    }
  });

  test('q6: the committed tables say what the question says, in both languages', () => {
    for (const lang of LANGS) {
      const c = pageClaims(SWEEP, ROBUSTNESS, lang);
      assert.deepEqual(claimProblems(c), [], lang);
      const width = (id) => c.windows[id].map((w) => w.count);
      const [post, warm, pre] = [width('post'), width('warmup'), width('pre')];
      // Narrows, never widens, with depth.
      assert.ok(post.at(-1) < post[0] && post.every((n, i) => i === 0 || n <= post[i - 1]), `${lang}: ${post}`);
      assert.ok(warm.some((n, i) => n > post[i]) && warm.every((n, i) => n >= post[i]), `${lang}: ${warm}`);
      assert.ok(
        pre.every((n, i) => n >= warm[i] && n >= post[i]),
        `${lang}: ${pre}`,
      );
    }
  });

  test('q6: the explanation quotes the window widths per depth, computed from the tables', () => {
    const en = formatClaims(pageClaims(SWEEP, ROBUSTNESS, 'en'), 'en');
    assert.deepEqual(
      [en.rates, en.lrLow, en.lrHigh, en.windowDepths, en.postWidths, en.warmWidths, en.preWidths],
      [6, '0.0003', '0.03', '6, 12, 24, and 48', '4, 3, 2, and 1', '4, 3, 3, and 1', '6, 6, 5, and 4'],
    );
    const zh = formatClaims(pageClaims(SWEEP, ROBUSTNESS, 'zh-CN'), 'zh-CN');
    assert.deepEqual(
      [zh.windowDepths, zh.postWidths, zh.warmWidths, zh.preWidths],
      ['6、12、24 和 48', '5、4、2 和 1', '5、5、4 和 2', '6、6、6 和 6'],
    );
    assert.equal(
      text('en', 'quiz.q6.explanation', en),
      'In the sweep behind those charts (400 steps per run, 5 seeds per setting, 6 learning rates from 0.0003 to 0.03), post-norm without warmup learned in most seeds at 4, 3, 2, and 1 of the rates at 6, 12, 24, and 48 layers respectively; with 200 steps of warmup at 4, 3, 3, and 1; pre-norm at 6, 6, 5, and 4, and at every depth its window reaches a higher rate than either of the others. At the lab’s 24 layers its learning rate, 0.003, lies inside pre-norm’s window and outside post-norm’s: the contrast the lab trains by default. At this scale “trainable” is a range of learning rates and the odds over seeds, not a yes or a no.',
    );
    assert.match(
      text('zh-CN', 'quiz.q6.explanation', zh),
      /在 6、12、24 和 48 层时，不加预热的后置归一化在多数种子下学得起来的学习率分别有 5、4、2 和 1 个；加上 200 步预热，分别是 5、5、4 和 2 个；前置归一化分别是 6、6、6 和 6 个/,
    );
  });

  test("q7: RMS-normalized queries and keys of the lab's head size score at most √(head size), however long they were", () => {
    const c = pageClaims(SWEEP, ROBUSTNESS, 'en');
    assert.equal(c.headSize, 8);
    const rng = (i) => Math.sin(i * 78.233) * 43758.5453 - Math.floor(Math.sin(i * 78.233) * 43758.5453) - 0.5;
    const dot = (a, b) => a.reduce((sum, v, i) => sum + v * b[i], 0);
    let largest = 0;
    for (let pair = 0; pair < 200; pair++) {
      // Lengths from 0.1 to 1000: the raw score grows with them, the normalized one does not.
      const scale = 10 ** ((pair % 5) - 1);
      const q = Array.from({ length: c.headSize }, (_, i) => scale * rng(pair * 100 + i + 1));
      const k = Array.from({ length: c.headSize }, (_, i) => scale * rng(pair * 100 + i + 50));
      const score = dot(nl.rmsnorm(q, { eps: 1e-6 }), nl.rmsnorm(k, { eps: 1e-6 })) / Math.sqrt(c.headSize);
      assert.ok(Math.abs(score) <= Math.sqrt(c.headSize) + 1e-4, `${score}`);
      largest = Math.max(largest, Math.abs(score));
    }
    // Reached only by a key along the query.
    const q = Array.from({ length: c.headSize }, (_, i) => rng(i + 7));
    const aligned = dot(
      nl.rmsnorm(q, { eps: 1e-6 }),
      nl.rmsnorm(
        q.map((v) => 40 * v),
        { eps: 1e-6 },
      ),
    );
    assert.ok(Math.abs(aligned / Math.sqrt(c.headSize) - Math.sqrt(c.headSize)) < 1e-4);
    assert.ok(largest < Math.sqrt(c.headSize));
    const en = formatClaims(c, 'en');
    assert.deepEqual([en.headSize, en.qkBound], [8, '2.83']);
    assert.match(text('en', 'quiz.q7.explanation', en), /at most 8 and the score q·k \/ √8 at most √8 ≈ 2\.83,/);
    const zh = formatClaims(pageClaims(SWEEP, ROBUSTNESS, 'zh-CN'), 'zh-CN');
    assert.match(text('zh-CN', 'quiz.q7.explanation', zh), /点积最多是 8，分数 q·k \/ √8 最多是 √8 ≈ 2\.83，/);
  });

  test('claimProblems fails when the tables stop saying what question 6 says', () => {
    const c = pageClaims(SWEEP, ROBUSTNESS, 'en');
    const with24 = (id, change) => ({
      ...c,
      windows: { ...c.windows, [id]: c.windows[id].map((w) => (w.layers === c.layers ? { ...w, ...change } : w)) },
    });
    // Pre-norm's window at 24 shrunk to one rate below the lab's.
    const narrow = claimProblems(with24('pre', { learned: [0.0003], count: 1, lo: 0.0003, hi: 0.0003 }));
    assert.ok(narrow.includes("pre-norm's window is narrower than post-norm's somewhere: 6,6,1,4 vs 4,3,2,1"), narrow);
    assert.ok(narrow.includes("lr 0.003 is outside pre-norm's window at 24 layers"), narrow);
    assert.ok(
      narrow.some((p) => p.startsWith("pre-norm's window at 24 layers reaches no higher rate")),
      narrow,
    );
    // Post-norm learning at the lab's rate at 24.
    const wide = claimProblems(with24('post', { learned: [0.0003, 0.001, 0.003], count: 2, hi: 0.003 }));
    assert.deepEqual(wide, ["lr 0.003 is not outside post-norm's window at 24 layers"]);
  });
});
