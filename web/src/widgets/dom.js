// Small DOM builders shared by the widgets. Properties are assigned as DOM
// properties (never as HTML), and no inline style is ever written.
export function el(tag, props = {}) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'role' || key.startsWith('aria'))
      node.setAttribute(
        key.replace(/^aria([A-Z])/, (m, c) => `aria-${c.toLowerCase()}`),
        value,
      );
    else if (key === 'htmlFor') node.htmlFor = value;
    else node[key] = value;
  }
  return node;
}

// A form control with its visible <label>; attrs are set as attributes so
// range inputs get their min/max/step before a value is assigned.
export function labelledControl(id, tag, attrs = {}) {
  const wrap = el('div', { className: 'control' });
  const label = el('label', { htmlFor: id, className: 'control-label' });
  const input = document.createElement(tag);
  input.id = id;
  for (const [key, value] of Object.entries(attrs)) input.setAttribute(key, String(value));
  wrap.append(label, input);
  return { wrap, label, input };
}

// A whole-number slider that takes the row's free width, its value shown in
// a short <output> beside it; onValue(n) on every move.
export function depthSlider(id, min, max, onValue) {
  const control = labelledControl(id, 'input', { type: 'range', min, max, step: 1 });
  control.wrap.classList.add('control-grow');
  const output = el('output', { className: 'control-value control-value-short', htmlFor: id });
  control.wrap.append(output);
  control.input.addEventListener('input', () => onValue(Number(control.input.value)));
  return { ...control, output };
}

// One name/value pair of a <dl class="readouts">.
export function readout() {
  const wrap = el('div', { className: 'readout' });
  const label = el('dt');
  const value = el('dd');
  wrap.append(label, value);
  return { wrap, label, value };
}

// A <select> whose options are (value, text) pairs, rebuilt only when the
// option texts change so an open dropdown is not disturbed on every render.
export function setOptions(select, options, selected) {
  const signature = options.map(([value, text]) => `${value}\u0000${text}`).join('\u0001');
  if (select.dataset.options !== signature) {
    select.replaceChildren(
      ...options.map(([value, text]) => el('option', { value: String(value), textContent: text })),
    );
    select.dataset.options = signature;
  }
  select.value = String(selected);
}

// Text and attribute writes that skip values already there: render() runs on
// every input, and rewriting an unchanged label still costs the browser a
// style and layout pass.
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

export function setHidden(node, hidden) {
  if (node.hidden !== hidden) node.hidden = hidden;
}

export function setDisabled(node, disabled) {
  if (node.disabled !== disabled) node.disabled = disabled;
}
