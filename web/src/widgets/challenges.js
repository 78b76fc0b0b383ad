// The calculator's challenges (web/src/challenges.js decides what each one
// shows): a list of five, each a task to do with the calculator's vector or
// a question to answer, and feedback built from the kernels' results on the
// student's own vector, with the demo panel's figures where a challenge
// points to them.
import { CHALLENGE_IDS, CHALLENGE_QUESTIONS, CHALLENGE_TASKS, SHIFT_BY, doneCount } from '../challenges.js';
import { decimals, significant, vectorText } from '../format.js';
import { el, setText } from './dom.js';

// std and RMS of the model's norm inputs this close (relative) count as
// equal in the text: the mean changes nothing worth a digit there.
const GAP_SMALL = 0.01;

// on: { flat(), shift(), center(), answer(id, option) }
export function createChallenges(root, on) {
  const progress = el('p', { className: 'challenge-progress', role: 'status' });
  const list = el('ol', { className: 'challenge-list' });
  root.append(progress, list);

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
        action.addEventListener('click', () => on[{ flat: 'flat', shift: 'shift', zero: 'center' }[id]]());
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
    // data: { items (createChallengeModel's), section, facts: the demo
    //   panel's figures (model-facts.js challengeFacts) | null, loaded }
    update({ items: shown, section, facts, loaded }, { t }) {
      setText(progress, t('challenges.progress', { done: doneCount(section), total: CHALLENGE_IDS.length }));
      for (const id of CHALLENGE_IDS) {
        const parts = items[id];
        const data = shown?.[id] ?? { done: false };
        parts.item.dataset.done = String(data.done);
        setText(parts.titleText, t(`challenges.${id}.title`));
        setText(parts.badge, data.done ? t('challenges.done') : '');
        setText(parts.task, t(`challenges.${id}.task`, { by: SHIFT_BY }));
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
        parts.feedback.replaceChildren(...feedback(id, data, facts, t));
        parts.feedback.hidden = parts.feedback.childElementCount === 0;
      }
    },
  };
}

const para = (text, className) => el('p', { textContent: text, ...(className ? { className } : {}) });

// The lead-in that says which vector the numbers are of.
function lead(source, x, t) {
  return t(`challenges.source.${source}`, { x: vectorText(x) });
}

function feedback(id, data, facts, t) {
  if (id === 'unit' || id === 'size') {
    if (!data.pick || !data.evidence) return [];
    const verdict = t(data.right ? 'challenges.right' : 'challenges.notQuite');
    return id === 'unit' ? unitFeedback(data.evidence, verdict, t) : sizeFeedback(data.evidence, verdict, facts, t);
  }
  const e = data.evidence;
  if (!e) return [];
  if (id === 'flat') {
    return [
      para(
        t('challenges.flat.result', {
          lead: lead(data.source, e.x, t),
          lnY: vectorText(e.ln.y),
          rmsY: vectorText(e.rms.y),
        }),
      ),
      para(
        t('challenges.flat.why', {
          mean: decimals(e.ln.mean, 3),
          std: decimals(e.ln.std, 3),
          rms: decimals(e.rms.rms, 3),
        }),
      ),
    ];
  }
  if (id === 'shift') {
    return [
      para(
        t('challenges.shift.result', {
          lead: lead(data.source, e.after.x, t),
          c: decimals(e.c, 3),
          before: vectorText(e.before.x),
          lnBefore: vectorText(e.before.ln.y),
          lnAfter: vectorText(e.after.ln.y),
          lnChange: significant(e.lnChange, 2),
          rmsBefore: vectorText(e.before.rms.y),
          rmsAfter: vectorText(e.after.rms.y),
          rmsChange: significant(e.rmsChange, 2),
        }),
      ),
      para(
        t('challenges.shift.why', {
          c: decimals(e.c, 3),
          rmsBefore: decimals(e.before.rms.rms, 3),
          rmsAfter: decimals(e.after.rms.rms, 3),
        }),
      ),
    ];
  }
  // zero
  const nodes = [
    para(
      t('challenges.zero.result', {
        lead: lead(data.source, e.x, t),
        mean: decimals(e.ln.mean, 3),
        std: decimals(e.ln.std, 3),
        rms: decimals(e.rms.rms, 3),
        lnY: vectorText(e.ln.y),
        rmsY: vectorText(e.rms.y),
      }),
    ),
    para(t('challenges.zero.why')),
  ];
  if (facts && facts.norm !== 'none') {
    const gap = significant(facts.largestGap * 100, 2);
    nodes.push(
      para(
        t(facts.largestGap < GAP_SMALL ? 'challenges.zero.model' : 'challenges.zero.modelFar', {
          depth: facts.depth,
          gap,
          norm: t(`model.short.${facts.norm}`),
        }),
      ),
    );
  }
  return nodes;
}

function unitFeedback(r, verdict, t) {
  const d = r.x.length;
  if (!(r.xL2 > 0)) return [para(t('challenges.unit.zero', { verdict }))];
  const nodes = [
    para(
      t('challenges.unit.result', {
        verdict,
        x: vectorText(r.x),
        d,
        meanSquare: decimals(r.yMeanSquare, 3),
        sum: decimals(r.yMeanSquare * d, 3),
        l2: decimals(r.rmsL2, 3),
        sqrtD: decimals(Math.sqrt(d), 3),
      }),
    ),
  ];
  nodes.push(para(t(d === 1 ? 'challenges.unit.whyOne' : 'challenges.unit.why')));
  return nodes;
}

function sizeFeedback(r, verdict, facts, t) {
  const d = r.x.length;
  // Lengths within a printed digit of each other count as kept.
  const change =
    Math.abs(r.rmsL2 - r.xL2) <= 5e-4 * Math.max(r.xL2, r.rmsL2) ? 'same' : r.rmsL2 > r.xL2 ? 'larger' : 'smaller';
  const nodes = [
    para(
      t(`challenges.size.${change}`, {
        verdict,
        x: vectorText(r.x),
        before: decimals(r.xL2, 3),
        after: decimals(r.rmsL2, 3),
        d,
        sqrtD: decimals(Math.sqrt(d), 3),
      }),
    ),
  ];
  if (!facts) nodes.push(para(t('challenges.size.pending')));
  else if (facts.norm === 'none') nodes.push(para(t('challenges.size.noNorm')));
  else {
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
    nodes.push(model);
  }
  nodes.push(para(t('challenges.size.why')));
  return nodes;
}
