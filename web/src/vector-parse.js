// Parses the calculator's text field, e.g. "[2, -1, 3, 0]" or "0.5；1e-3　−2"
// (full-width separators and the Unicode minus sign, as Chinese keyboards
// and copied text produce them). Returns { ok: true, values } or
// { ok: false, error: { code, params } }, where code names a string in the
// calculator.err* family, so the message reaches the user in their language.
//
//   - The text is trimmed, one leading '[' and one trailing ']' are dropped,
//     and it is trimmed again; nothing left: errEmpty.
//   - Tokens are the runs between separators: white space (the characters
//     trim() removes), ',', ';', '，' and '；'. Separators alone (" ; ") give
//     no tokens, an empty vector.
//   - More tokens than max: errTooMany { count, max }, before any is read.
//   - Each token in turn must be a decimal number,
//       sign? (digits ('.' digits?)? | '.' digits) ([eE] sign? digits)?
//     with sign one of '+', '-', '−' (else errToken { token, index }, index
//     from 1), of magnitude at most 3.4e38 (else errRange { index }).
// tests/js/vector-parse.property.test.mjs holds it to a character-by-character
// reference of these rules.
const SEPARATORS = /[\s,;，；]+/;
const NUMBER = /^[+\-−]?(\d+\.?\d*|\.\d+)(e[+\-−]?\d+)?$/i;

export function parseVector(text, { max }) {
  // Brackets are allowed around the list, as the page itself writes vectors.
  const body = text.trim().replace(/^\[/, '').replace(/\]$/, '').trim();
  if (body === '') return failure('errEmpty', {});
  const tokens = body.split(SEPARATORS).filter((token) => token !== '');
  if (tokens.length > max) return failure('errTooMany', { count: tokens.length, max });
  const values = [];
  for (const [i, token] of tokens.entries()) {
    if (!NUMBER.test(token)) return failure('errToken', { token, index: i + 1 });
    const value = Number(token.replace(/−/g, '-'));
    // The kernels work in float32: anything beyond its range is unusable.
    if (!Number.isFinite(value) || Math.abs(value) > 3.4e38) return failure('errRange', { index: i + 1 });
    values.push(value);
  }
  return { ok: true, values };
}

function failure(code, params) {
  return { ok: false, error: { code, params } };
}
