// The learning-rate window: for each depth of the committed sweep, each
// run's final training loss at every learning rate (a mark per seed, a line
// through the medians), with the unigram entropy the runs start their
// plateau at; a sentence per run of how wide its window is at each depth;
// and a table of every seed's number. Painted when the language changes.
import { createChartFrame } from '../../charts/chart-frame.js';
import { createLegend } from '../../charts/legend.js';
import { drawLineChart } from '../../charts/line-chart.js';
import { decimals, fixed, integer } from '../../format.js';
import { createDataTable } from '../../widgets/data-table.js';
import { el, setText } from '../../widgets/dom.js';
import { OUTCOME_KEY, RUN_LABEL } from '../labels.js';
import { LAB_RUNS } from '../runs.js';
import { cellKey, windowAt, windowSeries } from '../sweep.js';
import { SWEEPS } from '../tables.js';

// Both languages' sweeps share one grid.
const GRID = SWEEPS.en.grid;
// A disc where a seed learned, an × where it diverged, else a ring.
const WINDOW_MARK = { learned: 'filled', diverged: 'cross' };

export const windowPanel = {
  name: 'window',
  reads: ['text'],

  create() {
    const box = el('section', { className: 'lab-window' });
    const title = el('h4');
    const intro = el('p');
    const legendBox = el('div');
    const legend = createLegend(legendBox);
    const charts = el('div', { className: 'lab-window-charts' });
    const reading = el('div', { className: 'lab-window-reading' });
    const tableBox = el('div');
    const table = createDataTable(tableBox);
    box.append(title, intro, legendBox, charts, reading, tableBox);
    // One small chart per depth.
    const frames = GRID.layers.map((layers) => {
      const figure = el('figure', { className: 'chart-figure lab-window-chart' });
      figure.dataset.chart = `lab-window-${layers}`;
      const caption = el('figcaption', { className: 'chart-caption' });
      const chartBox = el('div', { className: 'chart-box' });
      figure.append(caption, chartBox);
      charts.append(figure);
      return { layers, caption, chart: createChartFrame(chartBox, { height: 220 }) };
    });
    return { nodes: [box], box, title, intro, legend, frames, reading, table };
  },

  paint(part, { text }) {
    const { t } = text;
    const sweep = SWEEPS[text.lang];
    if (part.box.dataset.lang === text.lang) return;
    part.box.dataset.lang = text.lang;
    setText(part.title, t('windowTitle'));
    setText(part.intro, t('windowIntro', { steps: integer(sweep.steps), seeds: integer(sweep.grid.seeds.length) }));
    part.legend.update([...LAB_RUNS.map((id) => ({ id: `lab-${id}`, label: t(RUN_LABEL[id]) }))]);
    const finals = Object.values(sweep.cells)
      .flat()
      .map((e) => e.final)
      .filter(Number.isFinite);
    const lo = Math.max(0, Math.min(...finals) - 0.2);
    const hi = Math.max(sweep.entropy, ...finals) + 0.2;
    const x = { type: 'log', domain: [sweep.grid.lr[0] / 1.5, sweep.grid.lr.at(-1) * 1.5], label: t('axisLr') };
    for (const frame of part.frames) {
      const series = windowSeries(sweep, frame.layers);
      const title = t('windowChart', { layers: frame.layers });
      setText(frame.caption, title);
      frame.chart.render(
        (svg, width, height) =>
          drawLineChart(svg, width, height, {
            x,
            y: { type: 'linear', domain: [lo, hi], label: t('axisFinal') },
            series: series.map((s) => ({
              id: `lab-${s.id}`,
              label: t(RUN_LABEL[s.id]),
              points: s.medians.filter(([, v]) => v !== null),
            })),
            marks: series.flatMap((s) =>
              s.seeds.map((p) => ({
                series: `lab-${s.id}`,
                x: p.lr,
                y: Number.isFinite(p.final) ? p.final : null,
                kind: WINDOW_MARK[p.outcome] ?? 'hollow',
              })),
            ),
            rules: [
              { id: 'entropy', value: sweep.entropy, label: t('ruleEntropy', { value: decimals(sweep.entropy, 2) }) },
            ],
            legend: true,
          }),
        title,
      );
    }
    part.reading.replaceChildren(
      ...LAB_RUNS.map((id) => {
        const at = GRID.layers.map((layers) => ({ layers, ...windowAt(sweep, id, layers) }));
        const p = el('p', {
          textContent: t('windowRun', {
            run: t(RUN_LABEL[id]),
            total: integer(GRID.lr.length),
            list: text.list(at.map((w) => t('windowAt', { layers: integer(w.layers), count: integer(w.count) }))),
          }),
        });
        p.dataset.reading = `window-${id}`;
        return p;
      }),
    );
    part.table.update({
      summaryText: t('tableShow'),
      captionText: t('windowTable', { steps: integer(sweep.steps) }),
      columns: [t('colRun'), t('colLayers'), t('colLr'), ...sweep.grid.seeds.map((seed) => t('colSeed', { seed }))],
      rows: LAB_RUNS.flatMap((id) =>
        GRID.layers.flatMap((layers) =>
          GRID.lr.map((lr) => [
            t(RUN_LABEL[id]),
            String(layers),
            decimals(lr, 4),
            ...(sweep.cells[cellKey(id, layers, lr)] ?? []).map((e) =>
              t('windowCell', {
                final: Number.isFinite(e.final) ? fixed(e.final, 3) : t('dash'),
                outcome: t(OUTCOME_KEY[e.outcome]),
              }),
            ),
          ]),
        ),
      ),
    });
  },
};
