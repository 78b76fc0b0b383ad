// The README's two pictures, web/screenshots/page.png (the page's first
// screen) and web/screenshots/lab.png (the training lab's learning-rate
// window, drawn from the committed sweep, as a reader finds it), kept current: each is rendered again here, with the pinned fonts at
// 1280 × 800, and compared pixel by pixel with the committed file. A change
// to what they show fails this test until `./build.sh screenshots` (which
// runs this file with NORMLAB_WRITE_SCREENSHOTS=1) writes them again.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';

import { LAB, bringLabIn, fileUrl, launchBrowser, measured, openPage, settle, gradientsDone } from './page-support.mjs';

const dir = new URL('../../web/screenshots/', import.meta.url);
const WRITE = process.env.NORMLAB_WRITE_SCREENSHOTS === '1';
const VIEWPORT = { width: 1280, height: 800 };
// A pixel differs when a channel moves by more than this; a picture is out
// of date when more than this share of its pixels differ (antialiasing of
// the same drawing stays far below it).
const CHANNEL_SLACK = 24;
const MOST_DIFFERENT = 0.005;

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

// The share of pixels that differ between two PNGs, decoded by the browser
// (from bytes: the page's CSP allows no data: fetch).
async function difference(page, a, b) {
  return page.evaluate(
    async ({ a, b, slack }) => {
      const decode = async (base64) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d');
        context.drawImage(bitmap, 0, 0);
        return context.getImageData(0, 0, bitmap.width, bitmap.height);
      };
      const [x, y] = [await decode(a), await decode(b)];
      if (x.width !== y.width || x.height !== y.height) return { size: [x.width, x.height, y.width, y.height] };
      let differ = 0;
      for (let i = 0; i < x.data.length; i += 4) {
        for (let c = 0; c < 3; c++) {
          if (Math.abs(x.data[i + c] - y.data[i + c]) > slack) {
            differ++;
            break;
          }
        }
      }
      return { share: differ / (x.width * x.height) };
    },
    { a: a.toString('base64'), b: b.toString('base64'), slack: CHANNEL_SLACK },
  );
}

async function keepCurrent(page, name, shot) {
  const file = new URL(name, dir);
  if (WRITE) {
    writeFileSync(file, shot);
    return;
  }
  assert.ok(existsSync(file), `web/screenshots/${name} is missing: run ./build.sh screenshots`);
  const { size, share } = await difference(page, shot, readFileSync(file));
  assert.equal(
    size,
    undefined,
    `web/screenshots/${name} is ${size?.slice(2).join(' × ')}, the page renders ${size?.slice(0, 2).join(' × ')}`,
  );
  assert.ok(
    share <= MOST_DIFFERENT,
    `web/screenshots/${name} is out of date (${(share * 100).toFixed(2)}% of its pixels differ): run ./build.sh screenshots`,
  );
}

// layer=22 names the exercise's layer, which keeps the walk from moving it.
test('web/screenshots/page.png is the page as it opens, in English at 1280 px', async () => {
  const { page, problems, close } = await openPage(browser, `${fileUrl}?lang=en&layer=22`, { viewport: VIEWPORT });
  try {
    await gradientsDone(page);
    await settle(page);
    await keepCurrent(page, 'page.png', await page.screenshot());
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test("web/screenshots/lab.png is the training lab's learning-rate window as a reader scrolls to it, in English at 1280 px", async () => {
  const { page, problems, close } = await openPage(browser, `${fileUrl}?lang=en&layer=22`, { viewport: VIEWPORT });
  try {
    await bringLabIn(page);
    // Every section above at its own size first, or the window moves after.
    await measured(page);
    await page.locator(`${LAB} .lab-window`).evaluate((box) => box.scrollIntoView({ block: 'start' }));
    await settle(page);
    await page.waitForTimeout(300);
    await settle(page);
    await keepCurrent(page, 'lab.png', await page.screenshot());
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
