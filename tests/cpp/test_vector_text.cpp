// The calculator's vector parser: values, separators and white space as the
// page's JavaScript parser (web/src/vector-parse.js) treats them, and each
// error with its parameters.
#include <catch2/catch.hpp>

#include "normlab/vector_text.h"

#include <cmath>
#include <string>
#include <vector>

using namespace normlab;

namespace {

constexpr std::size_t kMax = 64;  // the page's CALCULATOR_MAX_ENTRIES

std::vector<double> values_of(const std::string& text) {
  const VectorText r = parse_vector_text(text, kMax);
  INFO("text: " << text << ", error " << vector_text_error_key(r.error));
  REQUIRE(r.error == VectorTextError::none);
  return r.values;
}

}  // namespace

TEST_CASE("vector text: the page's worked example and its notations", "[vector_text]") {
  const std::vector<double> expected = {2, -1, 3, 0};
  CHECK(values_of("2, -1, 3, 0") == expected);
  CHECK(values_of("[2, -1, 3, 0]") == expected);
  CHECK(values_of("  [ 2 -1\t3\n0 ]  ") == expected);
  CHECK(values_of("2;-1;;3,,0") == expected);
  // Full-width comma and semicolon, ideographic space, no-break space, and
  // the Unicode minus sign, as a Chinese keyboard or copied text gives them.
  CHECK(values_of("2，\u22121；3\u30000") == expected);
  CHECK(values_of("\u00a02\u2003-1\u20283\ufeff0\u00a0") == expected);
}

TEST_CASE("vector text: number spellings", "[vector_text]") {
  CHECK(values_of("1.5 .5 5. +7 -0.25") == std::vector<double>{1.5, 0.5, 5.0, 7.0, -0.25});
  CHECK(values_of("1e3 2E-2 3e+1 4e\u22122") == std::vector<double>{1000.0, 0.02, 30.0, 0.04});
  CHECK(values_of("0.1")[0] == 0.1);  // correctly rounded, as Number("0.1")
  CHECK(values_of("3.4e38")[0] == 3.4e38);
  CHECK(values_of("1e-400")[0] == 0.0);  // below the double range: 0, as in JavaScript
  const double minus_zero = values_of("-0")[0];
  CHECK(minus_zero == 0.0);
  CHECK(std::signbit(minus_zero));
}

TEST_CASE("vector text: empty text, and separators alone", "[vector_text]") {
  for (const char* text : {"", "   ", "[]", "[ ]", "[", "]", "\u3000\n"}) {
    INFO("text: '" << text << "'");
    CHECK(parse_vector_text(text, kMax).error == VectorTextError::empty);
  }
  // As in the page: a body of separators only has no tokens and no error.
  const VectorText r = parse_vector_text(" ; , ", kMax);
  CHECK(r.error == VectorTextError::none);
  CHECK(r.values.empty());
}

TEST_CASE("vector text: too many entries are counted before any is read", "[vector_text]") {
  const VectorText r = parse_vector_text("1 2 x 4 5", 4);
  CHECK(r.error == VectorTextError::too_many);
  CHECK(r.count == 5);
  CHECK(r.max == 4);
  CHECK(std::string(vector_text_error_key(r.error)) == "errTooMany");
  CHECK(parse_vector_text("1 2 3 4", 4).values.size() == 4);
}

TEST_CASE("vector text: a token that is not a number names itself and its entry", "[vector_text]") {
  const struct {
    const char* text;
    const char* token;
    std::size_t index;
  } cases[] = {
      {"1, x, 3", "x", 2},        {"1 2 3.4.5", "3.4.5", 3}, {"[[1]]", "[1]", 1},
      {"1e", "1e", 1},            {"--1", "--1", 1},         {"0x10", "0x10", 1},
      {"Infinity", "Infinity", 1}, {"NaN", "NaN", 1},          {"1_000", "1_000", 1},
      {"５", "５", 1},              {"＋5", "＋5", 1},           {"5\u2212", "5\u2212", 1},
      {"1\u200b2", "1\u200b2", 1},  // a zero-width space is no JavaScript white space
      {"1\xc2\x85" "2", "1\xc2\x85" "2", 1},  // nor is U+0085
      {"\xff" "1", "\xff" "1", 1},  // not UTF-8
      // The sign is one of three characters: read as the regular expression
      // class [+-−] it would be the range U+002B..U+2212, which takes 'a'.
      {"a5", "a5", 1},            {"..5", "..5", 1},         {"1e]5", "1e]5", 1},
  };
  for (const auto& c : cases) {
    INFO("text: " << c.text);
    const VectorText r = parse_vector_text(c.text, kMax);
    CHECK(r.error == VectorTextError::token);
    CHECK(r.token == c.token);
    CHECK(r.index == c.index);
  }
}

TEST_CASE("vector text: values beyond float32 are out of range", "[vector_text]") {
  for (const auto& [text, index] : std::vector<std::pair<std::string, std::size_t>>{
           {"3.41e38", 1}, {"1 -1e39", 2}, {"1e999", 1}, {"0 0 " + std::string(400, '9'), 3}}) {
    INFO("text: " << text);
    const VectorText r = parse_vector_text(text, kMax);
    CHECK(r.error == VectorTextError::range);
    CHECK(r.index == index);
  }
  // Entries are judged in order: a bad number before a bad token wins.
  CHECK(parse_vector_text("1e39 x", kMax).error == VectorTextError::range);
  CHECK(parse_vector_text("x 1e39", kMax).error == VectorTextError::token);
}
