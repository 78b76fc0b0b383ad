// Typesetting through KaTeX's MathML output: the browser lays the formula out
// natively, so no KaTeX stylesheet, fonts, <style> element or inline style
// attribute is needed, and the page stays within a strict style-src CSP.
import katex from 'katex';

export const KATEX_VERSION = katex.version;

// Renders tex into el, skipping the work when el already shows that formula
// (render() runs on every slider move; most formulas do not change).
export function typeset(el, tex, { display = false } = {}) {
  if (el.dataset.typeset === tex) return el;
  try {
    katex.render(tex, el, { output: 'mathml', displayMode: display, throwOnError: true });
  } catch {
    // A formula that fails to parse is shown as its source rather than as
    // KaTeX's error node, which would carry an inline style.
    el.textContent = tex;
  }
  el.dataset.typeset = tex;
  return el;
}

// A formula that may wrap: each piece is typeset as its own inline formula,
// with a breakable space between them. A browser lays out one MathML formula
// on one line, so on a phone a long equation would run past the column; cut
// it after a relation (=, ≈) and the rest moves to the next line instead.
export function typesetPieces(el, pieces) {
  const key = pieces.join('\u0000');
  if (el.dataset.typeset === key) return el;
  const nodes = [];
  for (const [i, tex] of pieces.entries()) {
    if (i > 0) nodes.push(' ');
    nodes.push(mathNode(tex));
  }
  el.replaceChildren(...nodes);
  el.dataset.typeset = key;
  return el;
}

export function mathNode(tex, options) {
  const span = document.createElement('span');
  span.className = options?.display ? 'math math-display' : 'math';
  return typeset(span, tex, options);
}
