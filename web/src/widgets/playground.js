// Scale-invariance playground: a fixed synthetic vector, stretched, then
// normalized. The sweep behind the chart and the read-outs at the current
// stretch arrive computed (nl.rmsnorm, then nl.stats for the lengths).
//
// On the page, a question comes first: what the output's length will be
// once the vector is stretched tenfold. The slider moves once the reader
// has guessed or skipped; the reveal gives the computed length and how far
// the guess was.
import { drawLineChart } from '../charts/line-chart.js';
import { createChartFrame } from '../charts/chart-frame.js';
import {
  EPS_CHOICES,
  STRETCH_CHAPTER_MAX,
  STRETCH_CHAPTER_MIN,
  STRETCH_LOG10_MAX,
  STRETCH_LOG10_MIN,
} from '../constants.js';
import { decimals, powerOfTen, significant } from '../format.js';
import { CLOSE_FACTOR, LENGTH_GUESS_MAX, PLAYGROUND_QUESTION_STRETCH, guessVerdict } from '../predictions.js';
import { createDataTable } from './data-table.js';
import { el, labelledControl, readout, setDisabled, setHidden, setOptions } from './dom.js';
import { createGuessQuestion } from './guess.js';

export const STRETCH_STEP = 0.05;
// Stretch factors are written out down to the slider's 10⁻⁴, before a ×.
const STRETCH_DIGITS = { smallest: 10 ** STRETCH_LOG10_MIN };
export const stretchFromSlider = (position) => 10 ** position;
export const sliderFromStretch = (stretch) => Math.log10(stretch);

// onStretch(stretch), onEps(eps); predict: { guess(l2), skip(), again() }
// where the page asks its question (absent: no question).
export function createPlayground(root, { onStretch, onEps, predict = null }) {
  const question = predict && createGuessQuestion('playground-guess', (v) => v >= 0 && v <= LENGTH_GUESS_MAX, predict);
  const controls = el('div', { className: 'control-row' });
  const {
    wrap: stretchWrap,
    input: slider,
    label: sliderLabel,
  } = labelledControl('playground-stretch', 'input', {
    type: 'range',
    min: STRETCH_LOG10_MIN,
    max: STRETCH_LOG10_MAX,
    step: STRETCH_STEP,
  });
  stretchWrap.classList.add('control-grow');
  const valueOut = el('output', { className: 'control-value', htmlFor: slider.id });
  stretchWrap.append(valueOut);
  slider.addEventListener('input', () => onStretch(stretchFromSlider(Number(slider.value))));
  const { wrap: epsWrap, input: epsSelect, label: epsLabel } = labelledControl('playground-eps', 'select');
  epsSelect.addEventListener('change', () => onEps(Number(epsSelect.value)));
  controls.append(stretchWrap, epsWrap);

  const inL2 = readout();
  const outL2 = readout();
  const meanSquare = readout();
  outL2.value.dataset.readout = 'output-l2';
  inL2.value.dataset.readout = 'input-l2';
  const readouts = el('dl', { className: 'readouts' });
  readouts.append(inL2.wrap, outL2.wrap, meanSquare.wrap);
  const status = el('p', { className: 'zone-text', role: 'status' });

  const figure = el('figure', { className: 'chart-figure' });
  const chartBox = el('div', { className: 'chart-box' });
  figure.append(chartBox);
  const chart = createChartFrame(chartBox, { height: 260 });
  root.append(...(question ? [question.node] : []), controls, readouts, status, figure);
  const table = createDataTable(root);

  return {
    // data: null while loading, else { stretch, eps, dim, inputL2, outputL2,
    //   meanSquare, regime: 'inside'|'above'|'belowHolds'|'belowBreaks',
    //   sweep: [{ stretch, inputL2, outputL2 }], tableRows: same shape,
    //   question: null (nothing asked) or { state: 'asking' | 'made' |
    //   'skipped', guess } }
    update(data, { t, rich }) {
      sliderLabel.textContent = t('playground.slider');
      epsLabel.textContent = t('playground.eps');
      inL2.label.textContent = t('playground.inL2');
      outL2.label.textContent = t('playground.outL2');
      meanSquare.label.textContent = t('playground.meanSquare');
      const asking = data?.question?.state === 'asking';
      if (question) {
        setHidden(question.node, !data?.question);
        if (data?.question) {
          const texts = questionTexts(data, t);
          question.update({ asking, texts, outcome: texts.outcome });
        }
      }
      setDisabled(slider, asking);
      if (!data) return;

      setOptions(
        epsSelect,
        EPS_CHOICES.map((e) => [e, powerOfTen(e)]),
        data.eps,
      );
      const position = sliderFromStretch(data.stretch);
      if (Math.abs(Number(slider.value) - position) > 1e-9) slider.value = String(position);
      const valueText = t('playground.sliderValue', { stretch: significant(data.stretch, 3, STRETCH_DIGITS) });
      valueOut.textContent = valueText;
      slider.setAttribute('aria-valuetext', valueText);

      inL2.value.textContent = significant(data.inputL2);
      outL2.value.textContent = significant(data.outputL2);
      meanSquare.value.textContent = significant(data.meanSquare);
      const regimeKey = {
        inside: 'inRange',
        above: 'outRangeHigh',
        belowHolds: 'outRangeLowHolds',
        belowBreaks: 'outRangeLowBreaks',
      }[data.regime];
      rich(status, `playground.${regimeKey}`);
      status.dataset.regime = data.regime;

      const sqrtD = Math.sqrt(data.dim);
      const ys = data.sweep.flatMap((p) => [p.inputL2, p.outputL2]);
      chart.render(
        (svg, width, height) =>
          drawLineChart(svg, width, height, {
            x: {
              type: 'log',
              domain: [data.sweep[0].stretch, data.sweep.at(-1).stretch],
              label: t('playground.axisStretch'),
            },
            y: { type: 'log', domain: [Math.min(...ys) / 1.5, Math.max(...ys) * 1.5], label: t('playground.axisL2') },
            band: { from: STRETCH_CHAPTER_MIN, to: STRETCH_CHAPTER_MAX, label: t('playground.chapterBand') },
            rules: [{ id: 'sqrt-d', value: sqrtD, label: t('playground.reference') }],
            series: [
              { id: 'input', label: t('playground.seriesIn'), points: data.sweep.map((p) => [p.stretch, p.inputL2]) },
              {
                id: 'output',
                label: t('playground.seriesOut'),
                points: data.sweep.map((p) => [p.stretch, p.outputL2]),
              },
            ],
            marker: {
              x: data.stretch,
              points: [
                { id: 'input', y: data.inputL2 },
                { id: 'output', y: data.outputL2 },
              ],
            },
          }),
        `${t('playground.chartLabel')}. ${t('playground.inL2')} ${significant(data.inputL2)}, ${t('playground.outL2')} ${significant(data.outputL2)}`,
      );

      table.update({
        summaryText: t('table.show'),
        captionText: t('playground.tableCaption'),
        columns: [t('playground.stretchCol'), t('playground.inL2'), t('playground.outL2')],
        rows: data.tableRows.map((p) => [
          `${significant(p.stretch, 3, STRETCH_DIGITS)}×`,
          significant(p.inputL2),
          significant(p.outputL2),
        ]),
      });
    },
  };
}

