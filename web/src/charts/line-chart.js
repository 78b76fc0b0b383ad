// Line chart with labelled series, horizontal reference lines, a shaded band,
// a marker at the current x, guess markers the reader may drag, and an
// optional hover read-out: the playground's L2 sweep and the model's
// per-layer charts. Scales, axes and paths come from d3.
import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear, scaleLog } from 'd3-scale';
import { pointer, select } from 'd3-selection';
import { line, symbol, symbolCircle, symbolTimes } from 'd3-shape';

import { tick } from '../format.js';

const DEFAULT_MARGIN = { top: 14, right: 92, bottom: 40, left: 52 };

function makeScale(spec, range) {
  return (spec.type === 'log' ? scaleLog() : scaleLinear()).domain(spec.domain).range(range);
}

// Ticks for an axis that counts things (layers): whole numbers only, never
// more than fit.
export function integerTicks(lo, hi, maxTicks) {
  const span = hi - lo;
  const fits = (s) => Math.floor(span / s) + 1 <= Math.max(3, maxTicks);
  const step = [1, 2, 4, 5, 8, 10, 16, 20, 25, 50, 100].find(fits) ?? Math.ceil(span / 2);
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) ticks.push(v);
  return ticks;
}

// Ticks for a log axis: 1-2-5 or 1-3 steps when at most three decades are
// shown, else powers of ten, every k-th decade so that no more than maxTicks
// labels share the axis (a 5-decade axis on a phone: 10⁻⁴, 1). Narrower than
// one 1-2-5 step, the scale's own ticks.
export function logTicks(lo, hi, maxTicks, scale) {
  const e0 = Math.floor(Math.log10(lo));
  const e1 = Math.ceil(Math.log10(hi));
  const within = (v) => v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9);
  const at = (m, e) => Number((m * 10 ** e).toPrecision(12));
  const steps = Math.log10(hi / lo) <= 3 ? [[1, 2, 5], [1, 3], [1]] : [[1]];
  for (const mantissas of steps) {
    const ticks = [];
    for (let e = e0; e <= e1; e++) for (const m of mantissas) if (within(at(m, e))) ticks.push(at(m, e));
    if (ticks.length < 2) return scale.ticks(Math.max(2, maxTicks)).filter(within);
    if (ticks.length <= maxTicks) return ticks;
  }
  for (let k = 2; ; k++) {
    const ticks = [];
    for (let e = e0; e <= e1; e++) if (e % k === 0 && within(at(1, e))) ticks.push(at(1, e));
    if (ticks.length <= Math.max(2, maxTicks)) return ticks;
  }
}

function axisTicks(axis, spec, scale, maxTicks) {
  if (spec.integer) axis.tickValues(integerTicks(spec.domain[0], spec.domain[1], maxTicks));
  else if (spec.type === 'log') axis.tickValues(logTicks(scale.domain()[0], scale.domain()[1], maxTicks, scale));
  else axis.ticks(maxTicks);
  axis.tickFormat(tick);
}

// A rule's label goes where no series crosses it: below the line at the
// right end first (the series of these charts start low and climb, the
// norms' outputs sit on their sqrt(d) rule), then above it at the left, then
// the other two corners. Boxes are estimated from the text: a CJK character
// is about 1 em wide, any other about 0.6 em.
const RULE_FONT_PX = 12;
const RULE_LABEL_GAP = 4;
const LABEL_CLEARANCE = 3;
function ruleLabelWidth(text) {
  let em = 0;
  for (const c of text) em += /[\u2e80-\u9fff\uff00-\uffef]/.test(c) ? 1 : 0.6;
  return em * RULE_FONT_PX;
}

// Whether the polyline (pixel points) passes through the box: some segment's
// part within the box's x range reaches into its y range.
function crosses(points, box) {
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    const left = Math.max(box.left, Math.min(x0, x1));
    const right = Math.min(box.right, Math.max(x0, x1));
    if (left > right) continue;
    const slope = x1 === x0 ? 0 : (y1 - y0) / (x1 - x0);
    const ya = x1 === x0 ? y0 : y0 + slope * (left - x0);
    const yb = x1 === x0 ? y1 : y0 + slope * (right - x0);
    if (Math.max(ya, yb) >= box.top && Math.min(ya, yb) <= box.bottom) return true;
  }
  return false;
}

