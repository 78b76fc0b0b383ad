// Checkboxes or radio buttons, one per id, each in a <label>; returns the
// inputs by id (their text is set on paint).
import { el } from '../widgets/dom.js';

export function choiceBoxes(container, name, type, ids) {
  const inputs = {};
  for (const id of ids) {
    const input = el('input', { type, name, value: id, id: `${name}-${id}` });
    const label = el('label', { htmlFor: input.id, className: 'lab-choice-label' });
    const wrap = el('div', { className: 'lab-choice' });
    wrap.append(input, label);
    container.append(wrap);
    inputs[id] = input;
  }
  return inputs;
}
