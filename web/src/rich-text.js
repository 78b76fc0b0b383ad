// Renders the dictionaries' inline markup into DOM nodes. Strings become text
// nodes (never HTML), so nothing in a dictionary or a parameter can inject
// markup. Markup:
//   [[key|text]]  a glossary term (definition on hover and focus)
//   $tex$         inline math, typeset by KaTeX
//   **text**      strong
//   *text*        emphasis
//   `text`        code
//   {name}        a parameter, inserted as text
const TOKEN =
  /\[\[([a-z0-9]+)\|([^\]]+)\]\]|\$([^$]+)\$|\*\*([^*]+)\*\*|\*([^*]+)\*|`([^`]+)`|\{([a-zA-Z][a-zA-Z0-9]*)\}/g;

// The inline formulas of a string, in order: what richNodes typesets.
export const inlineTex = (text) => [...text.matchAll(TOKEN)].map((m) => m[3]).filter(Boolean);

// makers: { term(key, text) -> Node, math(tex) -> Node }
export function richNodes(text, params, makers) {
  const nodes = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (m.index > last) nodes.push(document.createTextNode(text.slice(last, m.index)));
    last = m.index + m[0].length;
    const [whole, termKey, termText, tex, strong, em, code, param] = m;
    if (termKey) nodes.push(makers.term(termKey, termText));
    else if (tex) nodes.push(makers.math(tex));
    else if (strong) nodes.push(element('strong', strong));
    else if (em) nodes.push(element('em', em));
    else if (code) nodes.push(element('code', code));
    else nodes.push(document.createTextNode(param in (params ?? {}) ? String(params[param]) : whole));
  }
  if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
  return keepClosingMarks(nodes);
}

// Chinese never begins a line with closing punctuation, and browsers keep
// such a mark with the character before it, but not with an atomic inline
// (a glossary term is a button; a formula is a math box): they may break
// between "恒等路径" and "。". A term or formula and the marks right after it
// go into one span that does not wrap.
const CLOSING_MARKS = /^[。，、；：！？）”’》」』】…]+/;

function keepClosingMarks(nodes) {
  const kept = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const next = nodes[i + 1];
    const marks =
      node.nodeType === Node.ELEMENT_NODE && next?.nodeType === Node.TEXT_NODE && next.data.match(CLOSING_MARKS);
    if (!marks) {
      kept.push(node);
      continue;
    }
    const together = document.createElement('span');
    together.className = 'nobreak';
    together.append(node, marks[0]);
    kept.push(together);
    next.data = next.data.slice(marks[0].length);
    if (!next.data) i++;
  }
  return kept;
}

function element(tag, text) {
  const el = document.createElement(tag);
  el.textContent = text;
  return el;
}
