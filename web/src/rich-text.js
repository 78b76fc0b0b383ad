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
  return nodes;
}

function element(tag, text) {
  const el = document.createElement(tag);
  el.textContent = text;
  return el;
}
