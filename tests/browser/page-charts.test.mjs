// The charts as a reader sees them, in headless Chromium: on the layer chart
// the post-attention series stays visible over the input-norm series and no
// curve runs through the "√1024 = 32" label; no two tick labels of any axis
// overlap (the playground's log axis included) on a phone or a desktop;
// chart text is at least 12 px; in post-norm the labels name each norm by
// where it sits.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  drawEveryChart,
  fileUrl,
  gradientsDone,
  measured,
  openPage,
  settle,
  shareBrowserAndServer,
} from './page-support.mjs';

const shared = shareBrowserAndServer();

// The layer chart's geometry: for each sample point of each series path (one
// per 2 px of its length), whether it falls inside the sqrt(d) rule's label,
// and whether the post-attention series' dots are on top where they sit.
function layerChartGeometry() {
  const svg = document.querySelector('[data-widget="layer-chart"] svg.chart:not(.legend-key)');
  const label = svg.querySelector('.rule-sqrt-d text').getBBox();
  const inside = (p) =>
    p.x >= label.x && p.x <= label.x + label.width && p.y >= label.y && p.y <= label.y + label.height;
  const crossing = [];
  for (const path of svg.querySelectorAll('.series path')) {
    const length = path.getTotalLength();
    for (let s = 0; s <= length; s += 2) {
      if (inside(path.getPointAtLength(s))) {
        crossing.push(path.parentNode.getAttribute('class'));
        break;
      }
    }
  }
  const dots = [...svg.querySelectorAll('.series-norm-post .series-dot')];
  const inputPath = svg.querySelector('.series-norm-input path');
  // At each dot's centre, the dot comes before (above) the input-norm line
  // in the stack of elements there.
  const onTop = dots.filter((dot) => {
    const r = dot.getBoundingClientRect();
    const stack = document.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const d = stack.indexOf(dot);
    const i = stack.indexOf(inputPath);
    return d >= 0 && (i < 0 || d < i);
  }).length;
  const style = dots[0] && getComputedStyle(dots[0]);
  return {
    label: svg.querySelector('.rule-sqrt-d text').textContent,
    crossing,
    dots: dots.length,
    onTop,
    hollow: style ? style.fill !== style.stroke : null,
    legendDot: document.querySelectorAll('[data-widget="layer-chart"] .chart-legend .series-norm-post .series-dot')
      .length,
  };
}

for (const width of [375, 1280]) {
  test(`layer chart at ${width} px: both norm series visible, no curve through the √1024 label`, async () => {
    const { page, problems, close } = await openPage(shared.browser, `${fileUrl}?layer=3`, {
      viewport: { width, height: 900 },
    });
    try {
      await measured(page);
      const chart = page.locator('[data-widget="layer-chart"] svg.chart:not(.legend-key)');
      for (const [placement, norm, scale] of [
        ['pre', 'rmsnorm', 'log'],
        ['pre', 'rmsnorm', 'linear'],
        ['post', 'rmsnorm', 'log'],
        ['pre', 'layernorm', 'linear'],
        ['pre', 'none', 'log'],
      ]) {
        await page.selectOption('#model-placement', placement);
        await page.selectOption('#model-norm', norm);
        await page.selectOption('#layer-chart-scale', scale);
        await chart.scrollIntoViewIfNeeded();
        await settle(page);
        const g = await page.evaluate(layerChartGeometry);
        const what = `${placement} ${norm} ${scale}`;
        assert.equal(g.label, '√1024 = 32', what);
        assert.deepEqual(g.crossing, [], `${what}: series through the label`);
        if (norm === 'none') continue;
        assert.equal(g.dots, 24, what);
        assert.equal(g.onTop, 24, `${what}: dots above the input-norm line`);
        assert.equal(g.hollow, true, what);
        assert.equal(g.legendDot, 1, what);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}

// Per axis of every drawn chart: pairs of tick labels whose boxes overlap.
function tickOverlaps() {
  const overlaps = [];
  for (const axis of document.querySelectorAll('svg.chart .axis')) {
    const boxes = [...axis.querySelectorAll('.tick text')]
      .filter((t) => t.textContent)
      .map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }));
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i].r;
        const b = boxes[j].r;
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
          const where = axis.closest('[data-widget]')?.dataset.widget;
          overlaps.push(`${where} ${axis.getAttribute('class')}: "${boxes[i].text}" and "${boxes[j].text}"`);
        }
      }
    }
  }
  return overlaps;
}

