// The walk's widget: first the reader's prediction (where the layer chart's
// two curves end), then the walk's controls and progress, a compact copy of
// the forward-pass strip with the walk's stage, what the model measured at
// that stage, and at the end the prediction against the result in one
// sentence. The walk and the prediction live in the demo controller
// (demo-controller.js, autorun.js); the numbers come from the forward view.
import { decimals, significant } from '../format.js';
import {
  CLOSE_FACTOR,
  CURVE_GUESS_MAX,
  CURVE_GUESS_MIN,
  CURVE_GUESS_STEP_LOG10,
  curveGuessFromSlider,
  sliderFromCurveGuess,
} from '../predictions.js';
import { settingsText } from '../settings-text.js';
import { el, labelledControl, setAttr, setDisabled, setHidden, setText } from './dom.js';
import { createForwardStrip } from './forward-strip.js';
import { setOutcome } from './guess.js';

// A byte token as text: printable ASCII as itself, anything else as hex.
export function byteLabel(id) {
  return id >= 0x21 && id <= 0x7e
    ? `“${String.fromCharCode(id)}”`
    : id === 0x20
      ? '“␠”'
      : `0x${id.toString(16).padStart(2, '0')}`;
}

// A guessed length as the prediction inputs show it: whole numbers from 100
// up, one decimal from 10, two below.
export const guessText = (v) => decimals(v, v >= 100 ? 0 : v >= 10 ? 1 : 2);

// "Close" as the reader reads it: within this many percent.
const CLOSE_PERCENT = decimals((CLOSE_FACTOR - 1) * 100, 0);

// How many times too high or too low a guess was.
export const factorText = (f) => decimals(f, f >= 10 ? 0 : 1);

