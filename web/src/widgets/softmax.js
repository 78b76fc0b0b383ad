// Softmax-saturation widget: six fixed scores, one per token, whose common
// scale follows the per-token magnitude (L2), in proportion (the chapter's
// widget) or with its square (queries and keys both grow). The
// probabilities, the largest one and the entropy arrive computed (by the
// wasm softmax and distributionStats); this module only draws them.
//
// On the page, a question comes first: what the top probability will be at
// a larger L2. The slider unlocks once the reader has guessed or skipped;
// the reveal gives the computed value and how far the guess was.
import { drawHorizontalBars } from '../charts/bar-chart.js';
import { createChartFrame } from '../charts/chart-frame.js';
import {
  SOFTMAX_GROWTHS,
  SOFTMAX_L2_UNIT,
  SOFTMAX_LOG2_MAX,
  SOFTMAX_LOG2_MIN,
  SOFTMAX_LOG2_STEP,
  ZONE_DRIFT_FROM,
  ZONE_SATURATED_FROM,
} from '../constants.js';
import { decimals, fixed } from '../format.js';
import { guessVerdict } from '../predictions.js';
import { createDataTable } from './data-table.js';
import { el, labelledControl, readout, setDisabled, setHidden, setText } from './dom.js';
import { createGuessQuestion } from './guess.js';

const ZONE_TEXT = { informative: 'zoneInformative', drift: 'zoneDrift', saturated: 'zoneSaturated' };

export const l2FromSlider = (position) => SOFTMAX_L2_UNIT * 2 ** position;
export const sliderFromL2 = (l2) => Math.log2(l2 / SOFTMAX_L2_UNIT);

