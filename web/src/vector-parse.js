// Parses the calculator's text field. Returns { ok: true, values } or
// { ok: false, error: { code, params } }, where code names a string in the
// calculator.err* family, so the message reaches the user in their language.
const SEPARATORS = /[\s,;，；]+/
const NUMBER = /^[+\-−]?(\d+\.?\d*|\.\d+)(e[+\-−]?\d+)?$/i

export function parseVector(text, { max }) {
  // Brackets are allowed around the list, as the page itself writes vectors.
  const body = text.trim().replace(/^\[/, '').replace(/\]$/, '').trim()
  if (body === '') return failure('errEmpty', {})
  const tokens = body.split(SEPARATORS).filter((token) => token !== '')
  if (tokens.length > max) return failure('errTooMany', { count: tokens.length, max })
  const values = []
  for (const [i, token] of tokens.entries()) {
    if (!NUMBER.test(token)) return failure('errToken', { token, index: i + 1 })
    const value = Number(token.replace(/−/g, '-'))
    // The kernels work in float32: anything beyond its range is unusable.
    if (!Number.isFinite(value) || Math.abs(value) > 3.4e38) return failure('errRange', { index: i + 1 })
    values.push(value)
  }
  return { ok: true, values }
}

function failure(code, params) {
  return { ok: false, error: { code, params } }
}
