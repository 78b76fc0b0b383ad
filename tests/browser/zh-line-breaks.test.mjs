// Chinese never starts a line with closing punctuation (。，、；：！？）): a
// line that opens with "。" reads as a typesetting slip. Browsers keep such a
// mark on the line before it in plain text, but not after an atomic inline
// (a glossary term is a button) unless the page glues the two together.
//
// The test renders the zh-CN page at three widths, with every section laid
// out (content-visibility would skip the ones off screen), every details
// element open and the training lab loaded, and measures where each rendered
// line begins: a character starts a line when its box lies below the box of
// the visible character before it in the same block.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ZH_TERMS } from '../../web/src/i18n/zh-terms.js';
import { bringLabIn, openPage, settle, shareBrowserAndServer } from './page-support.mjs';

const shared = shareBrowserAndServer();

export const CLOSING_PUNCTUATION = '。，、；：！？）';

// Runs in the page: every rendered character of closing punctuation that
// begins a line, with the text around it.
function closingAtLineStart(closing) {
  const blockOf = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const display = getComputedStyle(e).display;
      if (!display.startsWith('inline') && display !== 'contents') return e;
    }
    return document.body;
  };
  const range = document.createRange();
  const rectOf = (node, i) => {
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    const rects = range.getClientRects();
    return rects.length ? rects[rects.length - 1] : null;
  };
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let prev = null; // { rect, block, node, index } of the last visible character
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, svg, select, textarea, .term-pop')) continue;
    const text = node.data;
    if (!text.trim()) continue;
    const block = blockOf(parent);
    for (let i = 0; i < text.length; i++) {
      if (/\s/.test(text[i])) continue;
      const isClosing = closing.includes(text[i]);
      // Only closing marks and the character before them need measuring.
      const nextVisible = text.slice(i + 1).search(/\S/);
      const beforeClosing = nextVisible >= 0 ? closing.includes(text[i + 1 + nextVisible]) : true;
      if (!isClosing && !beforeClosing) {
        prev = null;
        continue;
      }
      const rect = rectOf(node, i);
      if (!rect || (rect.width === 0 && rect.height === 0)) continue;
      if (isClosing && prev && prev.block === block && rect.top >= prev.rect.bottom - 1) {
        const context = `${prev.node.data.slice(Math.max(0, prev.index - 12), prev.index + 1)}⏎${text.slice(i, i + 12)}`;
        found.push(context);
      }
      prev = { rect, block, node, index: i };
    }
  }
  return found;
}

// The English words a Chinese title may hold: names of methods, models,
// functions and units, and the language selector's own name for English;
// and, from the term list, the English in a first use's parentheses.
const ENGLISH_NAMES = [
  'RMSNorm',
  'LayerNorm',
  'RMS',
  'rms',
  'MLP',
  'Norm',
  'eps',
  'mean',
  'std',
  'softmax',
  'query',
  'key',
  'nats',
  'LM',
  'head',
  'English',
  'Qwen',
  // The after-pre-norm section's methods and function.
  'QK-norm',
  'Peri-LN',
  'DeepNorm',
  'DyT',
  'tanh',
];
const FIRST_USE = ZH_TERMS.map((term) => `（${term.english}`);

// Runs in the page: the rendered titles with an English word in them.
function englishTitles([names, firstUses]) {
  const selector =
    'h1, h2, h3, h4, h5, caption, th, legend, label, summary, dt, figcaption, option, button, .stat-title, [class*="title"]';
  const found = new Set();
  for (const el of document.querySelectorAll(selector)) {
    if (el.closest('svg')) continue;
    const text = el.textContent.trim();
    let checked = text;
    for (const open of firstUses) checked = checked.split(open).join('（');
    const words = checked.match(/[A-Za-z][A-Za-z-]{2,}/g) ?? [];
    if (words.some((w) => !names.includes(w))) found.add(`${el.tagName.toLowerCase()}: ${text.slice(0, 60)}`);
  }
  return [...found];
}

describe('the zh-CN page: no line begins with closing punctuation', () => {
  // The measure itself: four characters' width, a button as the fourth, and
  // "。" after it. Unglued, the browser puts "。" alone at the next line's
  // start; glued as the page glues it (.nobreak), the button goes along.
  test('the measure finds a mark that a browser moved to the next line', async () => {
    const page = await shared.browser.newPage();
    try {
      const button = '<button style="display:inline;font:inherit;border:0;padding:0">丁</button>';
      await page.setContent(
        `<meta charset="utf-8"><div lang="zh-CN" style="width:4em;font-size:16px">甲乙丙${button}。戊</div>` +
          `<div lang="zh-CN" style="width:4em;font-size:16px">甲乙丙<span style="white-space:nowrap">${button}。</span>戊</div>`,
      );
      assert.deepEqual(await page.evaluate(closingAtLineStart, CLOSING_PUNCTUATION), ['丁⏎。戊']);
    } finally {
      await page.close();
    }
  });

  for (const width of [320, 390, 1280]) {
    test(`${width} px`, async () => {
      const { page, problems, close } = await openPage(shared.browser, `${shared.server.url}index.html?lang=zh-CN`, {
        viewport: { width, height: 844 },
        locale: 'zh-CN',
        // Only to inject the style that lays out every section at once.
        bypassCSP: true,
      });
      try {
        await bringLabIn(page);
        await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
        await page.evaluate(() => {
          for (const d of document.querySelectorAll('details')) d.open = true;
        });
        await page.locator('#exercise-reveal').click();
        await settle(page);
        const found = await page.evaluate(closingAtLineStart, CLOSING_PUNCTUATION);
        assert.deepEqual(found, [], `lines that begin with closing punctuation at ${width} px`);
        // Every title the page shows (headings, card titles, labels,
        // captions, table headers, options) is Chinese: English only in names.
        if (width === 390) assert.deepEqual(await page.evaluate(englishTitles, [ENGLISH_NAMES, FIRST_USE]), []);
        // A count of none is said as none (the default model has no
        // saturated layer): "24 层中没有一层", never "24 层中有 0 层".
        if (width === 390) {
          const summary = await page.locator('[data-widget="attention"] .chart-summary').textContent();
          assert.match(summary, /24 层中没有一层的平均值进入 softmax 小部件里的饱和区/);
        }
        assert.deepEqual(problems, []);
      } finally {
        await close();
      }
    });
  }
});