// on: { play(), pause(), resume(), next(), finish(), predictMove(which,
// value), commit(), skip(), again() }
export function createAutorunWidget(root, on) {
  // The prediction, before the walk.
  const predict = el('div', { className: 'predict' });
  const question = el('p', { className: 'predict-question' });
  const inputs = {};
  for (const [which, id] of [
    ['r', 'predict-residual'],
    ['n', 'predict-norm'],
  ]) {
    const { wrap, input, label } = labelledControl(id, 'input', {
      type: 'range',
      min: Math.log10(CURVE_GUESS_MIN),
      max: Math.log10(CURVE_GUESS_MAX),
      step: CURVE_GUESS_STEP_LOG10,
    });
    wrap.classList.add('predict-field');
    const output = el('output', { className: 'control-value', htmlFor: id });
    wrap.append(output);
    input.addEventListener('input', () => on.predictMove(which, curveGuessFromSlider(Number(input.value))));
    inputs[which] = { wrap, input, label, output };
  }
  const predictActions = el('div', { className: 'predict-actions' });
  const commit = el('button', { type: 'button', id: 'predict-commit', className: 'button-primary' });
  const skip = el('button', { type: 'button', id: 'predict-skip', className: 'button-quiet' });
  commit.addEventListener('click', () => on.commit());
  skip.addEventListener('click', () => on.skip());
  predictActions.append(commit, skip);
  predict.append(question, inputs.r.wrap, inputs.n.wrap, predictActions);

  // The walk.
  const buttons = el('div', { className: 'button-row' });
  const play = el('button', { type: 'button', id: 'autorun-play' });
  const pause = el('button', { type: 'button', id: 'autorun-pause', className: 'button-quiet' });
  const next = el('button', { type: 'button', id: 'autorun-next', className: 'button-quiet' });
  const finish = el('button', { type: 'button', id: 'autorun-finish', className: 'button-quiet' });
  play.addEventListener('click', () => on.play());
  pause.addEventListener('click', () => (pause.dataset.action === 'resume' ? on.resume() : on.pause()));
  next.addEventListener('click', () => on.next());
  finish.addEventListener('click', () => on.finish());
  const progress = el('progress', { id: 'autorun-progress', max: 1, value: 0 });
  const progressLabel = el('label', { htmlFor: progress.id, className: 'control-label' });
  const progressWrap = el('div', { className: 'autorun-progress' });
  progressWrap.append(progressLabel, progress);
  buttons.append(play, pause, next, finish, progressWrap);
  const stripBox = el('div', { className: 'autorun-strip' });
  const strip = createForwardStrip(stripBox, { compact: true });
  // What the walk shows at each step: read, not announced (a screen reader
  // reads it on request; the start and the end are announced).
  const where = el('p', { className: 'autorun-where' });
  const status = el('p', { className: 'autorun-status', role: 'status' });

  // The prediction against the result.
  const result = el('div', { className: 'predict-result' });
  const compare = el('p', { className: 'predict-compare', role: 'status' });
  const again = el('button', { type: 'button', id: 'predict-again', className: 'button-quiet' });
  again.addEventListener('click', () => on.again());
  result.append(compare, again);
  // The sentence comes first, right under the chart it describes (or beside
  // it on a wide screen: walk.css), then the stage it names, the buttons
  // below them.
  root.append(predict, where, stripBox, buttons, status, result);

  return {
    // data: the demo controller's walk view ({ status, manual, step, steps,
    //   stage, from, to, layer, prediction, comparison }) and { depth,
    //   reducedMotion, view: forward view | null }
    update(data, { t }) {
      const running = data.status === 'running';
      const paused = data.status === 'paused';
      const walking = running || paused;
      const prediction = data.prediction;
      const asking = prediction.state === 'asking';
      root.dataset.status = data.status;
      root.dataset.prediction = prediction.state;

      // The prediction.
      setHidden(predict, !asking || !data.view);
      if (asking && data.view) {
        const norm = t(`model.short.${data.view.config.norm}`);
        const last = data.view.layers - 1;
        setText(
          question,
          t(data.status === 'waiting' ? 'autorun.predict.question' : 'autorun.predict.questionAtOnce', {
            start: significant(data.view.residualL2[0]),
            last,
            norm,
          }),
        );
        const hasNorm = data.view.config.norm !== 'none';
        setHidden(inputs.n.wrap, !hasNorm);
        for (const [which, labelKey] of [
          ['r', 'autorun.predict.residual'],
          ['n', 'autorun.predict.norm'],
        ]) {
          const { input, label, output } = inputs[which];
          const value = prediction.markers[which];
          setText(label, t(labelKey, { last, norm }));
          const position = sliderFromCurveGuess(value);
          if (Math.abs(Number(input.value) - position) > 1e-9) input.value = String(position);
          const text = t('autorun.predict.value', { value: guessText(value) });
          setText(output, text);
          setAttr(input, 'aria-valuetext', text);
        }
        setText(commit, t('autorun.predict.commit'));
        setText(skip, t('autorun.predict.skip'));
      }

      // The walk's controls.
      setText(play, t(data.status === 'waiting' || data.status === 'off' ? 'autorun.play' : 'autorun.replay'));
      setText(pause, t(paused && !data.manual ? 'autorun.resume' : 'autorun.pause'));
      pause.dataset.action = paused ? 'resume' : 'pause';
      setDisabled(pause, !(running || (paused && !data.manual)));
      setHidden(pause, data.manual);
      setText(next, t('autorun.next'));
      setDisabled(next, !paused);
      setText(finish, t('autorun.finish'));
      setDisabled(finish, !walking);
      setText(progressLabel, t('autorun.progress'));
      const walked = data.status === 'done' ? data.steps : walking ? data.step + 1 : 0;
      progress.max = data.steps;
      progress.value = walked;
      setAttr(progress, 'aria-valuetext', t('autorun.progressValue', { step: walked, steps: data.steps }));

      strip.update({ t, layers: data.depth });
      strip.setStage(
        walking ? data.stage : null,
        walking && data.stage === 'layers' ? { from: data.from, to: data.to } : null,
      );
      setHidden(stripBox, !walking);
      setText(where, walking ? describe(data, t) : '');
      setHidden(where, !walking);
      let statusKey = {
        waiting: 'autorun.waiting',
        off: data.reducedMotion ? 'autorun.reduced' : 'autorun.off',
        running: 'autorun.running',
        paused: data.manual ? 'autorun.stepping' : 'autorun.paused',
        done: 'autorun.done',
      }[data.status];
      if (asking && data.status === 'waiting') statusKey = 'autorun.waitingPrediction';
      setText(status, t(statusKey, { depth: data.depth }));

      // The prediction against the result.
      const sentence = walking || asking || data.status === 'waiting' ? '' : resultText(data, t);
      setHidden(result, !sentence);
      setText(compare, sentence);
      // Close on every curve compared: a success; any curve off: not.
      const c = sentence ? data.comparison : null;
      setOutcome(result, !c ? null : [c.residual, c.norm].every((v) => !v || v.verdict === 'close') ? 'close' : 'off');
      setText(
        again,
        t(prediction.state === 'made' && prediction.matches ? 'autorun.predict.again' : 'autorun.predict.start'),
      );
    },
  };
}

