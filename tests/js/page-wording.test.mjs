// Sentences a teacher would correct, pinned in both languages, and
// build jargon kept out of what a student reads:
// - takeaway 3 says RMSNorm scored about as well as LayerNorm, never that
//   dropping the mean and bias costs no quality;
// - the residual path is described by its Jacobian I + ∂F/∂x (the identity
//   term passes the gradient unchanged, the branch adds its own), never as
//   multiplying the gradient by exactly 1;
// - no string of the page's or the lab's dictionaries names the build (the
//   committed sweep, ./build.sh, a compiler, instruction sets, a commit),
//   except the lab's note for teachers, which the page keeps in a closed
//   <details> (tests/browser/page-jargon.test.mjs checks the page itself).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { DICTIONARIES } from '../../web/src/i18n/index.js';
import { LAB_DICTIONARIES } from '../../web/src/lab/text.js';

const strings = (node, path = []) =>
  Object.entries(node).flatMap(([key, value]) =>
    typeof value === 'string' ? [[[...path, key].join('.'), value]] : strings(value, [...path, key]),
  );

// Build jargon as a student would meet it, in either language.
export const JARGON = [
  /committed/i,
  /build\.sh/,
  /\bg\+\+/i,
  /\b(fma3|avx2|avx|sse4)\b/i,
  /\bcommit\b/i,
  /tests\/bench|\.mjs\b/,
  /\b[0-9a-f]{7,40}\b/,
  /已提交|提交的|提交 \{/,
  /编译器/,
];

// A parameter's name is not read; a parameter that fills in the build's
// commit, compiler or Node version is.
const BUILD_PARAMS = /\{(commit|compiler|cxx|node|cpu|flags)\}/;
const isJargon = (v) => BUILD_PARAMS.test(v) || JARGON.some((re) => re.test(v.replace(/\{\w+\}/g, '')));

// The lab's notes for teachers (the map's two sweeps): rendered inside
// <details> only.
const TEACHER_ONLY = new Set(['lab:madeText', 'lab:variantMadeText']);

const OVERCLAIMS = {
  en: /no quality|quality[- ]neutral|costs nothing|for free|by exactly 1\b|multiplie[sd] (the gradient )?by 1\b|exactly one\b/i,
  'zh-CN': /不损失|毫无损失|没有任何损失|质量不变|不影响质量|乘以 ?1(?![\d.])|恰好乘|正好乘/,
};

const PINNED = {
  en: {
    'takeaways.three': ['scored about as well as with LayerNorm'],
    'compare.evidence': ['scored about as well'],
    'placement.depth': [
      'its Jacobian is I + ∂F/∂x',
      'the identity term hands the gradient down unchanged',
      'the branch adds its own term to it',
    ],
    'quiz.q2.explanation': ['each layer’s Jacobian is I + ∂F/∂x', 'the branches add their terms to it'],
    'glossary.identity.def': ['one term of its Jacobian is the identity', 'the sub-block adds its own term beside it'],
  },
  'zh-CN': {
    'takeaways.three': ['成绩大致相当'],
    'placement.depth': [
      '它的雅可比矩阵是 I + ∂F/∂x',
      '单位矩阵 I 这一项把梯度原样往下传',
      '分支那一项再在上面加上自己的贡献',
    ],
    'quiz.q2.explanation': ['每一层的雅可比矩阵是 I + ∂F/∂x', '各分支再加上自己的贡献'],
    'glossary.identity.def': ['雅可比矩阵里就有一项是单位矩阵'],
  },
};

for (const lang of ['en', 'zh-CN']) {
  const page = new Map(strings(DICTIONARIES[lang]));
  const lab = strings(LAB_DICTIONARIES[lang]).map(([k, v]) => [`lab:${k}`, v]);
  describe(`what the page claims (${lang})`, () => {
    test('the corrected sentences say what they should', () => {
      for (const [key, parts] of Object.entries(PINNED[lang])) {
        assert.ok(page.has(key), `${key} is missing`);
        for (const part of parts)
          assert.ok(page.get(key).includes(part), `${key} should say “${part}”: ${page.get(key)}`);
      }
    });

    test('no string overclaims: no quality for free, no gradient multiplied by exactly 1', () => {
      const found = [...page, ...lab].filter(([, v]) => OVERCLAIMS[lang].test(v)).map(([k, v]) => `${k}: ${v}`);
      assert.deepEqual(found, []);
    });

    test('no build jargon outside the note for teachers', () => {
      const found = [...page, ...lab]
        .filter(([k, v]) => !TEACHER_ONLY.has(k) && isJargon(v))
        .map(([k, v]) => `${k}: ${v}`);
      assert.deepEqual(found, []);
      // The note for teachers is where the build's details are, and it says so.
      const made = LAB_DICTIONARIES[lang];
      assert.match(made.madeText, /build\.sh sweep/);
      assert.match(made.madeText, /\{commit\}/);
      assert.match(made.variantMadeText, /build\.sh sweep/);
      assert.match(made.variantMadeText, /\{commit\}/);
      assert.match(made.madeSummary, lang === 'en' ? /^For teachers: / : /^给教师：/);
    });
  });
}
