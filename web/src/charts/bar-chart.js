// Horizontal bars with a labelled value at each bar's end: the softmax
// widget's probabilities. Scales and axis come from d3.
import { axisBottom } from 'd3-axis';
import { scaleBand, scaleLinear } from 'd3-scale';

import { tick } from '../format.js';

const MARGIN = { top: 8, right: 48, bottom: 28, left: 28 };

// data: { bars: [{ label, value, text, highlight }], domain: [lo, hi],
//         marks: [{ value, label }] }  (vertical reference lines)
export function drawHorizontalBars(svg, width, height, data) {
  const x = scaleLinear()
    .domain(data.domain)
    .range([MARGIN.left, width - MARGIN.right]);
  const y = scaleBand()
    .domain(data.bars.map((b) => b.label))
    .range([MARGIN.top, height - MARGIN.bottom])
    .padding(0.22);

  svg
    .selectAll('g.marks')
    .data([null])
    .join('g')
    .attr('class', 'marks')
    .selectAll('g.mark')
    .data(data.marks ?? [])
    .join((enter) => {
      const g = enter.append('g').attr('class', 'mark');
      g.append('line');
      g.append('text');
      return g;
    })
    .call((g) =>
      g
        .select('line')
        .attr('x1', (m) => x(m.value))
        .attr('x2', (m) => x(m.value))
        .attr('y1', MARGIN.top - 4)
        .attr('y2', height - MARGIN.bottom),
    )
    .call((g) =>
      g
        .select('text')
        .attr('x', (m) => x(m.value) + 3)
        .attr('y', MARGIN.top + 4)
        .text((m) => m.label),
    );

  svg
    .selectAll('g.bars')
    .data([null])
    .join('g')
    .attr('class', 'bars')
    .selectAll('g.bar')
    .data(data.bars, (b) => b.label)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'bar');
      g.append('rect');
      g.append('text').attr('class', 'bar-label');
      g.append('text').attr('class', 'bar-value');
      return g;
    })
    .classed('is-highlight', (b) => b.highlight)
    .call((g) =>
      g
        .select('rect')
        .attr('x', x(data.domain[0]))
        .attr('y', (b) => y(b.label))
        .attr('width', (b) => Math.max(0, x(b.value) - x(data.domain[0])))
        .attr('height', y.bandwidth()),
    )
    .call((g) =>
      g
        .select('.bar-label')
        .attr('x', MARGIN.left - 8)
        .attr('y', (b) => y(b.label) + y.bandwidth() / 2)
        .attr('dy', '0.35em')
        .attr('text-anchor', 'end')
        .text((b) => b.label),
    )
    .call((g) =>
      g
        .select('.bar-value')
        .attr('x', (b) => x(b.value) + 4)
        .attr('y', (b) => y(b.label) + y.bandwidth() / 2)
        .attr('dy', '0.35em')
        .text((b) => b.text),
    );

  const ticks = Math.max(2, Math.min(5, Math.floor((width - MARGIN.left - MARGIN.right) / 70)));
  svg
    .selectAll('g.axis-x')
    .data([null])
    .join('g')
    .attr('class', 'axis axis-x')
    .attr('transform', `translate(0,${height - MARGIN.bottom})`)
    .call(axisBottom(x).ticks(ticks).tickFormat(tick));
}
