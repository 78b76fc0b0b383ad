// Chinese wording that read wrongly to a Chinese reader: one term list
// (web/src/i18n/zh-terms.js) for the page, the lab and what they ship; the
// placement
// diagrams' edges (下一层 / 上一层 read as "next" / "previous", so "from the
// next layer" at the bottom read backwards) and a dash that glued √d to the
// following "d = 1024" into one expression.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import en from '../../web/src/i18n/en.js';
import zhCN from '../../web/src/i18n/zh-CN.js';
import { ZH_TERMS } from '../../web/src/i18n/zh-terms.js';
import zhLab from '../../web/src/lab/zh-CN.js';
import { labText } from '../../web/src/lab/text.js';

test('the placement diagrams: the stream comes from the layer before and goes on to the layer after', () => {
  assert.equal(zhCN.placement.layerIn, '来自前一层');
  assert.equal(zhCN.placement.layerOut, '送往后一层');
});

test('no formula runs into the next one through a dash', () => {
  const strings = [];
  const walk = (node) => {
    for (const value of Object.values(node)) {
      if (typeof value === 'string') strings.push(value);
      else walk(value);
    }
  };
  walk(zhCN);
  for (const s of strings) assert.doesNotMatch(s, /\$——\$/, s);
  assert.match(zhCN.formula.consequence, /\$\\sqrt\{d\}\$。\$d = 1024\$ 时它等于 32/);
});

// The term list (web/src/i18n/zh-terms.js) holds in every Chinese string the
// reader sees: the page's dictionary (which also gives the custom elements'
// texts and the SCORM packages' title and description) and the lab's.
const chineseStrings = () => {
  const strings = [];
  const walk = (node, prefix) => {
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string') strings.push([`${prefix}${key}`, value]);
      else walk(value, `${prefix}${key}.`);
    }
  };
  walk(zhCN, '');
  walk(zhLab, 'lab:');
  return strings;
};

