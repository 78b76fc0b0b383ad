// Learned-gain widget: a fixed sample of one norm's gains from the synthetic
// model, drawn as bars up (amplify) or down (suppress) from 1.0. The sample,
// its counts, extremes and the RMS over all the norm's gains arrive computed
// (compute.js: model.gains, then nl.stats).
import { drawBaselineBars } from '../charts/gain-bars.js';
import { createChartFrame } from '../charts/chart-frame.js';
import { decimals, fixed, significant } from '../format.js';
import { createDataTable } from './data-table.js';
import { el, readout, setHidden, setText } from './dom.js';

export function createGainWidget(root) {
  const source = el('p', { className: 'widget-note' });
  const legend = el('p', { className: 'chart-legend' });
  const figure = el('figure', { className: 'chart-figure' });
  const chartBox = el('div', { className: 'chart-box' });
  figure.append(chartBox);
  const chart = createChartFrame(chartBox, { height: 220 });

  const amplified = readout();
  const suppressed = readout();
  const min = readout();
  const max = readout();
  const rms = readout();
  for (const [r, name] of [
    [amplified, 'amplified'],
    [suppressed, 'suppressed'],
    [min, 'min'],
    [max, 'max'],
    [rms, 'rms'],
  ]) {
    r.value.dataset.readout = name;
  }
  const readouts = el('dl', { className: 'readouts' });
  readouts.append(amplified.wrap, suppressed.wrap, min.wrap, max.wrap, rms.wrap);
  const pending = el('p', { className: 'slot-pending' });
  const note = el('p', { className: 'widget-note synthetic-note' });
  const length = el('p', { className: 'widget-note gain-length' });
  root.append(pending, source, legend, figure, readouts, note, length);
  const table = createDataTable(root);
  let painted = null;

  return {
    // data: null until the model has run, else { layer, which, hidden, seed,
    //   features: number[48], values: number[48], amplified, suppressed,
    //   min, max, rmsAll, outputL2 }; outputL2: this norm's output L2 per
    //   token in the demo panel's forward pass, null without a norm
    update(data, { lang, t, rich }) {
      setHidden(pending, Boolean(data));
      setText(pending, t('model.pending'));
      setHidden(figure, !data);
      setHidden(readouts, !data);
      setHidden(length, !data);
      rich(note, 'gain.synthetic');
      if (!data) return;
      // The output's length: about sqrt(d) times the gains' RMS, beside the
      // length the forward pass measured.
      const sqrtD = Math.sqrt(data.hidden);
      const lengthParams = {
        sqrtD: decimals(sqrtD, 2),
        rms: fixed(data.rmsAll, 3),
        predicted: significant(sqrtD * data.rmsAll),
        layer: data.layer,
        measured: data.outputL2 === null ? '' : significant(data.outputL2),
      };
      const lengthKey =
        data.outputL2 === null
          ? 'gain.lengthNoNorm'
          : lengthParams.measured === lengthParams.predicted
            ? 'gain.lengthMatches'
            : 'gain.length';
      rich(length, lengthKey, lengthParams);
      if (painted === `${lang}`) return;
      painted = `${lang}`;

      rich(source, 'gain.source', {
        count: data.values.length,
        hidden: data.hidden,
        layer: data.layer,
        seed: data.seed,
      });
      legend.replaceChildren(
        el('span', { className: 'legend-swatch is-above', ariaHidden: 'true' }),
        el('span', { textContent: t('gain.amplified') }),
        el('span', { className: 'legend-swatch is-below', ariaHidden: 'true' }),
        el('span', { textContent: t('gain.suppressed') }),
      );
      setText(amplified.label, t('gain.amplified'));
      setText(suppressed.label, t('gain.suppressed'));
      setText(min.label, t('gain.min'));
      setText(max.label, t('gain.max'));
      setText(rms.label, t('gain.rmsAll', { hidden: data.hidden }));
      setText(amplified.value, String(data.amplified));
      setText(suppressed.value, String(data.suppressed));
      setText(min.value, fixed(data.min, 2));
      setText(max.value, fixed(data.max, 2));
      setText(rms.value, fixed(data.rmsAll, 3));

      const bars = data.features.map((feature, i) => ({ key: feature, value: data.values[i] }));
      const lo = Math.min(0, data.min);
      chart.render(
        (svg, width, height) =>
          drawBaselineBars(svg, width, height, {
            bars,
            baseline: 1,
            domain: [lo, Math.max(2, data.max * 1.05)],
            baselineLabel: t('gain.baseline'),
            xLabel: t('gain.axisFeatures', { count: bars.length }),
          }),
        t('gain.chartLabel', {
          count: bars.length,
          amplified: data.amplified,
          suppressed: data.suppressed,
          min: fixed(data.min, 2),
          max: fixed(data.max, 2),
        }),
      );
      table.update({
        summaryText: t('table.show'),
        captionText: t('gain.tableCaption', { count: bars.length }),
        columns: [t('gain.feature'), t('gain.value')],
        rows: bars.map((b) => [String(b.key), decimals(b.value, 3)]),
      });
    },
  };
}
