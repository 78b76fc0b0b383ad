// The calculator's vector parser (see vector_text.h for the grammar): UTF-8
// decoding, JavaScript's white space, the number grammar, and the value
// check, in the order the page's parser applies them.
#include "normlab/vector_text.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace normlab {
namespace {

constexpr char32_t kInvalid = 0xFFFFFFFF;  // a byte that starts no valid UTF-8 sequence
constexpr char32_t kMinusSign = 0x2212;    // '−'
constexpr double kMaxMagnitude = 3.4e38;   // the page's float32 bound

struct CodePoint {
  char32_t value;
  std::size_t length;  // bytes, >= 1
};

// Strict UTF-8 (no overlong forms, no surrogates, at most U+10FFFF): an
// invalid sequence is one kInvalid byte, so no byte pattern can pass for
// white space or a digit.
CodePoint decode(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
  const std::uint8_t b0 = byte(i);
  if (b0 < 0x80) return {b0, 1};
  std::size_t length;
  char32_t value;
  std::uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
    value = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    value = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    value = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // beyond U+10FFFF
  } else {
    return {kInvalid, 1};
  }
  if (i + length > s.size()) return {kInvalid, 1};
  for (std::size_t k = 1; k < length; ++k) {
    const std::uint8_t b = byte(i + k);
    if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return {kInvalid, 1};
    value = value << 6 | (b & 0x3F);
  }
  return {value, length};
}

// ECMAScript's WhiteSpace and LineTerminator: what trim() removes and \s
// matches.
bool is_js_space(char32_t c) {
  switch (c) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20:
    case 0xA0: case 0x1680: case 0x2028: case 0x2029: case 0x202F:
    case 0x205F: case 0x3000: case 0xFEFF:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

bool is_separator(char32_t c) {
  return is_js_space(c) || c == ',' || c == ';' || c == 0xFF0C || c == 0xFF1B;
}

std::string_view trim(std::string_view s) {
  std::size_t begin = 0;
  while (begin < s.size()) {
    const CodePoint c = decode(s, begin);
    if (!is_js_space(c.value)) break;
    begin += c.length;
  }
  // Scan forward for the end of the last non-space code point, since UTF-8
  // cannot be decoded backwards without re-validating.
  std::size_t end = begin;
  for (std::size_t i = begin; i < s.size();) {
    const CodePoint c = decode(s, i);
    i += c.length;
    if (!is_js_space(c.value)) end = i;
  }
  return s.substr(begin, end - begin);
}

std::vector<std::string_view> split_tokens(std::string_view body) {
  std::vector<std::string_view> tokens;
  std::size_t start = 0;
  for (std::size_t i = 0; i < body.size();) {
    const CodePoint c = decode(body, i);
    if (is_separator(c.value)) {
      if (i > start) tokens.push_back(body.substr(start, i - start));
      start = i + c.length;
    }
    i += c.length;
  }
  if (body.size() > start) tokens.push_back(body.substr(start));
  return tokens;
}

// If token matches the number grammar, its ASCII spelling for strtod
// ('−' -> '-') in ascii, and true.
bool spell_number(std::string_view token, std::string& ascii) {
  ascii.clear();
  std::size_t i = 0;
  const auto at_sign = [&]() {
    if (i >= token.size()) return false;
    const CodePoint c = decode(token, i);
    if (c.value != '+' && c.value != '-' && c.value != kMinusSign) return false;
    ascii.push_back(c.value == '+' ? '+' : '-');
    i += c.length;
    return true;
  };
  const auto digits = [&]() {
    const std::size_t start = i;
    while (i < token.size() && token[i] >= '0' && token[i] <= '9') ascii.push_back(token[i++]);
    return i - start;
  };
  const auto at = [&](char c) {
    if (i >= token.size() || token[i] != c) return false;
    ascii.push_back(c);
    ++i;
    return true;
  };
  at_sign();
  if (digits() > 0) {
    if (at('.')) digits();
  } else if (!(at('.') && digits() > 0)) {
    return false;
  }
  if (at('e') || at('E')) {
    at_sign();
    if (digits() == 0) return false;
  }
  return i == token.size();
}

VectorText failure(VectorTextError error) {
  VectorText result;
  result.error = error;
  return result;
}

}  // namespace

const char* vector_text_error_key(VectorTextError error) {
  switch (error) {
    case VectorTextError::empty: return "errEmpty";
    case VectorTextError::too_many: return "errTooMany";
    case VectorTextError::token: return "errToken";
    case VectorTextError::range: return "errRange";
    case VectorTextError::none: break;
  }
  return "";
}

VectorText parse_vector_text(std::string_view text_utf8, std::size_t max) {
  std::string_view body = trim(text_utf8);
  if (!body.empty() && body.front() == '[') body.remove_prefix(1);
  if (!body.empty() && body.back() == ']') body.remove_suffix(1);
  body = trim(body);
  if (body.empty()) return failure(VectorTextError::empty);

  const std::vector<std::string_view> tokens = split_tokens(body);
  if (tokens.size() > max) {
    VectorText result = failure(VectorTextError::too_many);
    result.count = tokens.size();
    result.max = max;
    return result;
  }
  VectorText result;
  result.values.reserve(tokens.size());
  std::string ascii;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    if (!spell_number(tokens[k], ascii)) {
      VectorText error = failure(VectorTextError::token);
      error.token = std::string(tokens[k]);
      error.index = k + 1;
      return error;
    }
    // The spelling is plain decimal ASCII, so strtod in the C locale (which
    // normlab never changes) reads it as JavaScript's Number() does:
    // correctly rounded, +-inf past the double range, 0 below it.
    const double value = std::strtod(ascii.c_str(), nullptr);
    if (!(std::fabs(value) <= kMaxMagnitude)) {
      VectorText error = failure(VectorTextError::range);
      error.index = k + 1;
      return error;
    }
    result.values.push_back(value);
  }
  return result;
}

}  // namespace normlab
