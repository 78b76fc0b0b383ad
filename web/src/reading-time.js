// Reading time of the chapter's prose in one language, counted from the
// text itself: the strings of the page's static prose (the [data-i18n]
// elements inside #content, the same on every load, but for the references
// and library credits) and the glossary. Widget
// read-outs and notes are left out: they appear only once the WebAssembly
// module has loaded, and the estimate must not depend on when that happens.
// Rates are common adult silent-reading figures for technical prose; an
// inline formula counts as one word.
import { GLOSSARY_KEYS } from './widgets/glossary.js';

const WORDS_PER_MINUTE = 200;
const HAN_CHARACTERS_PER_MINUTE = 350;

// The dictionary keys of the prose: text(key) gives a key's plain text.
export function proseKeys(doc) {
  const keys = [...doc.querySelectorAll('#content [data-i18n]')]
    .filter((node) => !node.closest('#references'))
    .map((node) => node.dataset.i18n);
  return [...keys, ...GLOSSARY_KEYS.flatMap((key) => [`glossary.${key}.term`, `glossary.${key}.def`])];
}

export function estimateReadingMinutes(texts, lang) {
  const text = texts.join('\n').replace(/\$[^$]+\$/g, ' x ');
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const words = text.replace(/\p{Script=Han}/gu, ' ').match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  const minutes = lang.startsWith('zh')
    ? han / HAN_CHARACTERS_PER_MINUTE + words / WORDS_PER_MINUTE
    : words / WORDS_PER_MINUTE;
  return Math.max(1, Math.round(minutes));
}
