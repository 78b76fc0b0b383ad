// Reading time of the page's prose in the current language, counted from the
// rendered text rather than stated, so it follows the text as it changes.
// Rates are common adult silent-reading figures for technical prose.
const WORDS_PER_MINUTE = 200
const HAN_CHARACTERS_PER_MINUTE = 350

export function estimateReadingMinutes(root, lang) {
  // innerText skips what is not rendered (closed tables, hidden notes).
  const text = root.innerText
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0
  const words = text.replace(/\p{Script=Han}/gu, ' ').match(/[\p{L}\p{N}]+/gu)?.length ?? 0
  const minutes = lang.startsWith('zh')
    ? han / HAN_CHARACTERS_PER_MINUTE + words / WORDS_PER_MINUTE
    : words / WORDS_PER_MINUTE
  return Math.max(1, Math.round(minutes))
}
