// The glossary section and the glossary terms used inline in the prose.
//
// A term in the text is a toggle button that opens its definition in place,
// in a popover just below it: a click, a tap, Enter or Space open and close
// it, and Escape or a press anywhere else closes it (focus stays on, or goes
// back to, the term). Nothing navigates away, so a reader on a phone never
// loses their place. With a mouse, hovering a term also shows the popover
// (WCAG 1.4.13: Escape hides it, and it stays while the pointer is on it).
// Screen readers hear the definition as the button's description as soon as
// they reach it, and "expanded" / "collapsed" as it opens and closes.
export const GLOSSARY_KEYS = ['rmsnorm', 'layernorm', 'prenorm', 'postnorm', 'variance', 'l2', 'gain', 'identity'];

export function createGlossary(root) {
  const list = document.createElement('dl');
  list.className = 'glossary-list';
  root.append(list);
  return {
    update({ t }) {
      list.replaceChildren(
        ...GLOSSARY_KEYS.flatMap((key) => {
          const dt = document.createElement('dt');
          dt.id = `glossary-${key}`;
          dt.textContent = t(`glossary.${key}.term`);
          const dd = document.createElement('dd');
          dd.id = `glossary-def-${key}`;
          dd.textContent = t(`glossary.${key}.def`);
          return [dt, dd];
        }),
      );
    },
  };
}

// Popover ids are unique per document (and per shadow root), whatever the
// number of repaints.
let popoverCount = 0;

// One inline term: the button and, right after it, its popover.
export function createTerm(key, text, definition) {
  const wrap = document.createElement('span');
  wrap.className = 'term-wrap';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'term';
  button.dataset.term = key;
  button.append(text);
  const popover = document.createElement('span');
  popover.className = 'term-pop';
  popover.id = `term-pop-${++popoverCount}`;
  popover.textContent = definition;
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', popover.id);
  button.setAttribute('aria-describedby', popover.id);
  button.addEventListener('click', () => setOpen(wrap, button.getAttribute('aria-expanded') !== 'true'));
  wrap.addEventListener('mouseenter', () => {
    wrap.classList.remove('is-dismissed');
    keepInViewport(wrap);
    liftSection(wrap, true);
  });
  wrap.addEventListener('mouseleave', () => liftSection(wrap, false));
  wrap.append(button, popover);
  return wrap;
}

// The one open term on the page (terms inside custom elements included).
let openTerm = null;

function setOpen(wrap, open) {
  if (open && openTerm && openTerm !== wrap) setOpen(openTerm, false);
  wrap.querySelector('.term').setAttribute('aria-expanded', String(open));
  wrap.classList.toggle('is-open', open);
  if (open) {
    wrap.classList.remove('is-dismissed');
    keepInViewport(wrap);
  }
  openTerm = open ? wrap : openTerm === wrap ? null : openTerm;
  liftSection(wrap, wrap.matches(':hover'));
}

// The page's sections clip what they paint (style.css, "Rendering work"): the
// section of a term whose popover shows is lifted above the next one while
// it does. A class set here, not a :has() rule in the style sheet, which
// Chromium would check again on every change inside the section. hovered:
// whether the pointer is on this term now (mouseleave comes before :hover
// is updated everywhere).
function liftSection(wrap, hovered) {
  const section = wrap.closest('.demo-part, .chapter > section');
  if (!section) return;
  const shown = (w) => w.classList.contains('is-open') || (w === wrap ? hovered : w.matches(':hover'));
  section.classList.toggle('term-shown', [...section.querySelectorAll('.term-wrap')].some(shown));
}

// Closing behaviour for every term of a document, installed once: a press
// outside the open term closes it; Escape closes it and hides a hovered one.
export function installTermTooltips(doc) {
  doc.addEventListener('pointerdown', (e) => {
    if (openTerm && !e.composedPath().includes(openTerm)) setOpen(openTerm, false);
  });
  doc.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    for (const wrap of doc.querySelectorAll('.term-wrap:hover')) wrap.classList.add('is-dismissed');
    if (!openTerm) return;
    const wrap = openTerm;
    const focusInside = e.composedPath().includes(wrap);
    setOpen(wrap, false);
    if (focusInside) wrap.querySelector('.term').focus();
  });
}

// A popover anchored at a term near the right edge of a narrow screen would
// overflow; shift it left by the overflow (a CSSOM write, allowed by CSP).
function keepInViewport(wrap) {
  const popover = wrap.querySelector('.term-pop');
  popover.style.setProperty('--tip-shift', '0px');
  const margin = 8;
  const rect = popover.getBoundingClientRect();
  const viewport = wrap.ownerDocument.documentElement.clientWidth;
  const overflow = rect.right + margin - viewport;
  const shift = overflow > 0 ? -Math.min(overflow, Math.max(0, rect.left - margin)) : 0;
  popover.style.setProperty('--tip-shift', `${shift}px`);
}
