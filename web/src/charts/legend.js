// A legend in HTML above a chart, for series whose labels would not fit at
// the ends of their lines. Each key is a short stroke drawn with the series'
// own classes, so it has the line's colour and dash pattern. An item may
// stand for several series drawn alike but for their colour (the same
// quantity before and after training): then its keys stand side by side,
// in the order of its ids, which keeps the legend short on a phone.
import { select } from 'd3-selection';

const KEY = 30;
const KEY_SHORT = 18;
const KEY_GAP = 4;

export function createLegend(container) {
  const list = select(container).append('ul').attr('class', 'chart-legend');
  return {
    // items: [{ id, label, dots } | { id, ids: [...], label, dots }], the
    // ids of drawLineChart's series (dots: the series marks its points, and
    // so does its key)
    update(items) {
      const keysOf = (d) => d.ids ?? [d.id];
      const width = (d) => (keysOf(d).length === 1 ? KEY : keysOf(d).length * (KEY_SHORT + KEY_GAP) - KEY_GAP);
      list
        .selectAll('li')
        .data(items, (d) => d.id)
        .join((enter) => {
          const li = enter.append('li');
          li.append('svg').attr('class', 'chart legend-key').attr('height', 12).attr('aria-hidden', 'true');
          li.append('span');
          return li;
        })
        .call((li) =>
          li
            .select('svg')
            .attr('width', width)
            .selectAll('g.series')
            .data((d) =>
              keysOf(d).map((id, i, all) => {
                const w = all.length === 1 ? KEY : KEY_SHORT;
                return { id, x: i * (KEY_SHORT + KEY_GAP), w, dots: d.dots };
              }),
            )
            .join((enter) => {
              const g = enter.append('g');
              g.append('path');
              return g;
            })
            .attr('class', (k) => `series series-${k.id}`)
            .call((g) => g.select('path').attr('d', (k) => `M${k.x + 1},6 H${k.x + k.w - 1}`))
            .call((g) =>
              g
                .selectAll('circle.series-dot')
                .data((k) => (k.dots ? [k.x + k.w / 2] : []))
                .join('circle')
                .attr('class', 'series-dot')
                .attr('cx', (cx) => cx)
                .attr('cy', 6)
                .attr('r', 3),
            ),
        )
        .call((li) => li.select('span').text((d) => d.label));
    },
  };
}