// Candidate places: the four corners next to the line, then the same a line
// of text and two lines further off, so that a curve hugging the rule (a
// stalled loss on its plateau) leaves room; the first whose box stays in
// the plot, clear of every series and of the labels placed before it.
const RULE_LABEL_OFFSETS = [0, 14, 28];
function placeRuleLabel(rule, y, plot, seriesPixels, placed) {
  const width = ruleLabelWidth(rule.label);
  const ry = y(rule.value);
  const places = RULE_LABEL_OFFSETS.flatMap((off) => [
    { anchor: 'end', x: plot.right - RULE_LABEL_GAP, baseline: ry + off + RULE_LABEL_GAP + RULE_FONT_PX * 0.8 },
    { anchor: 'start', x: plot.left + 6, baseline: ry - off - RULE_LABEL_GAP - 1 },
    { anchor: 'end', x: plot.right - RULE_LABEL_GAP, baseline: ry - off - RULE_LABEL_GAP - 1 },
    { anchor: 'start', x: plot.left + 6, baseline: ry + off + RULE_LABEL_GAP + RULE_FONT_PX * 0.8 },
  ]);
  const boxOf = (p) => {
    const left = p.anchor === 'end' ? p.x - width : p.x;
    return { left, right: left + width, top: p.baseline - RULE_FONT_PX * 0.8, bottom: p.baseline + RULE_FONT_PX * 0.2 };
  };
  const inside = (b) => b.top >= plot.top && b.bottom <= plot.bottom;
  // The estimate is rough and a curve is drawn with some width: keep a few
  // pixels clear around the box.
  const padded = (b) => ({
    left: b.left - LABEL_CLEARANCE,
    right: b.right + LABEL_CLEARANCE,
    top: b.top - LABEL_CLEARANCE,
    bottom: b.bottom + LABEL_CLEARANCE,
  });
  const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const place =
    places.find((p) => {
      const box = boxOf(p);
      return (
        inside(box) &&
        !seriesPixels.some((points) => crosses(points, padded(box))) &&
        !placed.some((b) => overlaps(b, box))
      );
    }) ?? places[1];
  placed.push(boxOf(place));
  return place;
}

// data: {
//   x, y: { type: 'log' | 'linear', domain: [lo, hi], label,
//           integer (x only: whole-number ticks) }
//   series: [{ id, label, points: [[x, y], ...], dots }]
//           (class series-<id>; dots draws a circle at every point, endDot
//           one at the last (where a curve being drawn has got to); the
//           group's data-values lists the drawn y values, for tests and
//           tools that read the chart; a series may have no points yet)
//   marks: [{ series, x, y, kind }]   one symbol per point (class mark
//          mark-<kind> series-<series>): kind 'filled' a disc, 'hollow' a
//          ring, 'cross' an ×; y null puts the mark on the plot's top edge
//          (a value that does not exist, such as a diverged run's loss)
//   rules: [{ id, value, label }]                     horizontal lines
//   band: { from, to, label } | null                  shaded x range
//   marker: { x, points: [{ id, y }] } | null         current position
//   guesses: [{ id, x, y, label, labelAt: 'above' | 'below', onDrag(y) | null }]
//          the reader's guesses, hollow markers (class guess-<id>) labelled
//          above or below, to their left; with onDrag, a pointer drags
//          one up and down and onDrag gets the y under the pointer, kept
//          inside the y domain
//   hover: { xs: [...], x: current | null, onMove(x | null) } | null
//          pointer read-out: onMove gets the nearest of xs under the pointer
//   legend: true when a legend beside the chart names the series: no end
//           labels, and the plot takes the room they had
// }
// The x axis's title, centred under the plot between pixels left and right,
// on the chart's last line (height: the chart's).
export function drawXTitle(svg, label, left, right, height) {
  svg
    .selectAll('text.axis-title-x')
    .data([label])
    .join('text')
    .attr('class', 'axis-title axis-title-x')
    .attr('x', (left + right) / 2)
    .attr('y', height - 6)
    .attr('text-anchor', 'middle')
    .text((d) => d);
}

