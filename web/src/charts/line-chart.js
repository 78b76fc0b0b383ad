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

// Labels inside the plot (a guess's, a rule's) go where nothing else is:
// each has places to try in order of preference and takes the first whose
// box stays within the plot (or above it, in the chart's top margin), clear
// of every series' line, of the other rules and of the boxes taken before
// it (labels placed earlier, marks, the reader's markers). The guesses'
// labels are placed first, next to their markers; the rules' labels, which
// may sit anywhere along their line, then keep clear of them. Boxes are
// estimated from the text, so that placing a label costs no layout: a CJK
// character is 1 em wide, a point or comma 0.3 em, any other about 0.6 em
// (0.64 em in the guesses' semibold); glyphs reach 0.92 em above the
// baseline and 0.25 em below it, as the page's fonts draw them.
const LABEL_FONT_PX = 12;
const LABEL_CLEARANCE = 3;
// How far off its first place a label may move, nearest first: a few
// pixels at a time up to a line of labels (a box's height and the
// clearance), then a line and a half and two lines.
const LABEL_STEP = 17;
const LABEL_OFFSETS = [0, 4, 8, 12, LABEL_STEP, 1.5 * LABEL_STEP, 2 * LABEL_STEP];
function labelWidth(text, latinEm = 0.6) {
  let em = 0;
  for (const c of text) em += /[\u2e80-\u9fff\uff00-\uffef]/.test(c) ? 1 : c === '.' || c === ',' ? 0.3 : latinEm;
  return em * LABEL_FONT_PX;
}

// A place is { anchor: 'start' | 'end', x, baseline }.
function labelBox(place, width) {
  const left = place.anchor === 'end' ? place.x - width : place.x;
  return {
    left,
    right: left + width,
    top: place.baseline - LABEL_FONT_PX * 0.92,
    bottom: place.baseline + LABEL_FONT_PX * 0.25,
  };
}

const grown = (b, by) => ({ left: b.left - by, right: b.right + by, top: b.top - by, bottom: b.bottom + by });

// How much of the polyline (pixel points) lies inside the box: the length
// of each segment clipped to it (Liang-Barsky), summed. A segment wholly to
// one side of the box adds nothing and is passed over: the lab's loss chart
// weighs a dozen places for each rule's label against 3 runs × 400 steps on
// every repaint while it trains.
function lengthInside(points, box) {
  let total = 0;
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    if (
      (x0 < box.left && x1 < box.left) ||
      (x0 > box.right && x1 > box.right) ||
      (y0 < box.top && y1 < box.top) ||
      (y0 > box.bottom && y1 > box.bottom)
    )
      continue;
    const dx = x1 - x0;
    const dy = y1 - y0;
    const clip = { t0: 0, t1: 1 };
    edge(clip, -dx, x0 - box.left);
    edge(clip, dx, box.right - x0);
    edge(clip, -dy, y0 - box.top);
    edge(clip, dy, box.bottom - y0);
    if (clip.t1 > clip.t0) total += (clip.t1 - clip.t0) * Math.hypot(dx, dy);
  }
  return total;
}

// One of Liang-Barsky's four edges: narrows the segment's [t0, t1] inside it.
function edge(clip, p, q) {
  if (p === 0) {
    if (q < 0) clip.t1 = -1;
  } else if (p < 0) clip.t0 = Math.max(clip.t0, q / p);
  else clip.t1 = Math.min(clip.t1, q / p);
}

const overlapArea = (a, b) =>
  Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

// The first of `places` where a label `width` px wide is clear (the
// estimate is rough and a curve is drawn with some width: a few pixels are
// kept clear around the box); where none is, the one inside `bounds` with
// the least in the way: the length of line and the area of other boxes over
// it, counted four times over the text itself and once over the margin
// around it. Its box is added to `taken`. lines: polylines in pixels.
function placeLabel(places, width, bounds, lines, taken) {
  const cost = (p) => {
    const box = labelBox(p, width);
    if (box.left < bounds.left || box.right > bounds.right || box.top < bounds.top || box.bottom > bounds.bottom)
      return Infinity;
    const room = grown(box, LABEL_CLEARANCE);
    let sum = 0;
    for (const points of lines) sum += lengthInside(points, room) + 3 * lengthInside(points, box);
    for (const b of taken) sum += (overlapArea(b, room) + 3 * overlapArea(b, box)) / LABEL_FONT_PX;
    return sum;
  };
  let place = places[0];
  let least = Infinity;
  for (const p of places) {
    const c = cost(p);
    if (c < least) [place, least] = [p, c];
    if (c === 0) break;
  }
  taken.push(labelBox(place, width));
  return place;
}

// A rule's label: below the line at the right end first (the series of
// these charts start low and climb, the norms' outputs sit on their sqrt(d)
// rule), then above it at the left, then the other two corners, then
// above and below the line's middle; then the same further off, so that a
// curve hugging the rule (a stalled loss on its plateau) leaves room.
const RULE_LABEL_GAP = 4;
function placeRuleLabel(rule, y, plot, bounds, lines, taken) {
  const width = labelWidth(rule.label);
  const ry = y(rule.value);
  const below = (off) => ry + off + RULE_LABEL_GAP + LABEL_FONT_PX * 0.8;
  const above = (off) => ry - off - RULE_LABEL_GAP - 1;
  const right = plot.right - RULE_LABEL_GAP;
  const left = plot.left + 6;
  const middle = (plot.left + plot.right - width) / 2;
  const places = LABEL_OFFSETS.flatMap((off) => [
    { anchor: 'end', x: right, baseline: below(off) },
    { anchor: 'start', x: left, baseline: above(off) },
    { anchor: 'end', x: right, baseline: above(off) },
    { anchor: 'start', x: left, baseline: below(off) },
    { anchor: 'start', x: middle, baseline: below(off) },
    { anchor: 'start', x: middle, baseline: above(off) },
  ]);
  return placeLabel(places, width, bounds, lines, taken);
}

