// Attention saturation per layer, for the current settings: each layer's
// largest attention probability and attention entropy, averaged over the
// prompt's tokens and the heads. The zones are the softmax widget's, so a
// layer in the "saturated" band is doing what that widget showed.
import { drawLineChart } from '../charts/line-chart.js';
import { createChartFrame } from '../charts/chart-frame.js';
import { ZONE_DRIFT_FROM, ZONE_SATURATED_FROM } from '../constants.js';
import { fixed, significant } from '../format.js';
import { settingsText } from '../settings-text.js';
import { createDataTable } from './data-table.js';
import { el, setHidden, setText } from './dom.js';

export function createAttentionWidget(root) {
  const pending = el('p', { className: 'slot-pending' });
  const settings = el('p', { className: 'widget-note' });
  const summary = el('p', { className: 'chart-summary' });
  const charts = el('div', { className: 'chart-pair' });
  const maxFigure = el('figure', { className: 'chart-figure' });
  const maxCaption = el('figcaption', { className: 'chart-caption' });
  const maxBox = el('div', { className: 'chart-box' });
  maxFigure.append(maxCaption, maxBox);
  const entropyFigure = el('figure', { className: 'chart-figure' });
  const entropyCaption = el('figcaption', { className: 'chart-caption' });
  const entropyBox = el('div', { className: 'chart-box' });
  entropyFigure.append(entropyCaption, entropyBox);
  charts.append(maxFigure, entropyFigure);
  const maxChart = createChartFrame(maxBox, { height: 230 });
  const entropyChart = createChartFrame(entropyBox, { height: 230 });
  const note = el('p', { className: 'widget-note' });
  root.append(pending, settings, summary, charts, note);
  const table = createDataTable(root);
  let painted = null;

  return {
    // data: { view: forward view | null, layer }
    update({ view, layer }, { t, lang }) {
      setHidden(pending, Boolean(view));
      setText(pending, t('model.pending'));
      setHidden(charts, !view);
      if (!view) return;
      if (painted && painted.view === view && painted.layer === layer && painted.lang === lang) return;
      painted = { view, layer, lang };

      const { maxProb, entropy, uniformEntropy } = view.attention;
      const L = view.layers;
      const deepest = L - 1;
      const saturated = Array.from(maxProb).filter((p) => p >= ZONE_SATURATED_FROM).length;
      setText(
        settings,
        t('attention.settings', {
          settings: settingsText({ ...view.config, depth: L }, t),
          tokens: view.tokens,
        }),
      );
      setText(
        summary,
        // A count of none reads as a sentence of its own ("none of the 24
        // layers", "24 层中没有一层"), not as "0 of the 24".
        t(saturated === 0 ? 'attention.summaryNoneSaturated' : 'attention.summary', {
          first: fixed(maxProb[0], 2),
          deepest,
          deep: fixed(maxProb[deepest], 2),
          peak: fixed(Math.max(...maxProb), 2),
          saturated,
          depth: L,
          uniform: fixed(uniformEntropy, 2),
          entropyDeep: fixed(entropy[deepest], 2),
        }),
      );
      setText(maxCaption, t('attention.maxTitle'));
      setText(entropyCaption, t('attention.entropyTitle'));
      const x = { type: 'linear', domain: [0, Math.max(1, L - 1)], label: t('attention.axisLayer'), integer: true };
      const layerPoints = (values) => Array.from(values, (v, l) => [l, v]);
      maxChart.render(
        (svg, width, height) =>
          drawLineChart(svg, width, height, {
            x,
            y: { type: 'linear', domain: [0, 1], label: t('attention.axisMax') },
            rules: [
              { id: 'zone-drift', value: ZONE_DRIFT_FROM, label: t('softmax.zoneDrift') },
              { id: 'zone-saturated', value: ZONE_SATURATED_FROM, label: t('softmax.zoneSaturated') },
            ],
            series: [{ id: 'attention-max', label: t('attention.seriesMax'), points: layerPoints(maxProb) }],
            marker: {
              x: Math.min(layer, L - 1),
              points: [{ id: 'attention-max', y: maxProb[Math.min(layer, L - 1)] }],
            },
            // The caption names the one series.
            legend: true,
          }),
        `${t('attention.maxTitle')}. ${summary.textContent}`,
      );
      const top = Math.max(uniformEntropy, ...entropy) * 1.1;
      entropyChart.render(
        (svg, width, height) =>
          drawLineChart(svg, width, height, {
            x,
            y: { type: 'linear', domain: [0, top], label: t('attention.axisEntropy') },
            rules: [
              {
                id: 'uniform',
                value: uniformEntropy,
                label: t('attention.uniform', { value: fixed(uniformEntropy, 2) }),
              },
            ],
            series: [{ id: 'attention-entropy', label: t('attention.seriesEntropy'), points: layerPoints(entropy) }],
            marker: {
              x: Math.min(layer, L - 1),
              points: [{ id: 'attention-entropy', y: entropy[Math.min(layer, L - 1)] }],
            },
            legend: true,
          }),
        `${t('attention.entropyTitle')}. ${t('attention.uniform', { value: fixed(uniformEntropy, 2) })}`,
      );
      setText(note, t('attention.note', { heads: view.heads }));
      table.update({
        summaryText: t('table.show'),
        captionText: t('attention.tableCaption'),
        columns: [t('attention.layerCol'), t('attention.seriesMax'), t('attention.seriesEntropy')],
        rows: Array.from(maxProb, (p, l) => [String(l), fixed(p, 3), significant(entropy[l])]),
      });
    },
  };
}
