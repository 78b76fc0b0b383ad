// The three-question quiz. Each question is a radio group; choosing an
// answer marks it right or wrong with that answer's own feedback and then
// the question's explanation. Answers live in the page state, so a language
// switch keeps them.
import { QUIZ_IDS } from '../state.js'
import { el } from './dom.js'

const OPTIONS = ['a', 'b', 'c']
// The chapter's correct answers.
const CORRECT = { q1: 'b', q2: 'c', q3: 'b' }

// onAnswer(questionId, option)
export function createQuiz(root, { onAnswer }) {
  const questions = QUIZ_IDS.map((id, index) => {
    const fieldset = el('fieldset', { className: 'quiz-question' })
    fieldset.dataset.question = id
    const legend = el('legend')
    const number = el('span', { className: 'quiz-number', textContent: `${index + 1}` })
    const prompt = el('span')
    legend.append(number, prompt)
    fieldset.append(legend)
    const options = OPTIONS.map((option) => {
      const label = el('label', { className: 'quiz-option' })
      label.dataset.option = option
      const input = el('input', { type: 'radio', name: `quiz-${id}`, value: option })
      const text = el('span', { className: 'quiz-option-text' })
      const verdict = el('span', { className: 'quiz-verdict' })
      label.append(input, text, verdict)
      input.addEventListener('change', () => onAnswer(id, option))
      fieldset.append(label)
      return { option, label, input, text, verdict }
    })
    const feedback = el('div', { className: 'quiz-feedback', role: 'status' })
    fieldset.append(feedback)
    root.append(fieldset)
    return { id, prompt, options, feedback }
  })

  return {
    // answers: { q1: 'a' | 'b' | 'c' | null, ... }
    update(answers, { t }) {
      for (const q of questions) {
        q.prompt.textContent = t(`quiz.${q.id}.question`)
        const chosen = answers[q.id]
        for (const o of q.options) {
          o.text.textContent = t(`quiz.${q.id}.${o.option}`)
          o.input.checked = o.option === chosen
          const mark = o.option !== chosen ? null : o.option === CORRECT[q.id] ? 'correct' : 'wrong'
          if (mark) o.label.dataset.mark = mark
          else delete o.label.dataset.mark
          o.verdict.textContent = mark ? t(`quiz.${mark}`) : ''
        }
        q.feedback.replaceChildren()
        if (!chosen) continue
        const verdict = el('p', { className: 'quiz-why' })
        verdict.append(el('strong', { textContent: `${t(chosen === CORRECT[q.id] ? 'quiz.correct' : 'quiz.wrong')} ` }), t(`quiz.${q.id}.${chosen}Why`))
        const explanation = el('p', { className: 'quiz-explanation' })
        explanation.append(el('strong', { textContent: `${t('quiz.explanation')} ` }), t(`quiz.${q.id}.explanation`))
        q.feedback.dataset.mark = chosen === CORRECT[q.id] ? 'correct' : 'wrong'
        q.feedback.append(verdict, explanation)
      }
    },
  }
}
