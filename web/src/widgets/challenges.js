// The calculator's challenges (web/src/challenge-machine.js decides what
// each one shows): a list of five, each a task to do with the calculator's
// vector or a question to answer, its feedback the machine's sentences, with
// the demo panel's figures where a challenge points to them.
import {
  CHALLENGE_IDS,
  CHALLENGE_QUESTIONS,
  CHALLENGE_TASKS,
  SHIFT_BY,
  TASK_BUTTONS,
  doneCount,
} from '../challenges.js';
import { sentenceText } from '../challenge-text.js';
import { decimals, significant } from '../format.js';
import { el, setText } from './dom.js';

// std and RMS of the model's norm inputs this close (relative) count as
// equal in the text: the mean changes nothing worth a digit there.
const GAP_SMALL = 0.01;

// on: { press(button): a task's button ('flat', 'shift', 'center'),
//   answer(id, option) }
export function createChallenges(root, on) {
  const progress = el('p', { className: 'challenge-progress', role: 'status' });
  // When a vector counts for the tasks (eps negligible next to its RMS).
  const rule = el('p', { className: 'challenge-rule' });
  const list = el('ol', { className: 'challenge-list' });
  root.append(progress, rule, list);

  const items = Object.fromEntries(
    CHALLENGE_IDS.map((id) => {
      const item = el('li', { className: 'challenge' });
      item.dataset.challenge = id;
      const title = el('h4', { className: 'challenge-title' });
      const titleText = el('span');
      const badge = el('span', { className: 'challenge-badge' });
      title.append(titleText, ' ', badge);
      const task = el('p', { className: 'challenge-task', id: `challenge-${id}-task` });
      item.append(title, task);
      const parts = { item, titleText, badge, task };
      if (CHALLENGE_TASKS.includes(id)) {
        const action = el('button', { type: 'button', className: 'button-quiet challenge-action' });
        action.addEventListener('click', () => on.press(TASK_BUTTONS[id]));
        const row = el('div', { className: 'button-row' });
        row.append(action);
        item.append(row);
        parts.action = action;
      } else {
        // Named by the task's text, which asks the question.
        const fieldset = el('fieldset', { className: 'challenge-question', ariaLabelledby: task.id });
        parts.options = CHALLENGE_QUESTIONS[id].options.map((option) => {
          const label = el('label', { className: 'challenge-option' });
          label.dataset.option = option;
          const input = el('input', { type: 'radio', name: `challenge-${id}`, value: option });
          input.addEventListener('change', () => {
            if (input.checked) on.answer(id, option);
          });
          const text = el('span');
          label.append(input, text);
          fieldset.append(label);
          return { option, label, input, text };
        });
        item.append(fieldset);
      }
      // Not a live region: the question and the vector-based feedback change
      // with every keystroke in the calculator; the progress line announces.
      const feedback = el('div', { className: 'challenge-feedback' });
      item.append(feedback);
      parts.feedback = feedback;
      list.append(item);
      return [id, parts];
    }),
  );

  return {
    // data: { items (challenge-machine.js challengeView), section, facts:
    //   the demo panel's figures (model-facts.js challengeFacts) | null,
    //   loaded, least: the smallest RMS a task counts with (100·√eps) }
    update({ items: shown, section, facts, loaded, least }, { t }) {
      setText(progress, t('challenges.progress', { done: doneCount(section), total: CHALLENGE_IDS.length }));
      setText(rule, t('challenges.rule', { least: decimals(least, 3) }));
      for (const id of CHALLENGE_IDS) {
        const parts = items[id];
        const data = shown?.[id] ?? { done: false };
        parts.item.dataset.done = String(data.done);
        setText(parts.titleText, t(`challenges.${id}.title`));
        setText(parts.badge, data.done ? t('challenges.done') : '');
        setText(parts.task, t(`challenges.${id}.task`, { by: SHIFT_BY, least: decimals(least, 3) }));
        if (parts.action) {
          setText(parts.action, t(`challenges.${id}.action`, { by: SHIFT_BY }));
          parts.action.disabled = !loaded;
        } else {
          for (const o of parts.options) {
            setText(o.text, t(`challenges.${id}.${o.option}`));
            o.input.checked = o.option === data.pick;
            if (o.option === data.pick) o.label.dataset.mark = data.right ? 'correct' : 'wrong';
            else delete o.label.dataset.mark;
          }
        }
        parts.feedback.replaceChildren(...feedback(data, facts, t));
        parts.feedback.hidden = parts.feedback.childElementCount === 0;
      }
    },
  };
}

const para = (text) => el('p', { textContent: text });

// The machine's sentences, then (where it says so) the demo panel's figures,
// then the closing rule.
function feedback(data, facts, t) {
  const nodes = (data.sentences ?? []).map((s) => para(sentenceText(s, t)));
  if (data.modelFacts) nodes.push(...(data.id === 'size' ? sizeModel(facts, t) : zeroModel(facts, t)));
  nodes.push(...(data.closing ?? []).map((s) => para(sentenceText(s, t))));
  return nodes;
}

function zeroModel(facts, t) {
  if (!facts || facts.norm === 'none') return [];
  const gap = significant(facts.largestGap * 100, 2);
  return [
    para(
      t(facts.largestGap < GAP_SMALL ? 'challenges.zero.model' : 'challenges.zero.modelFar', {
        depth: facts.depth,
        gap,
        norm: t(`model.short.${facts.norm}`),
      }),
    ),
  ];
}

function sizeModel(facts, t) {
  if (!facts) return [para(t('challenges.size.pending'))];
  if (facts.norm === 'none') return [para(t('challenges.size.noNorm'))];
  const model = para(
    t('challenges.size.model', {
      norm: t(`model.short.${facts.norm}`),
      placement: t(`model.placement${facts.placement === 'post' ? 'Post' : 'Pre'}`),
      in0: significant(facts.first.in),
      out0: significant(facts.first.out),
      ratio0: significant(facts.first.out / facts.first.in, 2),
      last: facts.last.layer,
      inLast: significant(facts.last.in),
      outLast: significant(facts.last.out),
      ratioLast: significant(facts.last.out / facts.last.in, 2),
    }),
  );
  model.append(' ', el('a', { href: '#demo-breakdown', textContent: t('challenges.size.link') }));
  return [model];
}
