// Typesetting through KaTeX's MathML output: the browser lays the formula out
// natively, so no KaTeX stylesheet, fonts, <style> element or inline style
// attribute is needed, and the page stays within a strict style-src CSP.
//
// Every formula the page's own text holds (each $tex$ of the dictionaries and
// each data-tex of index.html) is typeset once in the build, by the same
// KaTeX with the same options (web/build.mjs, NORMLAB_MATH): the page shows
// those without running KaTeX. A formula made at run time (the worked
// example's, from the kernel's numbers) needs KaTeX itself: bundled in the
// embeddable elements, and in the page a script of its own, katex.js, loaded
// the first time such a formula is shown (268 KB the page's first download
// and its start no longer carry).
import bundled from './katex-engine.js';
import { loadScript, whenNear } from './page/on-demand.js';

// 'i:tex' (inline) or 'd:tex' (display) -> KaTeX's HTML for it.
const TYPESET = typeof NORMLAB_MATH === 'undefined' ? {} : NORMLAB_MATH;
export const typesetKey = (tex, display) => `${display ? 'd' : 'i'}:${tex}`;
// KaTeX's options, the build's and the page's alike.
export const katexOptions = (display) => ({ output: 'mathml', displayMode: display, throwOnError: true });

// How far outside the viewport a formula counts as near (half a screen, as
// the page's views: panels/schedule.js).
const NEAR_MARGIN = '50% 0px';

let engine = bundled;
let loading = null;

// KaTeX, loaded once as dist/katex.js beside the page.
function loadKatex(doc) {
  loading ??= loadScript(doc, 'katex.js').then(() => {
    engine = globalThis.normlabKatex ?? null;
    if (!engine) throw new Error('katex.js did not define KaTeX');
  });
  return loading;
}

function render(el, tex, display) {
  try {
    engine.render(tex, el, katexOptions(display));
  } catch {
    // A formula that fails to parse is shown as its source rather than as
    // KaTeX's error node, which would carry an inline style.
    el.textContent = tex;
  }
}

// Renders tex into el, skipping the work when el already shows (or waits to
// show) that formula (render() runs on every slider move; most formulas do
// not change).
export function typeset(el, tex, { display = false } = {}) {
  if (el.dataset.typeset === tex) return el;
  el.dataset.typeset = tex;
  const made = TYPESET[typesetKey(tex, display)];
  // KaTeX's own output for the page's own formula, made in the build.
  if (made !== undefined) el.innerHTML = made;
  else if (engine) render(el, tex, display);
  else {
    // KaTeX is loaded once el's section nears the screen, and the formula
    // shown then, unless el has moved on to another; should KaTeX fail to
    // load, as its source.
    // el is placed in the page later in this task (mathNode's callers
    // append it); the browser skips the rendering, and with it the
    // intersections, of what is inside a section off screen: its section
    // is watched.
    queueMicrotask(() =>
      whenNear(el.ownerDocument.defaultView ?? globalThis, el.closest('section') ?? el, NEAR_MARGIN, () =>
        loadKatex(el.ownerDocument).then(
          () => el.dataset.typeset === tex && render(el, tex, display),
          () => el.dataset.typeset === tex && (el.textContent = tex),
        ),
      ),
    );
  }
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
