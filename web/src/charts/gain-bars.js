// Vertical bars that grow up or down from a baseline: the learned-gain
// widget's sample, each bar one feature's gain measured from 1.0. Bars above
// the baseline and bars below it get different classes (is-above /
// is-below), which the stylesheet tells apart by fill, outline and lightness.
import { axisLeft } from 'd3-axis';
import { scaleBand, scaleLinear } from 'd3-scale';

import { tick } from '../format.js';
import { drawXTitle } from './line-chart.js';

// The right margin holds the baseline's label.
const MARGIN = { top: 12, right: 44, bottom: 26, left: 40 };

// data: { bars: [{ key, value }], baseline, domain: [lo, hi], baselineLabel,
//         xLabel, yLabel }
export function drawBaselineBars(svg, width, height, data) {
  const x = scaleBand()
    .domain(data.bars.map((b) => b.key))
    .range([MARGIN.left, width - MARGIN.right])
    .padding(0.18);
  const y = scaleLinear()
    .domain(data.domain)
    .range([height - MARGIN.bottom, MARGIN.top]);
  const base = y(data.baseline);

  svg
    .selectAll('g.axis-y')
    .data([null])
    .join('g')
    .attr('class', 'axis axis-y')
    .attr('transform', `translate(${MARGIN.left},0)`)
    .call(axisLeft(y).ticks(5).tickFormat(tick));
  drawXTitle(svg, data.xLabel, MARGIN.left, width - MARGIN.right, height);

  svg
    .selectAll('rect.gain-bar')
    .data(data.bars, (b) => b.key)
    .join('rect')
    .attr('class', (b) => `gain-bar ${b.value >= data.baseline ? 'is-above' : 'is-below'}`)
    .attr('x', (b) => x(b.key))
    .attr('width', x.bandwidth())
    .attr('y', (b) => Math.min(base, y(b.value)))
    // A gain of exactly 1 still shows as a hairline.
    .attr('height', (b) => Math.max(1, Math.abs(y(b.value) - base)));

  svg
    .selectAll('g.baseline')
    .data([data.baseline])
    .join((enter) => {
      const g = enter.append('g').attr('class', 'baseline');
      g.append('line');
      g.append('text');
      return g;
    })
    .call((g) =>
      g
        .select('line')
        .attr('x1', MARGIN.left)
        .attr('x2', width - MARGIN.right)
        .attr('y1', base)
        .attr('y2', base),
    )
    .call((g) =>
      g
        .select('text')
        .attr('x', width - MARGIN.right + 4)
        .attr('y', base)
        .attr('dy', '0.35em')
        .text(data.baselineLabel),
    );
}