// Room left of the plot for the y axis: its tick labels (axisLeft draws them
// 9 px from the axis, at 12 px) and, beyond them, the rotated axis title
// (centred at x = 14, its glyphs reaching x = 17), so that the two never
// overlap ("0.001" on a log axis is wider than DEFAULT_MARGIN leaves). A
// label's width is estimated from its characters: a point or comma about
// 0.32 em, anything else (digits, signs, superscripts) at most 0.64 em.
const Y_TICK_GAP = 9;
const Y_TITLE_ROOM = 19;
const tickLabelWidth = (text) => [...text].reduce((w, c) => w + (c === '.' || c === ',' ? 3.8 : 7.7), 0);
function leftMargin(spec, y) {
  const widest = Math.max(0, ...yTickValues(spec, y).map((v) => tickLabelWidth(tick(v))));
  return Math.max(DEFAULT_MARGIN.left, Math.ceil(Y_TICK_GAP + widest + Y_TITLE_ROOM));
}

// The y ticks axisTicks() chooses (5 at most).
function yTickValues(spec, scale) {
  if (spec.integer) return integerTicks(spec.domain[0], spec.domain[1], 5);
  if (spec.type === 'log') return logTicks(scale.domain()[0], scale.domain()[1], 5, scale);
  return scale.ticks(5);
}

export function drawLineChart(svg, width, height, data) {
  // Without end labels (a legend names the series) the right margin shrinks.
  const base = data.legend ? { ...DEFAULT_MARGIN, right: 18 } : DEFAULT_MARGIN;
  const y = makeScale(data.y, [height - base.bottom, base.top]);
  const MARGIN = { ...base, left: leftMargin(data.y, y) };
  const x = makeScale(data.x, [MARGIN.left, width - MARGIN.right]);
  const plotTop = MARGIN.top;
  const plotBottom = height - MARGIN.bottom;
  const plot = { left: MARGIN.left, right: width - MARGIN.right, top: plotTop, bottom: plotBottom };

  // The axes, rules and series are redrawn only when what they show
  // changed: a Layer selector step moves the marker alone, and rewriting
  // the rest (d3 sets every attribute and text again) would cost the
  // browser a style, layout and paint pass over the whole chart.
  const frame = JSON.stringify([
    width,
    height,
    data.x,
    data.y,
    data.band ?? null,
    data.rules ?? [],
    data.series,
    data.marks ?? [],
    Boolean(data.legend),
  ]);
  if (svg.node().__lineChartFrame !== frame) {
    drawFrame(svg, width, height, data, { MARGIN, x, y, plot });
    svg.node().__lineChartFrame = frame;
  }

  const marker = svg
    .selectAll('g.marker')
    .data(data.marker ? [data.marker] : [])
    .join((enter) => {
      const g = enter.append('g').attr('class', 'marker');
      g.append('line');
      return g;
    });
  marker
    .select('line')
    .attr('x1', (m) => x(m.x))
    .attr('x2', (m) => x(m.x))
    .attr('y1', plotTop)
    .attr('y2', plotBottom);
  marker
    .selectAll('circle')
    .data(
      (m) => m.points.map((p) => ({ ...p, x: m.x })),
      (p) => p.id,
    )
    .join('circle')
    .attr('class', (p) => `marker-dot marker-${p.id}`)
    .attr('cx', (p) => x(p.x))
    .attr('cy', (p) => y(p.y))
    .attr('r', 5);

  drawGuesses(svg, x, y, data.guesses ?? []);
  drawHover(svg, x, plot, data.hover);
}

