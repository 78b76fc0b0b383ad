// The text context every widget paints with, for one language: t() gives
// plain text; rich() renders a string's inline markup (glossary terms,
// formulas) into an element, skipping the work if nothing changed.
import { lookup, plain } from './i18n/index.js';
import { mathNode } from './math.js';
import { richNodes } from './rich-text.js';
import { createTerm } from './widgets/glossary.js';

// A string without parameters reads the same on every paint: made once.
const unfilled = new Map();

export function textContext(lang) {
  const t = (key, params) => {
    if (params) return plain(lookup(lang, key), params);
    const id = `${lang}|${key}`;
    let text = unfilled.get(id);
    if (text === undefined) {
      text = plain(lookup(lang, key));
      unfilled.set(id, text);
    }
    return text;
  };
  const makers = {
    term: (key, text) => createTerm(key, text, lookup(lang, `glossary.${key}.def`)),
    math: (tex) => mathNode(tex),
  };
  const rich = (node, key, params) => {
    const signature = `${lang}|${key}|${JSON.stringify(params ?? null)}`;
    if (node.dataset.rich === signature) return;
    node.replaceChildren(...richNodes(lookup(lang, key), params, makers));
    node.dataset.rich = signature;
  };
  return { lang, t, rich };
}
