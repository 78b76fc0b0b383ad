// A legend in HTML above a chart, for series whose labels would not fit at
// the ends of their lines. Each key is a short stroke drawn with the series'
// own classes, so it has the line's colour and dash pattern.
import { select } from 'd3-selection';

export function createLegend(container) {
  const list = select(container).append('ul').attr('class', 'chart-legend');
  return {
    // items: [{ id, label, dots }], the ids of drawLineChart's series (dots:
    // the series marks its points, and so does its key)
    update(items) {
      list
        .selectAll('li')
        .data(items, (d) => d.id)
        .join((enter) => {
          const li = enter.append('li');
          li.append('svg')
            .attr('class', 'chart legend-key')
            .attr('width', 30)
            .attr('height', 12)
            .attr('aria-hidden', 'true')
            .append('g')
            .append('path')
            .attr('d', 'M1,6 H29');
          li.append('span');
          return li;
        })
        .call((li) =>
          li
            .select('g')
            .attr('class', (d) => `series series-${d.id}`)
            .selectAll('circle.series-dot')
            .data((d) => (d.dots ? [15] : []))
            .join('circle')
            .attr('class', 'series-dot')
            .attr('cx', (cx) => cx)
            .attr('cy', 6)
            .attr('r', 3),
        )
        .call((li) => li.select('span').text((d) => d.label));
    },
  };
}
