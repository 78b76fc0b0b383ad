// The hands-on exercise: compare layer 0 with layer 22 in the demo panel,
// then open a model answer built from the demo panel's own figures
// (model-facts.js exerciseFacts), so its numbers are the ones the breakdown
// and the layer chart show. The task, the question and the answer follow the
// panel's settings: pre-norm (the input grows, the output stays near √d),
// post-norm (the stream itself is renormalized after every sub-block, so
// only layer 0's embedding is far from √d) or no norm. Whether the answer is
// open is the student's own state (the learner store's 'exercise' section).
import { EXERCISE_LAYERS } from '../constants.js';
import { decimals, significant } from '../format.js';
import { el, setAttr, setDisabled, setHidden, setText } from './dom.js';
import { boxLabel } from './layer-breakdown.js';

const ANSWER_ID = 'exercise-answer';

// True when value is a well-formed 'exercise' section: { r: 1 } (the answer
// is open).
export function isExerciseSection(value) {
  return typeof value === 'object' && value !== null && value.r === 1;
}

// on: { reveal(open) }
export function createExercise(root, on) {
  const task = el('p', { className: 'exercise-task' });
  const question = el('p', { className: 'exercise-question' });
  const think = el('p', { className: 'widget-note' });
  const reveal = el('button', {
    type: 'button',
    id: 'exercise-reveal',
    ariaControls: ANSWER_ID,
    ariaExpanded: 'false',
  });
  reveal.addEventListener('click', () => on.reveal(reveal.getAttribute('aria-expanded') !== 'true'));
  const answer = el('div', { className: 'exercise-answer', id: ANSWER_ID });
  answer.hidden = true;
  const heading = el('h3', { className: 'exercise-answer-title' });
  const figures = el('ul', { className: 'exercise-figures' });
  const reading = el('p', { className: 'exercise-reading' });
  const model = el('p', { className: 'exercise-model' });
  answer.append(heading, figures, reading, model);
  const pending = el('p', { className: 'slot-pending' });
  root.append(task, question, think, reveal, pending, answer);

  return {
    // facts: exerciseFacts(view) | null; open: the learner store says so
    update({ facts, open }, { t }) {
      const [first, second] = EXERCISE_LAYERS;
      setHidden(pending, Boolean(facts));
      setText(pending, t('model.pending'));
      const kind = !facts ? 'pre' : facts.norm === 'none' ? 'none' : facts.placement;
      const reachable = Boolean(facts) && facts.layers.length === EXERCISE_LAYERS.length;
      const norm = t(`model.short.${facts?.norm ?? 'rmsnorm'}`);
      const names = {
        first,
        second,
        needed: second + 1,
        boxIn: boxLabel(t, kind, 'inputNormIn', norm),
        boxOut: boxLabel(t, kind, 'inputNormOut', norm),
        series: t('layerChart.seriesResidual'),
        sqrtD: facts ? decimals(facts.sqrtD, 2) : '',
      };
      root.dataset.kind = kind;
      setText(task, t(reachable || !facts ? `exercise.task.${kind}` : 'exercise.task.shallow', names));
      setText(question, reachable || !facts ? t(`exercise.question.${kind}`, names) : '');
      setHidden(question, !(reachable || !facts));
      setText(think, t('exercise.think'));

      setDisabled(reveal, !reachable);
      const shown = open && reachable;
      setText(reveal, t(shown ? 'exercise.hide' : 'exercise.show'));
      setAttr(reveal, 'aria-expanded', String(shown));
      setHidden(answer, !shown);
      if (!shown) return;
      const [a, b] = facts.layers;
      const figure = (layer) => ({
        layer: layer.layer,
        residual: significant(layer.residual),
        in: layer.in === null ? '' : significant(layer.in),
        out: layer.out === null ? '' : significant(layer.out),
      });
      setText(heading, t('exercise.answerTitle'));
      figures.replaceChildren(
        ...[a, b].map((layer) => {
          const li = el('li', { textContent: t(`exercise.figures.${kind}`, { ...names, ...figure(layer) }) });
          li.dataset.layer = String(layer.layer);
          return li;
        }),
      );
      const params = {
        ...names,
        res0: significant(a.residual),
        res1: significant(b.residual),
        in0: kind === 'none' ? '' : significant(a.in),
        in1: kind === 'none' ? '' : significant(b.in),
        out0: kind === 'none' ? '' : significant(a.out),
        out1: kind === 'none' ? '' : significant(b.out),
        ratio: significant(kind === 'none' ? b.residual / a.residual : b.in / a.in, 2),
        lo: facts.later ? significant(facts.later.lo) : '',
        hi: facts.later ? significant(facts.later.hi) : '',
      };
      setText(reading, t(`exercise.reading.${kind}`, params));
      setText(model, t(`exercise.model.${kind}`, params));
    },
  };
}