// A guess's label: left of its marker, on the side the guess asks for
// (above or below) and then the other, then level with it; then the same
// further off, then right of the marker.
const GUESS_RADIUS = 6;
const GUESS_LABEL_GAP = 8;
const GUESS_LATIN_EM = 0.64;
function placeGuessLabel(guess, cx, cy, bounds, lines, taken) {
  const above = (off) => cy - off - LABEL_FONT_PX * 0.7;
  const below = (off) => cy + off + LABEL_FONT_PX * 1.3;
  const sides = (off) => (guess.labelAt === 'below' ? [below(off), above(off)] : [above(off), below(off)]);
  const level = cy + LABEL_FONT_PX * 0.35;
  const beside = (anchor, x) => [
    ...sides(0).map((baseline) => ({ anchor, x, baseline })),
    { anchor, x: anchor === 'end' ? x - GUESS_RADIUS : x + GUESS_RADIUS, baseline: level },
    ...LABEL_OFFSETS.slice(1).flatMap((off) => sides(off).map((baseline) => ({ anchor, x, baseline }))),
  ];
  const places = [...beside('end', cx - GUESS_LABEL_GAP), ...beside('start', cx + GUESS_LABEL_GAP)];
  return placeLabel(places, labelWidth(guess.label, GUESS_LATIN_EM), bounds, lines, taken);
}

// The pixel box of a guess's marker, with its stroke.
function guessDotBox([cx, cy]) {
  const r = GUESS_RADIUS + 2;
  return { left: cx - r, right: cx + r, top: cy - r, bottom: cy + r };
}

// Each guess's label place, in order: clear of `lines`, of the boxes in
// `taken`, of the other guesses' markers and of the labels placed before
// it. Adds the labels' boxes to `taken`.
function placeGuessLabels(guesses, bounds, lines, taken) {
  return guesses.map((g) => {
    const others = guesses.filter((o) => o !== g).map((o) => guessDotBox(o.at));
    const room = [...taken, ...others];
    const place = placeGuessLabel(g, ...g.at, bounds, lines, room);
    taken.push(room.at(-1));
    return place;
  });
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
  const guesses = (data.guesses ?? []).map((g) => ({ ...g, at: guessPixel(g, x, y) }));
  const labelled = guesses.length > 0 || (data.rules ?? []).length > 0;
  const lines = { series: labelled ? seriesPixels(data.series, x, y) : [], rules: ruleLines(data.rules, y, plot) };
  // The boxes the rules' labels keep off: the marks, the reader's markers
  // and their labels.
  const taken = markBoxes(data.marks, x, y, plot);
  const bounds = { ...plot, top: 0 };
  const guessPlaces = placeGuessLabels(guesses, bounds, [...lines.series, ...lines.rules], taken);
  taken.push(...guesses.map((g) => guessDotBox(g.at)));

  // The axes, rules and series are redrawn only when what they show
  // changed: a Layer selector step moves the marker alone, and rewriting
  // the rest (d3 sets every attribute and text again) would cost the
  // browser a style, layout and paint pass over the whole chart. The rule
  // labels keep off the reader's markers, so these count too.
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
    guesses.map((g) => [g.at, g.label, g.labelAt]),
  ]);
  if (svg.node().__lineChartFrame !== frame) {
    drawFrame(svg, width, height, data, { MARGIN, x, y, plot, bounds, lines, taken });
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

  drawGuesses(svg, y, guesses, guessPlaces);
  drawHover(svg, x, plot, data.hover);
}

const seriesPixels = (series, x, y) => series.map((s) => s.points.map(([px, py]) => [x(px), y(py)]));
const ruleLines = (rules, y, plot) =>
  (rules ?? []).map((r) => [
    [plot.left, y(r.value)],
    [plot.right, y(r.value)],
  ]);
// A mark's box; a mark with no y sits on the plot's top edge.
const markBoxes = (marks, x, y, plot) =>
  (marks ?? []).map((m) => {
    const cx = x(m.x);
    const cy = m.y === null ? plot.top : y(m.y);
    return { left: cx - 4, right: cx + 4, top: cy - 4, bottom: cy + 4 };
  });

// Where a guess's marker is drawn: its value kept inside the y domain.
function guessPixel(guess, x, y) {
  const [lo, hi] = y.domain();
  return [x(guess.x), y(Math.min(Math.max(guess.y, Math.min(lo, hi)), Math.max(lo, hi)))];
}

// The chart's frame: the shaded band, the axes and their titles, the rules
// and the series. lines ({ series, rules }, in pixels) and taken: what the
// rules' labels keep off.
function drawFrame(svg, width, height, data, { MARGIN, x, y, plot, bounds, lines, taken }) {
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
      g.select('text').each(function (r, i) {
        const others = [...lines.series, ...lines.rules.filter((_, j) => j !== i)];
        const place = placeRuleLabel(r, y, plot, bounds, others, taken);
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
// guesses: the data's, each with `at`, its marker's pixel; places: their
// labels' (placeGuessLabels).
function drawGuesses(svg, y, guesses, places) {
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
    .attr('cx', (d) => d.at[0])
    .attr('cy', (d) => d.at[1])
    .attr('r', GUESS_RADIUS);
  groups.select('.guess-label').each(function (d) {
    const place = places[guesses.indexOf(d)];
    select(this).attr('x', place.x).attr('y', place.baseline).attr('text-anchor', place.anchor).text(d.label);
  });
  groups
    .select('.guess-handle')
    .attr('cx', (d) => d.at[0])
    .attr('cy', (d) => d.at[1])
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