// The one sentence after the walk: the prediction against what the model
// computed, or why there is none to compare.
function resultText({ prediction, comparison, view }, t) {
  if (!prediction.offered || !view) return '';
  if (prediction.state === 'skipped') return t('autorun.predict.skipped');
  if (prediction.state === 'none') return '';
  if (!prediction.matches) {
    return t('autorun.predict.otherSettings', { settings: settingsText(prediction.madeFor, t) });
  }
  if (!comparison) return '';
  const verdict = (c) =>
    t(`autorun.predict.verdict.${c.verdict}`, { factor: factorText(c.factor), percent: CLOSE_PERCENT });
  const params = {
    last: comparison.last,
    residualGuess: guessText(comparison.residual.guess),
    residual: significant(comparison.residual.measured),
    residualVerdict: verdict(comparison.residual),
    norm: t(`model.short.${view.config.norm}`),
  };
  if (!comparison.norm) return t('autorun.predict.compareNone', params);
  return t('autorun.predict.compare', {
    ...params,
    normGuess: guessText(comparison.norm.guess),
    normValue: significant(comparison.norm.measured),
    normVerdict: verdict(comparison.norm),
  });
}

function describe({ stage, from, to, depth, view }, t) {
  if (!view) return t('model.pending');
  const norm = t(`model.short.${view.config.norm}`);
  const stream = (l) => significant(view.residualL2[l]);
  const out = (l) => significant(view.probes['inputNorm.out'].l2[l]);
  switch (stage) {
    case 'tokenize':
      return t('autorun.stage.tokenize', { tokens: view.tokens });
    case 'embed':
      return t('autorun.stage.embed', { hidden: view.hidden, l2: stream(0) });
    case 'layers': {
      const outs = view.probes['inputNorm.out'].l2.slice(from, to + 1);
      const params = {
        from,
        to,
        last: depth - 1,
        norm,
        inFrom: stream(from),
        inTo: stream(to),
        outFrom: out(from),
        outTo: out(to),
        lo: significant(Math.min(...outs)),
        hi: significant(Math.max(...outs)),
      };
      if (view.config.norm === 'none')
        return t(from === to ? 'autorun.stage.layerNone' : 'autorun.stage.layersNone', params);
      const key = view.config.placement === 'post' ? 'layersPost' : 'layers';
      return t(`autorun.stage.${from === to ? key.replace('layers', 'layer') : key}`, params);
    }
    case 'finalNorm':
      if (view.config.norm === 'none')
        return t('autorun.stage.finalNormNone', { in: significant(view.final['finalNorm.in'].l2) });
      return t('autorun.stage.finalNorm', {
        norm,
        in: significant(view.final['finalNorm.in'].l2),
        out: significant(view.final['finalNorm.out'].l2),
      });
    case 'head':
      return t('autorun.stage.head');
    default:
      return t('autorun.stage.sample', {
        token: byteLabel(view.next.tokens[0]),
        prob: significant(view.next.probs[0], 2),
      });
  }
}
