// Parser for the vectors users type into the page's calculator, e.g.
// "[2, -1, 3, 0]" or "0.5；1e-3　−2" (full-width separators and the Unicode
// minus sign, as Chinese keyboards and copied text produce them).
//
// The grammar and the errors are those of the page's JavaScript parser
// (web/src/vector-parse.js), so either can serve the page:
//   - the text is trimmed, then one leading '[' and one trailing ']' are
//     dropped, then it is trimmed again; nothing left -> empty;
//   - tokens are the runs between separators: JavaScript white space and
//     line terminators (the set String.prototype.trim removes), ',', ';',
//     U+FF0C '，' and U+FF1B '；'. Text of separators only (";") has no
//     tokens and parses, as in the page, to an empty vector;
//   - more tokens than `max` -> too_many (count, max), before any token is
//     looked at;
//   - each token, in order, must be a decimal number
//       sign? (digits ('.' digits?)? | '.' digits) ([eE] sign? digits)?
//     with sign one of '+', '-', U+2212 '−' (else token: the token and its
//     1-based index), whose value is finite and at most 3.4e38 in magnitude,
//     the float32 range the kernels work in (else range: the index).
// The error names are the page's message keys (errEmpty, errTooMany,
// errToken, errRange), so its translations apply unchanged.
//
// Input is UTF-8. Bytes that are not valid UTF-8 (overlong forms and lone
// surrogates included) count as ordinary characters: they can only make a
// token that is not a number.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

enum class VectorTextError { none, empty, too_many, token, range };

// The page's message key of an error: "errEmpty", "errTooMany", "errToken",
// "errRange" ("" for none).
const char* vector_text_error_key(VectorTextError error);

struct VectorText {
  VectorTextError error = VectorTextError::none;
  std::vector<double> values;  // (number of tokens) when error is none
  std::size_t count = 0;       // too_many: the number of tokens
  std::size_t max = 0;         // too_many: the limit given
  std::string token;           // token: the offending token, as typed
  std::size_t index = 0;       // token, range: its 1-based position
};

// Parses text_utf8 into at most max numbers. Never throws.
VectorText parse_vector_text(std::string_view text_utf8, std::size_t max);

}  // namespace normlab
