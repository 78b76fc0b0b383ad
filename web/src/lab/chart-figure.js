// A lab chart's figure: its caption, legend and chart, then what the panel
// adds below, then its data table (tableBox, for the panel to append last).
// Opening or closing the table calls onToggle: an open table is kept
// current on every paint, a closed one only when a run changes state.
import { createChartFrame } from '../charts/chart-frame.js';
import { createLegend } from '../charts/legend.js';
import { createDataTable } from '../widgets/data-table.js';
import { el } from '../widgets/dom.js';
import { RUN_LABEL } from './labels.js';

export function createChartFigure(name, height, onToggle) {
  const figure = el('figure', { className: 'chart-figure' });
  figure.dataset.chart = `lab-${name}`;
  const caption = el('figcaption', { className: 'chart-caption' });
  const legendBox = el('div');
  const box = el('div', { className: 'chart-box' });
  const tableBox = el('div');
  figure.append(caption, legendBox, box);
  const table = createDataTable(tableBox);
  tableBox.querySelector('details').addEventListener('toggle', () => onToggle());
  return {
    figure,
    caption,
    legend: createLegend(legendBox),
    chart: createChartFrame(box, { height }),
    tableBox,
    table,
    tableSignature: null,
  };
}

// A step chart's table, a row per step and a column per run. Its rows are
// written while it is open; closed, it keeps its summary, caption and
// columns up to date (when a run changes state) and its rows wait until it
// is opened (the toggle repaints at once): rewriting 400 rows × 3 runs on a
// closed table cost a run's end 40 ms of the main thread.
// spec() -> { captionText, cell(run, i), length(run) }.
export function paintStepTable(figure, { text, state }, runs, spec) {
  const open = figure.tableBox.querySelector('details').open;
  const signature = `${text.lang}|${state.phase}|${state.current}|${runs.map((r) => `${r.id}:${r.status}`).join(',')}`;
  if (!open && figure.tableSignature === signature) return;
  figure.tableSignature = open ? null : signature;
  const { t } = text;
  const { captionText, cell, length } = spec();
  let rows = null;
  if (open) {
    rows = [];
    const rowsCount = Math.max(0, ...runs.map(length));
    for (let i = 0; i < rowsCount; i++)
      rows.push([String(i + 1), ...runs.map((run) => (i < length(run) ? cell(run, i) : ''))]);
  }
  figure.table.update({
    summaryText: t('tableShow'),
    captionText,
    columns: [t('colStep'), ...runs.map((run) => t(RUN_LABEL[run.id]))],
    rows,
  });
}
