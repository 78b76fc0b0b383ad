// The text context every widget paints with, for one language: t() gives
// plain text; rich() renders a string's inline markup (glossary terms,
// formulas) into an element, skipping the work if nothing changed.
import { lookup, plain } from './i18n/index.js'
import { mathNode } from './math.js'
import { richNodes } from './rich-text.js'
import { createTerm } from './widgets/glossary.js'

export function textContext(lang) {
  const t = (key, params) => plain(lookup(lang, key), params)
  const makers = {
    term: (key, text) => createTerm(key, text, lookup(lang, `glossary.${key}.def`)),
    math: (tex) => mathNode(tex),
  }
  const rich = (node, key, params) => {
    const signature = `${lang}|${key}|${JSON.stringify(params ?? null)}`
    if (node.dataset.rich === signature) return
    node.replaceChildren(...richNodes(lookup(lang, key), params, makers))
    node.dataset.rich = signature
  }
  return { lang, t, rich }
}
