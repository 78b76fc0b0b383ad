// libFuzzer target for the calculator's vector parser (vector_text.h): any
// bytes, valid UTF-8 or not, must parse without a crash or an out-of-bounds
// read, and the result must be consistent with itself:
//   - a vector has at most `max` values, each finite and within 3.4e38, and
//     printing it back ("[v1, v2, ...]", 17 digits) parses to the same bits;
//   - too_many counts more tokens than `max`;
//   - a bad token is a non-empty piece of the input at an entry in
//     1..max, and on its own it is still a bad token (unless it carries the
//     brackets that parsing it alone would strip);
//   - an out-of-range entry has an index in 1..max.
//
// Input layout: byte 0 is `max` (mod 80, so the page's 64 and the edges
// around it come up); the rest is the text.
#include "normlab/vector_text.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

using namespace normlab;

namespace {

[[noreturn]] void fail(const char* what, std::string_view text) {
  std::fprintf(stderr, "vector_text: %s (text of %zu bytes)\n", what, text.size());
  std::abort();
}

void check_vector(const VectorText& r, std::string_view text, std::size_t max) {
  if (r.values.size() > max) fail("more values than max", text);
  for (const double v : r.values) {
    if (!(std::fabs(v) <= 3.4e38)) fail("a value beyond float32", text);
  }
  if (r.values.empty()) return;
  std::string printed = "[";
  char buf[32];
  for (std::size_t k = 0; k < r.values.size(); ++k) {
    std::snprintf(buf, sizeof buf, "%s%.17g", k ? ", " : "", r.values[k]);
    printed += buf;
  }
  printed += "]";
  const VectorText again = parse_vector_text(printed, max);
  if (again.error != VectorTextError::none || again.values.size() != r.values.size() ||
      std::memcmp(again.values.data(), r.values.data(), r.values.size() * sizeof(double)) != 0) {
    fail("printing the vector back does not give the same values", text);
  }
}

void check_token_error(const VectorText& r, std::string_view text, std::size_t max) {
  if (r.index < 1 || r.index > max) fail("bad token index out of 1..max", text);
  if (r.token.empty()) fail("empty bad token", text);
  if (text.find(r.token) == std::string_view::npos) fail("bad token not in the text", text);
  if (r.token.front() == '[' || r.token.back() == ']') return;
  const VectorText alone = parse_vector_text(r.token, 1);
  if (alone.error != VectorTextError::token || alone.token != r.token || alone.index != 1) {
    fail("bad token parses differently on its own", text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t max = data[0] % 80;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const VectorText r = parse_vector_text(text, max);
  switch (r.error) {
    case VectorTextError::none:
      check_vector(r, text, max);
      break;
    case VectorTextError::too_many:
      if (r.count <= max || r.max != max) fail("too_many without too many tokens", text);
      break;
    case VectorTextError::token:
      check_token_error(r, text, max);
      break;
    case VectorTextError::range:
      if (r.index < 1 || r.index > max) fail("out-of-range index out of 1..max", text);
      break;
    case VectorTextError::empty:
      break;
  }
  return 0;
}
