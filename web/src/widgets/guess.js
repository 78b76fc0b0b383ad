// A question asked before a widget's slider unlocks (the softmax widget, the
// playground): the reader types a number and checks it, or skips. Then the
// reveal, one sentence with the computed value and how far the guess was,
// and a button to be asked again. The widget that holds it decides what the
// question, the check and the reveal say; the answer is kept by the page
// (predictions.js), not here.
import { parseGuess } from '../predictions.js';
import { el, setAttr, setHidden, setText } from './dom.js';

// Styles a reveal by how the guess did: 'close' (within the close range),
// 'off' (too high or too low) or null (no guess to judge).
export function setOutcome(node, outcome) {
  node.classList.toggle('is-close', outcome === 'close');
  node.classList.toggle('is-off', outcome === 'off');
  if (outcome) node.dataset.outcome = outcome;
  else delete node.dataset.outcome;
}

// id: the input's id; accepts(value): whether a typed number is a fair
// answer (else the error shows); on: { guess(value), skip(), again() }
export function createGuessQuestion(id, accepts, on) {
  const node = el('div', { className: 'guess' });
  const form = el('form', { className: 'predict', noValidate: true });
  const question = el('p', { className: 'predict-question' });
  const field = el('div', { className: 'control predict-field' });
  const label = el('label', { htmlFor: id, className: 'control-label' });
  const input = el('input', { type: 'text', id, inputMode: 'decimal', autocomplete: 'off', spellcheck: false });
  field.append(label, input);
  const error = el('p', { className: 'input-error', id: `${id}-error` });
  error.hidden = true;
  const actions = el('div', { className: 'predict-actions' });
  const check = el('button', { type: 'submit', className: 'button-primary' });
  check.dataset.action = 'check';
  const skip = el('button', { type: 'button', className: 'button-quiet' });
  skip.dataset.action = 'skip';
  actions.append(check, skip);
  form.append(question, field, error, actions);

  const result = el('div', { className: 'predict-result' });
  const reveal = el('p', { className: 'predict-compare', role: 'status' });
  const again = el('button', { type: 'button', className: 'button-quiet' });
  again.dataset.action = 'again';
  result.append(reveal, again);
  node.append(form, result);

  let showError = false;
  function setError(on) {
    showError = on;
    setHidden(error, !on);
    if (on) {
      setAttr(input, 'aria-invalid', 'true');
      setAttr(input, 'aria-describedby', error.id);
    } else {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = parseGuess(input.value);
    if (value === null || !accepts(value)) {
      setError(true);
      input.focus();
      return;
    }
    setError(false);
    on.guess(value);
  });
  input.addEventListener('input', () => {
    if (showError) setError(false);
  });
  skip.addEventListener('click', () => {
    setError(false);
    on.skip();
  });
  again.addEventListener('click', () => {
    input.value = '';
    on.again();
  });

  return {
    node,
    // texts: { question, label, error, check, skip, reveal ('' for none),
    // again }; asking: the form shows (else the reveal, if any); outcome:
    // 'close' | 'off' | null (skipped), how the reveal is styled
    update({ asking, texts, outcome = null }) {
      setOutcome(result, asking ? null : outcome);
      setHidden(form, !asking);
      setText(question, texts.question);
      setText(label, texts.label);
      setText(error, texts.error);
      setText(check, texts.check);
      setText(skip, texts.skip);
      setHidden(result, asking || !texts.reveal);
      setText(reveal, asking ? '' : texts.reveal);
      setText(again, texts.again);
    },
  };
}