// The chart's frame: the shaded band, the axes and their titles, the rules
// and the series.
function drawFrame(svg, width, height, data, { MARGIN, x, y, plot }) {
  const plotTop = plot.top;
  const plotBottom = plot.bottom;

  const band = svg
    .selectAll('g.band')
    .data(data.band ? [data.band] : [])
    .join((enter) => {
      const g = enter.append('g').attr('class', 'band');
      g.append('rect');
      g.append('text');
      return g;
    });
  band
    .select('rect')
    .attr('x', (b) => x(b.from))
    .attr('width', (b) => x(b.to) - x(b.from))
    .attr('y', plotTop)
    .attr('height', plotBottom - plotTop);
  // A narrow band (a phone) has no room for its label next to the series
  // labels; the table and the text around the chart name it anyway.
  band
    .select('text')
    .attr('x', (b) => (x(b.from) + x(b.to)) / 2)
    .attr('y', plotTop + 12)
    .attr('text-anchor', 'middle')
    .text((b) => (x(b.to) - x(b.from) >= 110 ? b.label : ''));

  const xTicks = Math.max(2, Math.floor((width - MARGIN.left - MARGIN.right) / 60));
  const xAxis = axisBottom(x);
  axisTicks(xAxis, data.x, x, xTicks);
  svg
    .selectAll('g.axis-x')
    .data([null])
    .join('g')
    .attr('class', 'axis axis-x')
    .attr('transform', `translate(0,${plotBottom})`)
    .call(xAxis);
  const yAxis = axisLeft(y);
  axisTicks(yAxis, data.y, y, 5);
  yAxis.tickValues(yTickValues(data.y, y));
  svg
    .selectAll('g.axis-y')
    .data([null])
    .join('g')
    .attr('class', 'axis axis-y')
    .attr('transform', `translate(${MARGIN.left},0)`)
    .call(yAxis);
  drawXTitle(svg, data.x.label, MARGIN.left, width - MARGIN.right, height);
  svg
    .selectAll('text.axis-title-y')
    .data([data.y.label])
    .join('text')
    .attr('class', 'axis-title axis-title-y')
    .attr('transform', `translate(14,${(plotTop + plotBottom) / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text((d) => d);

  const seriesPixels = data.rules?.length ? data.series.map((s) => s.points.map(([px, py]) => [x(px), y(py)])) : [];
  // A rule label avoids the marks too, as boxes taken as placed already.
  const placedLabels = (data.marks ?? []).map((m) => {
    const cx = x(m.x);
    const cy = m.y === null ? plot.top : y(m.y);
    return { left: cx - 4, right: cx + 4, top: cy - 4, bottom: cy + 4 };
  });
  svg
    .selectAll('g.rule')
    .data(data.rules ?? [], (r) => r.id)
    .join((enter) => {
      const g = enter.append('g');
      g.append('line');
      g.append('text');
      return g;
    })
    .attr('class', (r) => `rule rule-${r.id}`)
    .call((g) =>
      g
        .select('line')
        .attr('x1', MARGIN.left)
        .attr('x2', width - MARGIN.right)
        .attr('y1', (r) => y(r.value))
        .attr('y2', (r) => y(r.value)),
    )
    // Rule labels stay inside the plot, leaving the right margin to the
    // series labels (a series may end on the rule), and off the series.
    .call((g) =>
      g.select('text').each(function (r) {
        const place = placeRuleLabel(r, y, plot, seriesPixels, placedLabels);
        select(this).attr('x', place.x).attr('y', place.baseline).attr('text-anchor', place.anchor).text(r.label);
      }),
    );

  const path = line()
    .x((p) => x(p[0]))
    .y((p) => y(p[1]));
  svg
    .selectAll('g.series')
    .data(data.series, (s) => s.id)
    .join((enter) => {
      const g = enter.append('g');
      g.append('path');
      g.append('text');
      return g;
    })
    .attr('class', (s) => `series series-${s.id}`)
    .attr('data-values', (s) => s.points.map((p) => p[1]).join(','))
    .call((g) => g.select('path').attr('d', (s) => (s.points.length ? path(s.points) : null)))
    .call((g) =>
      g
        .select('text')
        .attr('x', (s) => (s.points.length ? x(s.points.at(-1)[0]) + 6 : 0))
        .attr('y', (s) => (s.points.length ? y(s.points.at(-1)[1]) : 0))
        .attr('dy', '0.35em')
        .text((s) => (data.legend || !s.points.length ? '' : s.label)),
    )
    .call((g) =>
      g
        .selectAll('circle.series-dot')
        .data((s) => (s.dots ? s.points : s.endDot && s.points.length ? s.points.slice(-1) : []))
        .join('circle')
        .attr('class', 'series-dot')
        .attr('cx', (p) => x(p[0]))
        .attr('cy', (p) => y(p[1]))
        .attr('r', function radius() {
          return select(this.parentNode).datum().dots ? 2.5 : 4;
        }),
    );
  drawMarks(svg, x, y, plot, data.marks ?? []);
}

const MARK_SHAPE = {
  filled: symbol(symbolCircle, 40),
  hollow: symbol(symbolCircle, 40),
  cross: symbol(symbolTimes, 48),
};

function drawMarks(svg, x, y, plot, marks) {
  svg
    .selectAll('g.marks')
    .data([null])
    .join('g')
    .attr('class', 'marks')
    .selectAll('path.mark')
    .data(marks)
    .join('path')
    .attr('class', (m) => `mark mark-${m.kind} series-${m.series}`)
    .attr('transform', (m) => `translate(${x(m.x)},${m.y === null ? plot.top : y(m.y)})`)
    .attr('d', (m) => MARK_SHAPE[m.kind]());
}

// The reader's guesses: a hollow marker with a short label, and for a
// draggable one a larger transparent handle around it that a finger can
// hold (touch-action: none in the stylesheet keeps the page from scrolling
// under the drag). The keyboard and screen readers set the same values with
// the form controls the widget puts next to the chart.
function drawGuesses(svg, x, y, guesses) {
  const [lo, hi] = y.domain();
  const inside = (v) => Math.min(Math.max(v, Math.min(lo, hi)), Math.max(lo, hi));
  const groups = svg
    .selectAll('g.guess')
    .data(guesses, (d) => d.id)
    .join((enter) => {
      const g = enter.append('g');
      g.append('circle').attr('class', 'guess-dot');
      g.append('text').attr('class', 'guess-label');
      g.append('circle').attr('class', 'guess-handle');
      return g;
    })
    .attr('class', (d) => `guess guess-${d.id}${d.onDrag ? ' is-draggable' : ''}`)
    .attr('data-value', (d) => String(d.y));
  groups
    .select('.guess-dot')
    .attr('cx', (d) => x(d.x))
    .attr('cy', (d) => y(inside(d.y)))
    .attr('r', 6);
  groups
    .select('.guess-label')
    .attr('x', (d) => x(d.x) - 8)
    .attr('y', (d) => y(inside(d.y)))
    .attr('dy', (d) => (d.labelAt === 'below' ? '1.3em' : '-0.7em'))
    .attr('text-anchor', 'end')
    .text((d) => d.label);
  groups
    .select('.guess-handle')
    .attr('cx', (d) => x(d.x))
    .attr('cy', (d) => y(inside(d.y)))
    .attr('r', (d) => (d.onDrag ? 16 : 0));
  groups.each(function bind(d) {
    const handle = select(this).select('.guess-handle');
    if (!d.onDrag) {
      handle.on('pointerdown', null).on('pointermove', null).on('pointerup', null);
      return;
    }
    const valueAt = (event) => inside(y.invert(pointer(event, svg.node())[1]));
    handle
      .on('pointerdown', (event) => {
        event.preventDefault();
        event.currentTarget.setPointerCapture(event.pointerId);
        d.onDrag(valueAt(event));
      })
      .on('pointermove', (event) => {
        if (event.currentTarget.hasPointerCapture(event.pointerId)) d.onDrag(valueAt(event));
      })
      .on('pointerup', (event) => event.currentTarget.releasePointerCapture(event.pointerId));
  });
}

// The pointer read-out: a transparent rectangle over the plot reports the
// nearest x under the pointer; the chart draws a thin line there and the
// widget prints the values beside the chart.
// plot: the plot area's edges in pixels.
function drawHover(svg, x, plot, hover) {
  svg
    .selectAll('line.hover-line')
    .data(hover && hover.x !== null ? [hover.x] : [])
    .join('line')
    .attr('class', 'hover-line')
    .attr('x1', (v) => x(v))
    .attr('x2', (v) => x(v))
    .attr('y1', plot.top)
    .attr('y2', plot.bottom);
  const overlay = svg
    .selectAll('rect.hover-overlay')
    .data(hover ? [hover] : [])
    .join('rect')
    .attr('class', 'hover-overlay')
    .attr('x', plot.left)
    .attr('width', Math.max(0, plot.right - plot.left))
    .attr('y', plot.top)
    .attr('height', plot.bottom - plot.top);
  if (!hover) return;
  const nearest = (event) => {
    const at = x.invert(pointer(event, svg.node())[0]);
    let best = hover.xs[0];
    for (const v of hover.xs) if (Math.abs(v - at) < Math.abs(best - at)) best = v;
    return best;
  };
  overlay.on('pointermove', (event) => hover.onMove(nearest(event))).on('pointerleave', () => hover.onMove(null));
}
