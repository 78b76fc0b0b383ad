// Glossary terms in the prose open their definition in place, as a popover
// under the term: by keyboard (Enter, Space, Escape), by tap on a phone (no
// jump to the glossary, the reader stays where they were), and for screen
// readers (a button that says it is expanded or collapsed, the definition as
// its description). In both languages.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import en from '../../web/src/i18n/en.js';
import zhCN from '../../web/src/i18n/zh-CN.js';
import { fileUrl, openPage, settle, shareBrowserAndServer, watchProblems } from './page-support.mjs';

const shared = shareBrowserAndServer();

const TERM = '#intro .summary .term-wrap';

async function popoverState(page, nth = 0) {
  return page
    .locator(TERM)
    .nth(nth)
    .evaluate((wrap) => {
      const term = wrap.querySelector('.term');
      const pop = wrap.querySelector('.term-pop');
      const box = pop.getBoundingClientRect();
      return {
        expanded: term.getAttribute('aria-expanded'),
        visible: getComputedStyle(pop).display !== 'none' && box.width > 0,
        text: pop.textContent,
        inViewport: box.left >= 0 && box.right <= document.documentElement.clientWidth,
        focused: document.activeElement === term,
      };
    });
}

for (const [lang, dictionary] of [
  ['en', en],
  ['zh-CN', zhCN],
]) {
  test(`${lang}: a term opens and closes its definition from the keyboard, in place`, async () => {
    const { page, problems, close } = await openPage(shared.browser, `${fileUrl}?lang=${lang}`);
    try {
      const term = page.locator(TERM).first().locator('.term');
      assert.equal(await term.evaluate((n) => n.localName), 'button');
      assert.deepEqual(await popoverState(page), {
        expanded: 'false',
        visible: false,
        text: dictionary.glossary.rmsnorm.def,
        inViewport: true,
        focused: false,
      });
      await term.focus();
      const scrollBefore = await page.evaluate(() => scrollY);
      await page.keyboard.press('Enter');
      assert.deepEqual(await popoverState(page), {
        expanded: 'true',
        visible: true,
        text: dictionary.glossary.rmsnorm.def,
        inViewport: true,
        focused: true,
      });
      // Nothing navigated: no hash, no jump.
      assert.equal(new URL(page.url()).hash, '');
      assert.equal(await page.evaluate(() => scrollY), scrollBefore);
      await page.keyboard.press('Escape');
      assert.equal((await popoverState(page)).visible, false);
      assert.equal((await popoverState(page)).focused, true, 'focus stays on the term');
      await page.keyboard.press(' ');
      assert.equal((await popoverState(page)).expanded, 'true');
      await page.keyboard.press(' ');
      assert.equal((await popoverState(page)).expanded, 'false');

      // One open at a time: opening the second term closes the first.
      const second = page.locator(TERM).nth(1).locator('.term');
      await term.press('Enter');
      await second.press('Enter');
      assert.equal((await popoverState(page, 0)).expanded, 'false');
      assert.equal((await popoverState(page, 1)).expanded, 'true');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}

test('a screen reader hears a button, its state and the definition as its description', async () => {
  const { page, problems, close } = await openPage(shared.browser, fileUrl);
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('Accessibility.enable');
    const node = async () => {
      const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `${TERM} .term` });
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      const ax = nodes[0];
      const expanded = ax.properties.find((p) => p.name === 'expanded')?.value.value;
      return { role: ax.role.value, name: ax.name.value, description: ax.description?.value, expanded };
    };
    assert.deepEqual(await node(), {
      role: 'button',
      name: 'RMSNorm',
      description: en.glossary.rmsnorm.def,
      expanded: false,
    });
    await page.locator(TERM).first().locator('.term').click();
    assert.deepEqual(await node(), {
      role: 'button',
      name: 'RMSNorm',
      description: en.glossary.rmsnorm.def,
      expanded: true,
    });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

for (const width of [320, 375]) {
  test(`a tap on a phone (${width} px) opens the definition in place; a tap elsewhere closes it`, async () => {
    const context = await shared.browser.newContext({
      viewport: { width, height: 740 },
      hasTouch: true,
      isMobile: true,
      locale: 'en-US',
    });
    const page = await context.newPage();
    const problems = await watchProblems(page);
    try {
      await page.goto(fileUrl);
      await page.waitForFunction(() => document.getElementById('backend')?.dataset.backend !== 'loading');
      await settle(page);
      // A term further down, in the middle of the prose.
      const wrap = page.locator('#intro p[data-i18n="intro.story2"] .term-wrap').first();
      await wrap.scrollIntoViewIfNeeded();
      const scrollBefore = await page.evaluate(() => scrollY);
      await wrap.locator('.term').tap();
      const state = () =>
        wrap.evaluate((w) => {
          const pop = w.querySelector('.term-pop');
          const box = pop.getBoundingClientRect();
          return {
            expanded: w.querySelector('.term').getAttribute('aria-expanded'),
            visible: getComputedStyle(pop).display !== 'none',
            inViewport: box.left >= 0 && box.right <= document.documentElement.clientWidth,
          };
        });
      assert.deepEqual(await state(), { expanded: 'true', visible: true, inViewport: true });
      assert.equal(new URL(page.url()).hash, '', 'no jump to the glossary');
      assert.equal(await page.evaluate(() => scrollY), scrollBefore);
      assert.equal(await wrap.locator('.term-pop').textContent(), en.glossary.prenorm.def);
      // A tap inside the popover keeps it open (it can be read and selected).
      await wrap.locator('.term-pop').tap();
      assert.equal((await state()).visible, true);
      // A tap on the prose elsewhere closes it; no hover state keeps it.
      await page.locator('#intro p[data-i18n="intro.story1"]').tap();
      assert.deepEqual(await state(), { expanded: 'false', visible: false, inViewport: true });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

// Each section clips what it paints: a popover that reaches past its
// section's bottom edge must still be what a reader sees and clicks there,
// which holds while its section is lifted above the next (opened or hovered),
// and only then.
test('a popover past its section’s bottom edge shows above the next section, opened or hovered', async () => {
  const { page, problems, close } = await openPage(shared.browser, fileUrl);
  try {
    // The term nearest to the bottom of its section (the next section
    // starts right below it).
    const index = await page.evaluate(() => {
      const wraps = [...document.querySelectorAll('.chapter > section:not(#demo) .term-wrap')];
      const gap = (w) => w.closest('section').getBoundingClientRect().bottom - w.getBoundingClientRect().bottom;
      return wraps.indexOf(wraps.reduce((a, b) => (gap(b) < gap(a) ? b : a)));
    });
    const wrap = page.locator('.chapter > section:not(#demo) .term-wrap').nth(index);
    const look = () =>
      wrap.evaluate((w) => {
        const pop = w.querySelector('.term-pop');
        pop.scrollIntoView({ block: 'center' });
        const section = w.closest('section');
        const box = pop.getBoundingClientRect();
        const below = section.getBoundingClientRect().bottom;
        // The popover's lowest line of text, past the section's edge.
        const hit = document.elementFromPoint(box.left + box.width / 2, box.bottom - 4);
        return {
          pastEdge: box.bottom > below,
          zIndex: getComputedStyle(section).zIndex,
          onTop: pop.contains(hit),
        };
      });
    await wrap.locator('.term').click();
    assert.deepEqual(await look(), { pastEdge: true, zIndex: '6', onTop: true });
    await page.mouse.move(2, 2);
    assert.deepEqual(await look(), { pastEdge: true, zIndex: '6', onTop: true }, 'open, not hovered');
    await page.keyboard.press('Escape');
    assert.equal((await look()).zIndex, 'auto', 'closed: the section is no longer lifted');
    await wrap.locator('.term').hover();
    assert.deepEqual(await look(), { pastEdge: true, zIndex: '6', onTop: true });
    await page.mouse.move(2, 2);
    assert.equal((await look()).zIndex, 'auto', 'the pointer gone: the section is no longer lifted');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