// The prose of a string: code, formulas and {placeholders} are identifiers,
// not words, and a glossary term's key is markup.
const prose = (text) =>
  text
    .replace(/`[^`]*`/g, '')
    .replace(/\$[^$]*\$/g, '')
    .replace(/\{[a-zA-Z][a-zA-Z0-9]*\}/g, '')
    .replace(/\[\[[a-z0-9]+\|/g, '[[');

test('the term list: no English term stands bare in the Chinese, only in its first-use parentheses', () => {
  assert.deepEqual(
    ZH_TERMS.map((term) => term.english),
    ['pre-norm', 'post-norm', 'token', 'warmup', 'one-hot'],
  );
  const bare = [];
  for (const [key, text] of chineseStrings()) {
    for (const { english, zh } of ZH_TERMS) {
      // "token" also as "tokens" or "Token"; "pre-norm" also as "Pre-norm".
      const word = new RegExp(`(?<![A-Za-z-])${english}s?(?![A-Za-z-])`, 'gi');
      for (const m of prose(text).matchAll(word)) {
        const before = prose(text).slice(0, m.index);
        if (!before.endsWith(`${zh}（`)) bare.push(`${key}: …${before.slice(-12)}[${m[0]}]`);
      }
    }
  }
  assert.deepEqual(bare, []);
});

test('the term list: each term is introduced with its English where the page and the lab first use it', () => {
  const all = chineseStrings().map(([, text]) => text);
  for (const { firstUse } of ZH_TERMS)
    assert.ok(
      all.some((text) => text.includes(firstUse)),
      firstUse,
    );
  // The SCORM packages' description and the page's own summary introduce
  // the two placements and the token in the list's words.
  assert.match(zhCN.meta.description, /词元（token）.*前置归一化（pre-norm）/);
  assert.equal(zhCN.glossary.prenorm.term, '前置归一化（pre-norm）');
  assert.equal(zhCN.glossary.postnorm.term, '后置归一化（post-norm）');
  assert.match(zhLab.intro, /前置归一化（pre-norm）、后置归一化（post-norm），以及加了预热（warmup）的后置归一化/);
  // The placement selector and the lab's runs use the same words.
  assert.equal(zhCN.model.placementPre, '前置归一化');
  assert.equal(zhCN.model.placementPost, '后置归一化');
  assert.equal(zhLab.runPre, zhCN.model.placementPre);
  assert.equal(zhLab.runPost, zhCN.model.placementPost);
});

test('the single-layer breakdown: every card title and stat label is Chinese', () => {
  for (const group of [zhCN.breakdown.box, zhCN.breakdown.boxPost])
    for (const title of Object.values(group)) assert.doesNotMatch(prose(title), /input|output|attention|attn/i, title);
  assert.equal(zhCN.breakdown.box.inputNormIn, '注意力前的 {norm}：输入');
  assert.equal(zhCN.breakdown.box.postNormOut, 'MLP 前的 {norm}：输出');
  assert.equal(zhCN.breakdown.l2, '每词元 L2');
  assert.equal(zhCN.demo.layerChart, '各层每词元的 L2');
  assert.equal(zhCN.layerChart.seriesInputNorm, '注意力前的 {norm} 输出');
  assert.equal(zhCN.layerChart.seriesPostNorm, 'MLP 前的 {norm} 输出');
  assert.equal(en.breakdown.box.inputNormIn, 'Input {norm} input');
});

// Rewrites of the wording, pinned in both languages where the
// English changed too.
test('rewrites: a count of no layers reads as "none" in both languages', () => {
  assert.match(
    zhCN.attention.summaryNoneSaturated,
    /\{depth\} 层中没有一层的平均值进入 softmax 小部件里的饱和区（0\.9 或以上）。/,
  );
  assert.match(en.attention.summaryNoneSaturated, /none of the \{depth\} layers averages 0\.9 or more/);
  assert.doesNotMatch(zhCN.attention.summaryNoneSaturated, /\{saturated\}/);
  assert.doesNotMatch(en.attention.summaryNoneSaturated, /\{saturated\}/);
});

test('rewrites: the lab reads a guess that no run bore out, and lists numbers, as a Chinese author would', () => {
  const zh = labText('zh-CN');
  const english = labText('en');
  const runs = (text, ids) => (ids.length ? text.list(ids.map((id) => text.t(id))) : text.t('none'));
  assert.equal(
    zh.t('guessDifferNone', { guessed: runs(zh, ['runPre']), learned: runs(zh, []) }),
    '你预计前置归一化能学起来，结果没有一组学起来。',
  );
  assert.equal(
    english.t('guessDifferNone', { guessed: runs(english, ['runPre']), learned: runs(english, []) }),
    'You expected pre-norm to learn; none of them did.',
  );
  assert.equal(
    zh.t('guessMatchNone', { guessed: runs(zh, []), learned: runs(zh, []) }),
    '你预计没有一组能学起来，结果确实没有一组学起来。',
  );
  assert.equal(
    english.t('guessMatchNone', { guessed: runs(english, []), learned: runs(english, []) }),
    'You expected none of them to learn, and indeed none of them did.',
  );
  assert.equal(zh.list(['6', '12', '24']), '6、12 和 24');
  assert.equal(zh.list(['前置归一化', '后置归一化']), '前置归一化和后置归一化');
  assert.equal(english.list(['6', '12', '24']), '6, 12, and 24');
});

test('rewrites: plateau, the zone of a spread distribution, the demo model, the gradient panel', () => {
  const all = chineseStrings().map(([, text]) => text);
  assert.ok(!all.some((text) => text.includes('离开平台')), '离开平台');
  assert.ok(!all.some((text) => text.includes('已提交')), '已提交');
  assert.match(zhLab.predictIntro, /勾选你认为会走出平台期的那几组/);
  assert.match(zhLab.runBetween, /它已经走出平台期，但走得还不远。/);
  assert.equal(zhLab.outcomeAbove, '还没降到平台期');
  assert.equal(zhCN.softmax.zoneInformative, '分布分散');
  assert.match(zhCN.softmax.thresholds, /低于 0\.5 为“分布分散”/);
  assert.match(zhCN.demo.intro, /它复现的是本章关心的几种趋势：/);
  assert.match(zhCN.placement.depth, /演示面板末尾的梯度面板会说明：只看初始化时的快照，能看出什么、看不出什么。$/);
  assert.match(zhCN.gradient.readingPreFalls, /^在前置归一化的结构里，每个归一化读的都是残差流。/);
});
