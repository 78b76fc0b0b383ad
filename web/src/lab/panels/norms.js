// A chosen run's lengths, layer by layer (the demo panel's "L2/tok across
// layers" for the model trained here): the stream and both norms' outputs
// before the first step (grey) and after the last (in the demo panel's
// colours), on a log axis with sqrt(d) marked, the reading of what they did,
// and a table of the trainer's float32 values exactly. The chart and its
// reading are redrawn only when what they show changed.
import { drawLineChart } from '../../charts/line-chart.js';
import { decimals, integer, significant } from '../../format.js';
import { el, labelledControl, setHidden, setOptions, setText } from '../../widgets/dom.js';
import { createChartFigure } from '../chart-figure.js';
import { RUN_LABEL } from '../labels.js';
import { float32Text, layerNormsReading, streamNormed } from '../layer-norms.js';
import { LAB_SHAPE } from '../runs.js';

// The legend: one item per quantity.
const LEGEND = { residual: 'normsStream', norm1: 'normsFirst', norm2: 'normsSecond' };
// The series names, before and after training.
const SERIES = {
  before: { stream: 'normsStreamBefore', first: 'normsFirstBefore', second: 'normsSecondBefore' },
  after: { stream: 'normsStreamAfter', first: 'normsFirstAfter', second: 'normsSecondAfter' },
};

