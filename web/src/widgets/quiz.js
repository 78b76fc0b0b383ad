// The quiz (quiz-answers.js lists its questions). Each question is a radio group. A right pick
// opens the explanation; a first wrong pick gets only a hint about that
// option, and the explanation waits for a second wrong pick or a "Show why".
// The score counts the questions answered right on the first try. The
// answers are the student's own: they live in the learner store's 'quiz'
// section (quiz-answers.js has the format), so they survive a reload and a
// language switch and never reach a shared link.
import { QUIZ_IDS, QUIZ_KEY, QUIZ_OPTIONS, questionView, quizScore } from '../quiz-answers.js';
import { el, setText } from './dom.js';

// on: { pick(questionId, option), showWhy(questionId), reset() }
export function createQuiz(root, on) {
  const questions = QUIZ_IDS.map((id, index) => {
    const fieldset = el('fieldset', { className: 'quiz-question' });
    fieldset.dataset.question = id;
    const legend = el('legend');
    const number = el('span', { className: 'quiz-number', textContent: `${index + 1}` });
    const prompt = el('span');
    legend.append(number, prompt);
    fieldset.append(legend);
    const options = QUIZ_OPTIONS.map((option) => {
      const label = el('label', { className: 'quiz-option' });
      label.dataset.option = option;
      const input = el('input', { type: 'radio', name: `quiz-${id}`, value: option });
      const text = el('span', { className: 'quiz-option-text' });
      const verdict = el('span', { className: 'quiz-verdict' });
      label.append(input, text, verdict);
      input.addEventListener('change', () => {
        if (input.checked) on.pick(id, option);
      });
      fieldset.append(label);
      return { option, label, input, text, verdict };
    });
    // Announced when it changes: the verdict, then the hint or the explanation.
    const feedback = el('div', { className: 'quiz-feedback', role: 'status' });
    const verdictLine = el('p', { className: 'quiz-verdict-line' });
    const hint = el('p', { className: 'quiz-hint' });
    const hintText = el('span');
    const why = el('button', { type: 'button', className: 'button-quiet quiz-why' });
    why.addEventListener('click', () => on.showWhy(id));
    hint.append(hintText, ' ', why);
    const explanation = el('p', { className: 'quiz-explanation' });
    const explanationLead = el('strong');
    const explanationText = el('span');
    explanation.append(explanationLead, explanationText);
    feedback.append(verdictLine, hint, explanation);
    fieldset.append(feedback);
    root.append(fieldset);
    return {
      id,
      fieldset,
      prompt,
      options,
      feedback,
      verdictLine,
      hint,
      hintText,
      why,
      explanation,
      explanationLead,
      explanationText,
    };
  });

  const summary = el('div', { className: 'quiz-summary' });
  const score = el('p', { className: 'quiz-score', role: 'status' });
  const reset = el('button', { type: 'button', className: 'quiz-reset' });
  reset.addEventListener('click', () => on.reset());
  const kept = el('p', { className: 'widget-note quiz-kept' });
  summary.append(score, reset, kept);
  root.append(summary);

  return {
    // section: the learner store's 'quiz' section ({} when nothing is
    // answered); params: an explanation's parameters by question id.
    update(section, { t }, params = {}) {
      for (const q of questions) paintQuestion(q, questionView(section, q.id), t, params[q.id]);
      const { answered, firstTry, total } = quizScore(section);
      root.dataset.answered = String(answered);
      setText(score, answered === 0 ? t('quiz.scoreNone', { total }) : t('quiz.score', { firstTry, answered, total }));
      score.dataset.firstTry = String(firstTry);
      setText(reset, t('quiz.tryAgain'));
      reset.disabled = answered === 0;
      setText(kept, t('quiz.kept'));
    },
  };
}

function paintQuestion(q, view, t, params) {
  setText(q.prompt, t(`quiz.${q.id}.question`));
  for (const o of q.options) {
    setText(o.text, t(`quiz.${q.id}.${o.option}`));
    o.input.checked = o.option === view.chosen;
    const mark = o.option === view.chosen ? view.mark : view.revealKey && o.option === QUIZ_KEY[q.id] ? 'answer' : null;
    if (mark) o.label.dataset.mark = mark;
    else delete o.label.dataset.mark;
    setText(o.verdict, mark ? t(`quiz.mark.${mark}`) : '');
  }
  q.fieldset.dataset.state = view.chosen === null ? 'open' : view.explained ? 'explained' : 'hinted';
  q.feedback.hidden = view.chosen === null;
  if (view.chosen === null) {
    delete q.feedback.dataset.mark;
    return;
  }
  q.feedback.dataset.mark = view.mark;
  const right = view.mark === 'correct';
  setText(
    q.verdictLine,
    right
      ? t(view.firstTryRight ? 'quiz.rightFirst' : 'quiz.rightLater')
      : view.explained
        ? t('quiz.wrongShown')
        : t('quiz.wrong'),
  );
  // A first wrong pick: a hint about that option, and the way to the
  // explanation; nothing that names the right option.
  q.hint.hidden = right || view.explained;
  setText(
    q.hintText,
    q.hint.hidden
      ? ''
      : t('quiz.hintLine', { hint: t(`quiz.${q.id}.${view.chosen}Hint`), tryAnother: t('quiz.tryAnother') }),
  );
  setText(q.why, t('quiz.showWhy'));
  q.explanation.hidden = !view.explained;
  setText(q.explanationLead, t('quiz.why'));
  setText(q.explanationText, view.explained ? t(`quiz.${q.id}.explanation`, params) : '');
}
