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

// 'i:tex' (inline) or 'd:tex' (display) -> KaTeX's HTML for it.
const TYPESET = typeof NORMLAB_MATH === 'undefined' ? {} : NORMLAB_MATH;
export const typesetKey = (tex, display) => `${display ? 'd' : 'i'}:${tex}`;
// KaTeX's options, the build's and the page's alike.
export const katexOptions = (display) => ({ output: 'mathml', displayMode: display, throwOnError: true });

let engine = bundled;
let loading = null;

// KaTeX, loaded once as dist/katex.js beside the page (a classic script,
// allowed from 'self' under the page's CSP and from file://).
function loadKatex(doc) {
  loading ??= new Promise((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = 'katex.js';
    script.onload = () => {
      engine = globalThis.normlabKatex ?? null;
      if (engine) resolve(engine);
      else reject(new Error('katex.js did not define KaTeX'));
    };
    script.onerror = () => reject(new Error('KaTeX (katex.js) did not load'));
    doc.head.append(script);
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
    whenNear(el, () =>
      loadKatex(el.ownerDocument).then(
        () => el.dataset.typeset === tex && render(el, tex, display),
        () => el.dataset.typeset === tex && (el.textContent = tex),
      ),
    );
  }
  return el;
}

// How far outside the viewport a formula counts as near (half a screen, as
// the page's views: panels/schedule.js).
const NEAR_MARGIN = '50% 0px';
let observer = null;
const waiting = new Map();

// Runs fn once el's section (the browser skips the rendering, and with it
// the intersections, of what is inside a section off screen) is near the
// screen; el may be placed in the page later in the same task (mathNode's
// callers append it). At once without IntersectionObserver.
function whenNear(el, fn) {
  const win = el.ownerDocument.defaultView;
  if (!win || !('IntersectionObserver' in win)) return void fn();
  observer ??= new win.IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        const run = waiting.get(entry.target) ?? [];
        waiting.delete(entry.target);
        for (const f of run) f();
      }
    },
    { rootMargin: NEAR_MARGIN },
  );
  queueMicrotask(() => {
    const target = el.closest('section') ?? el;
    if (!waiting.has(target)) {
      waiting.set(target, []);
      observer.observe(target);
    }
    waiting.get(target).push(fn);
  });
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