// onMagnitude(l2) is called when the user moves the slider or resets it,
// onGrowth('linear' | 'square') when they switch how the scores grow;
// predict: { guess(p), skip(), again() } where the page asks its question
// (absent: no question).
export function createSoftmaxWidget(root, { onMagnitude, onGrowth = null, predict = null }) {
  const question = predict && createGuessQuestion('softmax-guess', (p) => p >= 0 && p <= 1, predict);
  // How the scores grow: two radio buttons, whose labels wrap on a phone.
  const growthWrap = el('fieldset', { className: 'control growth-choice' });
  const growthLabel = el('legend', { className: 'control-label' });
  growthWrap.append(growthLabel);
  const growthInputs = new Map(
    SOFTMAX_GROWTHS.map((growth) => {
      const label = el('label', { className: 'growth-option' });
      const input = el('input', {
        type: 'radio',
        name: 'softmax-growth',
        id: `softmax-growth-${growth}`,
        value: growth,
      });
      input.addEventListener('change', () => {
        if (input.checked) onGrowth?.(growth);
      });
      const text = el('span');
      label.append(input, text);
      growthWrap.append(label);
      return [growth, { input, text }];
    }),
  );
  growthWrap.hidden = !onGrowth;
  const {
    wrap: control,
    input: slider,
    label,
  } = labelledControl('softmax-l2', 'input', {
    type: 'range',
    min: SOFTMAX_LOG2_MIN,
    max: SOFTMAX_LOG2_MAX,
    step: SOFTMAX_LOG2_STEP,
  });
  // A tick at the default, where a normalized 1024-wide vector sits.
  const ticks = el('datalist', { id: 'softmax-l2-ticks' });
  const defaultTick = el('option', { value: '0' });
  ticks.append(defaultTick);
  slider.setAttribute('list', ticks.id);
  const valueOut = el('output', { className: 'control-value', htmlFor: slider.id });
  const reset = el('button', { type: 'button', className: 'button-quiet' });
  control.append(ticks, valueOut, reset);

  slider.addEventListener('input', () => onMagnitude(l2FromSlider(Number(slider.value))));
  reset.addEventListener('click', () => onMagnitude(SOFTMAX_L2_UNIT));

  const figure = el('figure', { className: 'chart-figure' });
  const chartBox = el('div', { className: 'chart-box' });
  figure.append(chartBox);
  const chart = createChartFrame(chartBox, { height: 210 });

  const top = readout();
  const entropy = readout();
  const zone = readout();
  zone.value.classList.add('zone-badge');
  const readouts = el('dl', { className: 'readouts' });
  readouts.append(top.wrap, entropy.wrap, zone.wrap);
  // Announce the zone, not every number, when it changes.
  const zoneText = el('p', { className: 'zone-text', role: 'status' });

  // What the other way of growing would give at this L2: the square mode
  // next to the chapter's, or the chapter's next to the square.
  const growthNote = el('p', { className: 'widget-note growth-note' });
  const thresholds = el('p', { className: 'widget-note' });
  const note = el('p', { className: 'widget-note synthetic-note' });
  const table = createDataTable(root);
  root.prepend(
    ...(question ? [question.node] : []),
    growthWrap,
    control,
    figure,
    readouts,
    zoneText,
    thresholds,
    growthNote,
    note,
  );

  return {
    // data: null while the kernels load, else
    // { l2, growth, scale, tokens, scores, logits, probs, maxProb, entropy,
    //   maxEntropy, zone, other: { growth, scale, maxProb } (the other way
    //   of growing at this L2), question: null (nothing asked) or { l2,
    //   scale, maxProb (computed there), base (the top probability at the
    //   default L2), state: 'asking' | 'made' | 'skipped', guess, square
    //   (the guess was made with the scores growing with L2's square) } }
    update(data, { t, rich }) {
      label.textContent = t('softmax.slider');
      reset.textContent = t('softmax.reset');
      setText(growthLabel, t('softmax.growth'));
      defaultTick.label = t('softmax.defaultMark');
      top.label.textContent = t('softmax.top');
      entropy.label.textContent = t('softmax.entropy');
      zone.label.textContent = t('softmax.zone');
      rich(thresholds, 'softmax.thresholds');
      rich(note, 'softmax.note', { scores: data?.scores.map((s) => fixed(s, 1)).join(', ') ?? '' });
      const asking = data?.question?.state === 'asking';
      if (question) {
        setHidden(question.node, !data?.question);
        if (data?.question) {
          const texts = questionTexts(data.question, t);
          question.update({ asking, texts, outcome: texts.outcome });
        }
      }
      setDisabled(slider, asking);
      if (!data) return;
      for (const [growth, { input, text }] of growthInputs) {
        setText(text, t(`softmax.growth${growth === 'square' ? 'Square' : 'Linear'}`));
        input.checked = growth === data.growth;
      }
      // At the default L2 both ways leave the scores as they are: nothing
      // to compare there.
      setHidden(growthNote, data.scale === data.other.scale);
      setText(
        growthNote,
        growthNote.hidden
          ? ''
          : t(data.growth === 'square' ? 'softmax.growthNoteSquare' : 'softmax.growthNoteLinear', {
              l2: decimals(data.l2, 1),
              scale: decimals(data.scale, 2),
              top: fixed(data.maxProb),
              otherScale: decimals(data.other.scale, 2),
              otherTop: fixed(data.other.maxProb),
            }),
      );

      const position = sliderFromL2(data.l2);
      if (Number(slider.value) !== position) slider.value = String(position);
      const valueText = t('softmax.sliderValue', { l2: decimals(data.l2, 1), scale: decimals(data.scale, 2) });
      valueOut.textContent = valueText;
      slider.setAttribute('aria-valuetext', valueText);
      setDisabled(reset, asking || data.l2 === SOFTMAX_L2_UNIT);

      const topIndex = data.probs.indexOf(Math.max(...data.probs));
      chart.render(
        (svg, width, height) =>
          drawHorizontalBars(svg, width, height, {
            domain: [0, 1],
            bars: data.tokens.map((token, i) => ({
              label: token,
              value: data.probs[i],
              text: fixed(data.probs[i]),
              highlight: i === topIndex,
            })),
            marks: [
              { value: ZONE_DRIFT_FROM, label: t('softmax.zoneDrift') },
              { value: ZONE_SATURATED_FROM, label: t('softmax.zoneSaturated') },
            ],
          }),
        `${t('softmax.chartLabel')}: ${data.tokens.map((token, i) => `${token} ${fixed(data.probs[i])}`).join(', ')}`,
      );

      top.value.textContent = fixed(data.maxProb);
      entropy.value.textContent = t('softmax.entropyUnit', {
        value: fixed(data.entropy, 2),
        max: fixed(data.maxEntropy, 2),
      });
      zone.value.textContent = t(`softmax.${ZONE_TEXT[data.zone]}`);
      zone.value.dataset.zone = data.zone;
      zoneText.textContent = t(`softmax.${ZONE_TEXT[data.zone]}Text`);

      table.update({
        summaryText: t('table.show'),
        captionText: t('softmax.tableCaption', { l2: decimals(data.l2, 1) }),
        columns: [t('softmax.token'), t('softmax.score'), t('softmax.logit'), t('softmax.probability')],
        rows: data.tokens.map((token, i) => [
          token,
          fixed(data.scores[i], 1),
          fixed(data.logits[i], 2),
          fixed(data.probs[i]),
        ]),
      });
    },
  };
}

// The question's texts in each state, with the computed value and the
// difference once the reader has guessed.
function questionTexts(q, t) {
  const params = {
    l2: decimals(q.l2, 0),
    scale: decimals(q.scale, 2),
    base: fixed(q.base),
    unit: decimals(SOFTMAX_L2_UNIT, 0),
  };
  let reveal = '';
  let outcome = null;
  if (q.state === 'skipped') reveal = t('softmax.predict.skipped', params);
  else if (q.state === 'made') {
    const difference = fixed(Math.abs(q.maxProb - q.guess));
    const exact = Number(difference) === 0;
    outcome = exact || guessVerdict(q.guess, q.maxProb).verdict === 'close' ? 'close' : 'off';
    const key = exact ? 'revealExact' : q.guess > q.maxProb ? 'revealHigh' : 'revealLow';
    reveal = t(`softmax.predict.${key}`, {
      ...params,
      value: fixed(q.maxProb),
      guess: decimals(q.guess, 3),
      difference,
    });
  }
  return {
    outcome,
    question: t('softmax.predict.question', params),
    label: t('softmax.predict.label'),
    error: t('softmax.predict.invalid'),
    check: t('softmax.predict.check'),
    skip: t('softmax.predict.skip'),
    again: t('softmax.predict.again'),
    reveal,
  };
}