export const normsPanel = {
  name: 'norms',
  reads: ['text', 'state'],

  create({ requestPaint }) {
    const box = el('section', { className: 'lab-norms' });
    const title = el('h4');
    const intro = el('p');
    const choice = labelledControl('lab-norms-run', 'select');
    choice.wrap.classList.add('control-inline');
    const pending = el('p', { className: 'slot-pending' });
    const figure = createChartFigure('norms', 280, () => requestPaint(true));
    const placement = el('p', { className: 'lab-line-note' });
    const reading = el('div', { className: 'lab-norms-reading' });
    figure.figure.append(placement, reading, figure.tableBox);
    box.append(title, intro, choice.wrap, pending, figure.figure);
    // runId: the run the reader chose (null: the first measured); shown:
    // what the chart shows now, the language and the probes (compared by
    // identity).
    const part = { nodes: [box], title, intro, choice, pending, figure, placement, reading, runId: null, shown: {} };
    choice.input.addEventListener('change', () => {
      part.runId = choice.input.value;
      requestPaint(true);
    });
    return part;
  },

  paint(part, { text, state }) {
    const { t } = text;
    const { choice, figure } = part;
    const measured = state.runs.filter((r) => r.layerNorms?.before);
    const run = measured.find((r) => r.id === part.runId) ?? measured[0] ?? null;
    const { hidden } = LAB_SHAPE;
    const sqrtD = Math.sqrt(hidden);
    setText(part.title, t('normsTitle'));
    setText(part.intro, t('normsIntro', { d: hidden, sqrtD: decimals(sqrtD, 2) }));
    setText(choice.label, t('normsRun'));
    setOptions(
      choice.input,
      measured.map((r) => [r.id, t(RUN_LABEL[r.id])]),
      run?.id ?? '',
    );
    setHidden(choice.wrap, !run);
    setHidden(part.pending, Boolean(run));
    setText(part.pending, t('normsPending'));
    setHidden(figure.figure, !run);
    if (!run) return;
    const { before, after } = run.layerNorms;
    const { shown } = part;
    if (shown.lang === text.lang && shown.before === before && shown.after === after) return;
    part.shown = { lang: text.lang, before, after };
    figure.figure.dataset.run = run.id;
    const placement = run.options.placement;
    const L = before.residual.length - 1;
    const probes = [
      ['before', before],
      ['after', after],
    ].filter(([, probe]) => probe);
    const points = (values) => values.map((v, l) => [l, v]).filter(([, v]) => Number.isFinite(v) && v > 0);
    const series = probes.flatMap(([when, probe]) => [
      { id: `lab-${when}-residual`, label: t(SERIES[when].stream), points: points(probe.residual) },
      ...(probe.norms
        ? [
            { id: `lab-${when}-norm1`, label: t(SERIES[when].first), points: points(probe.norms.inputNorm.out) },
            {
              id: `lab-${when}-norm2`,
              label: t(SERIES[when].second),
              points: points(probe.norms.postAttentionNorm.out),
              dots: true,
            },
          ]
        : []),
    ]);
    const drawn = [sqrtD, ...series.flatMap((s) => s.points.map((p) => p[1]))];
    setText(figure.caption, t('normsChart', { run: t(RUN_LABEL[run.id]) }));
    // One legend item per quantity, its before and after keys side by side.
    figure.legend.update(
      ['residual', 'norm1', 'norm2']
        .map((quantity) => ({
          id: `lab-norms-${quantity}`,
          ids: series.filter((s) => s.id.endsWith(`-${quantity}`)).map((s) => s.id),
          label: t(LEGEND[quantity]),
          dots: quantity === 'norm2',
        }))
        .filter((item) => item.ids.length),
    );
    figure.chart.render(
      (svg, width, height) =>
        drawLineChart(svg, width, height, {
          x: { type: 'linear', domain: [0, L], label: t('axisLayer'), integer: true },
          y: { type: 'log', domain: [Math.min(...drawn) / 1.4, Math.max(...drawn) * 1.4], label: t('axisL2') },
          rules: [{ id: 'sqrt-d', value: sqrtD, label: t('normsRule', { d: hidden, sqrtD: decimals(sqrtD, 2) }) }],
          series,
          legend: true,
        }),
      t('normsChart', { run: t(RUN_LABEL[run.id]) }),
    );
    // DeepNorm is read as post-norm (its stream is a norm's output); a run
    // placed otherwise (output, sandwich), or without a norm (DyT), gets no
    // claim of either's.
    const onlyPre = placement === 'pre' && run.options.norm !== 'dyt';
    setText(part.placement, t(streamNormed(placement) ? 'normsPost' : onlyPre ? 'normsPre' : 'normsVariant'));
    // The reading's numbers, each as its sentence shows it.
    part.reading.replaceChildren(
      ...probes.flatMap(([when, probe]) =>
        layerNormsReading(probe, { when, placement, hidden }).map(({ key, params }) => {
          const shownParams = {
            when: t(when === 'before' ? 'normsWhenBefore' : 'normsWhenAfter', { step: integer(probe.step) }),
            first: significant(params.first ?? NaN, 3),
            last: significant(params.last ?? NaN, 3),
            factor: significant(params.factor ?? NaN, 2),
            lastLayer: integer(params.lastLayer ?? 0),
            low: significant(params.low ?? NaN, 3),
            high: significant(params.high ?? NaN, 3),
            sqrtD: decimals(sqrtD, 2),
            d: hidden,
            percent: decimals(params.percent ?? NaN, 1),
          };
          const p = el('p', { textContent: t(key, shownParams) });
          p.dataset.reading = key;
          p.dataset.when = when;
          return p;
        }),
      ),
    );
    const cell = (probe, pick) => (probe ? float32Text(pick(probe)) : '');
    const norm = (name, l) => (probe) => probe.norms?.[name].out[l] ?? NaN;
    const rows = before.residual.map((_, l) => {
      const last = l === L;
      return [
        last ? t('normsOutputRow') : String(l),
        cell(before, (p) => p.residual[l]),
        cell(after, (p) => p.residual[l]),
        last ? '' : cell(before, norm('inputNorm', l)),
        last ? '' : cell(after, norm('inputNorm', l)),
        last ? '' : cell(before, norm('postAttentionNorm', l)),
        last ? '' : cell(after, norm('postAttentionNorm', l)),
      ];
    });
    figure.table.update({
      summaryText: t('tableShow'),
      captionText: t('normsTable', { run: t(RUN_LABEL[run.id]), tokens: integer(before.tokens) }),
      columns: [
        t('colLayer'),
        ...['stream', 'first', 'second'].flatMap((quantity) => [t(SERIES.before[quantity]), t(SERIES.after[quantity])]),
      ],
      rows,
    });
  },
};