for (const [width, lang] of [
  [320, 'en'],
  [375, 'zh-CN'],
  [1280, 'en'],
]) {
  test(`${width} px, ${lang}: no two tick labels overlap, chart text is at least 12 px`, async () => {
    const { page, problems, close } = await openPage(shared.browser, `${fileUrl}?lang=${lang}`, {
      viewport: { width, height: 800 },
    });
    try {
      await gradientsDone(page);
      // The playground's question comes first; skipping it frees the slider.
      await page.click('[data-widget="playground"] button[data-action="skip"]');
      for (const stretch of ['0', '-4', '1']) {
        await page.fill('#playground-stretch', stretch);
        await settle(page);
        await drawEveryChart(page);
        assert.deepEqual(await page.evaluate(tickOverlaps), [], `stretch 10^${stretch}`);
      }
      const ticks = await page.locator('[data-widget="playground"] .axis-x .tick text').allTextContents();
      assert.ok(ticks.length >= 2, ticks.join(' '));
      assert.ok(
        ticks.every((t) => /^(10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+|0\.0*1|1|10)$/.test(t)),
        `playground ticks: ${ticks.join(' ')}`,
      );
      await page.fill('#grad-depth', '48');
      await settle(page);
      await gradientsDone(page);
      await drawEveryChart(page);
      assert.deepEqual(await page.evaluate(tickOverlaps), [], 'gradients at 48 layers');
      const small = await page.evaluate(() =>
        [...document.querySelectorAll('svg.chart text')]
          .filter((t) => t.textContent && parseFloat(getComputedStyle(t).fontSize) < 12)
          .map((t) => `${t.textContent} ${getComputedStyle(t).fontSize}`),
      );
      assert.deepEqual(small, []);
      assert.ok((await page.locator('svg.chart text').count()) > 100);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}

for (const [lang, expected] of [
  [
    'en',
    {
      boxes: [
        'Attention output',
        'After-attention RMSNorm input',
        'After-attention RMSNorm output',
        'MLP output',
        'After-MLP RMSNorm input',
        'After-MLP RMSNorm output',
      ],
      legend: ['residual stream', 'after-attention RMSNorm output', 'after-MLP RMSNorm output'],
      pre: [
        'Input RMSNorm input',
        'Input RMSNorm output',
        'Attention output',
        'Post-attention RMSNorm input',
        'Post-attention RMSNorm output',
        'MLP output',
      ],
    },
  ],
  [
    'zh-CN',
    {
      boxes: [
        '注意力输出',
        '注意力之后的 RMSNorm：输入',
        '注意力之后的 RMSNorm：输出',
        'MLP 输出',
        'MLP 之后的 RMSNorm：输入',
        'MLP 之后的 RMSNorm：输出',
      ],
      legend: ['残差流', '注意力之后的 RMSNorm 输出', 'MLP 之后的 RMSNorm 输出'],
      pre: [
        '注意力前的 RMSNorm：输入',
        '注意力前的 RMSNorm：输出',
        '注意力输出',
        'MLP 前的 RMSNorm：输入',
        'MLP 前的 RMSNorm：输出',
        'MLP 输出',
      ],
    },
  ],
]) {
  test(`${lang}: post-norm labels name each norm by where it sits`, async () => {
    const { page, problems, close } = await openPage(shared.browser, `${fileUrl}?lang=${lang}&layer=5`);
    try {
      const titles = () => page.locator('[data-widget="layer-breakdown"] .stat-title').allTextContents();
      assert.deepEqual(await titles(), expected.pre);
      await page.selectOption('#model-placement', 'post');
      await settle(page);
      assert.deepEqual(await titles(), expected.boxes);
      assert.deepEqual(
        await page.locator('[data-widget="layer-chart"] .chart-legend li span').allTextContents(),
        expected.legend,
      );
      const columns = await page.locator('[data-widget="layer-chart"] thead th').allTextContents();
      assert.deepEqual(columns.slice(1), expected.legend);
      // The read-out under the chart names them the same way, with the
      // breakdown's numbers.
      const readout = await page.textContent('[data-widget="layer-chart"] .chart-readout');
      const out = await page.textContent('[data-box="inputNormOut"] [data-stat="l2"] dd');
      assert.ok(readout.includes(`${expected.legend[1]} ${out}`), `${readout} / ${out}`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}