// The question's texts in each state, with the computed length and how far
// the guess was once the reader has guessed. The lengths at 1x and at the
// question's stretch are rows of the computed table.
function questionTexts(data, t) {
  const q = data.question;
  const at = (stretch) => data.tableRows.find((row) => row.stretch === stretch);
  const now = at(1);
  const asked = at(PLAYGROUND_QUESTION_STRETCH);
  const params = {
    stretch: decimals(PLAYGROUND_QUESTION_STRETCH, 0),
    now: significant(now.inputL2),
    input: significant(asked.inputL2),
  };
  let reveal = '';
  let outcome = null;
  if (q.state === 'skipped') reveal = t('playground.predict.skipped', params);
  else if (q.state === 'made') {
    const { verdict, factor } = guessVerdict(q.guess, asked.outputL2);
    outcome = verdict === 'close' ? 'close' : 'off';
    reveal = t('playground.predict.reveal', {
      ...params,
      output: significant(asked.outputL2),
      guess: significant(q.guess),
      verdict: t(`predict.verdict.${verdict}`, {
        factor: decimals(factor, factor >= 10 ? 0 : 1),
        percent: decimals((CLOSE_FACTOR - 1) * 100, 0),
      }),
    });
  }
  return {
    outcome,
    question: t('playground.predict.question', params),
    label: t('playground.predict.label'),
    error: t('playground.predict.invalid', { max: decimals(LENGTH_GUESS_MAX, 0) }),
    check: t('playground.predict.check'),
    skip: t('playground.predict.skip'),
    again: t('playground.predict.again'),
    reveal,
  };
}
