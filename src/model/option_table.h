// The options of a JS API declared once, in one table per API (the model's
// in model/options.h, the trainer's and generate()'s in train/options.h):
// each option's JavaScript name, the rule its value must follow, the struct
// member it fills, the field its problem names and how it resolves into
// the config. Its default is the struct's own member initializer, or, where
// the default depends on other options, computed by its resolve. From the
// table come
//   - the validation: check_options() walks it in order and returns the
//     first Problem, its message made from the rule (option_problem());
//   - the config: resolve_options() runs each option's resolve in order;
//   - the Embind field list (wasm/packing.h: register_options);
//   - the description JS reads (packing.h: describe_options), from which
//     wasm/boundary.js coerces what the caller passed, filling in the
//     defaults, and the lab takes its defaults and ranges.
// Checks that involve several options at once (the trainer's text size and
// memory) stay in the API's own check, after the table's.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>

#include "model/number_checks.h"
#include "model/problem.h"

namespace normlab::model {

// X(enumerator, name in JavaScript): the rules, and the message each gives,
// with N the option's name.
#define NORMLAB_OPTION_KINDS(X)                                                  \
  X(kInteger, "integer")         /* N must be an integer in lo..hi */            \
  X(kPowerOfTwo, "powerOfTwo")   /* N must be a power of two in lo..hi */        \
  X(kNumber, "number")           /* N must be a number in lo..hi */              \
  X(kNumberAbove, "numberAbove") /* N must be a number > lo and <= hi */         \
  X(kFiniteAbove, "finiteAbove") /* N must be a finite number > lo (no hi) */    \
  X(kChoice, "choice")           /* N must be 'a', 'b' or 'c': one of choices */ \
  X(kBoolean, "boolean")         /* N must be true or false (0 or 1 in C++) */   \
  X(kText, "text")               /* any string; the API's own check judges it */

#define NORMLAB_OPTION_ENUMERATOR(name, text) name,
enum class OptionKind : int { NORMLAB_OPTION_KINDS(NORMLAB_OPTION_ENUMERATOR) };
#undef NORMLAB_OPTION_ENUMERATOR
#define NORMLAB_OPTION_NAME(name, text) text,
inline constexpr const char* kOptionKindNames[] = {NORMLAB_OPTION_KINDS(NORMLAB_OPTION_NAME)};
#undef NORMLAB_OPTION_NAME

// One option of the options struct O, which resolves into the config C.
// The rows of a table are made with the functions below, e.g.
//   integer<O, C>("layers", Field::kLayers, &O::layers, 1, 64).resolving(...)
template <class O, class C = void>
struct OptionSpec {
  const char* name;  // as JavaScript spells it
  Field field;       // what its problem names
  OptionKind kind;
  double O::*number = nullptr;           // the member of a numeric option, else null
  std::string O::*string = nullptr;      // the member of a choice or text, else null
  double lo = 0, hi = 0;                 // the numeric kinds' range (kFiniteAbove: lo only)
  const char* const* choices = nullptr;  // kChoice: its names
  int choice_count = 0;
  // Not null for an option whose default is computed from the others (in
  // resolve), then said in these words: the member's initializer is NaN
  // (or "" for text), and an explicit NaN from JS is a bad value, not the
  // default.
  const char* computed_default = nullptr;
  // Not null for a range capped by another option: hi is then
  // min(hi, that option / cap_divisor), and the message names it.
  const char* cap_by = nullptr;
  double O::*cap_member = nullptr;
  int cap_divisor = 1;
  // A positional argument of its call rather than a key of its options
  // object (generate()'s nBytes): it has no default.
  bool positional = false;
  // kText, for a training text: its last 1 / held_out_parts is held out,
  // and must hold one window, so the text needs held_out_parts (seq + 1)
  // bytes (the API's own check); 0 for none.
  int held_out_parts = 0;
  // Sets the option's part of the config from valid options (those before
  // it in the table already resolved); null for an option the config does
  // not hold.
  void (*resolve)(const O&, C*) = nullptr;

  constexpr OptionSpec resolving(void (*f)(const O&, C*)) const {
    OptionSpec s = *this;
    s.resolve = f;
    return s;
  }
  constexpr OptionSpec with_computed_default(const char* words) const {
    OptionSpec s = *this;
    s.computed_default = words;
    return s;
  }
  constexpr OptionSpec capped_by(const char* option, double O::*member, int divisor) const {
    OptionSpec s = *this;
    s.cap_by = option;
    s.cap_member = member;
    s.cap_divisor = divisor;
    return s;
  }
  constexpr OptionSpec as_positional() const {
    OptionSpec s = *this;
    s.positional = true;
    return s;
  }
  constexpr OptionSpec holding_out(int parts) const {
    OptionSpec s = *this;
    s.held_out_parts = parts;
    return s;
  }
};

template <class O, class C = void>
constexpr OptionSpec<O, C> numeric(const char* name, Field field, OptionKind kind, double O::*m,
                                   double lo, double hi) {
  OptionSpec<O, C> s{name, field, kind};
  s.number = m;
  s.lo = lo;
  s.hi = hi;
  return s;
}
template <class O, class C = void>
constexpr OptionSpec<O, C> integer(const char* name, Field field, double O::*m, double lo,
                                   double hi) {
  return numeric<O, C>(name, field, OptionKind::kInteger, m, lo, hi);
}
template <class O, class C = void>
constexpr OptionSpec<O, C> power_of_two(const char* name, Field field, double O::*m, double lo,
                                        double hi) {
  return numeric<O, C>(name, field, OptionKind::kPowerOfTwo, m, lo, hi);
}
// A boolean of JavaScript, held as a double member (0 or 1) like every
// number, so that the Embind field and the check are the numbers' own.
template <class O, class C = void>
constexpr OptionSpec<O, C> boolean(const char* name, Field field, double O::*m) {
  OptionSpec<O, C> s{name, field, OptionKind::kBoolean};
  s.number = m;
  return s;
}
template <class O, class C = void, std::size_t N>
constexpr OptionSpec<O, C> choice(const char* name, Field field, std::string O::*m,
                                  const char* const (&names)[N]) {
  OptionSpec<O, C> s{name, field, OptionKind::kChoice};
  s.string = m;
  s.choices = names;
  s.choice_count = static_cast<int>(N);
  return s;
}
template <class O, class C = void>
constexpr OptionSpec<O, C> text(const char* name, Field field, std::string O::*m) {
  OptionSpec<O, C> s{name, field, OptionKind::kText};
  s.string = m;
  return s;
}

template <class O, class C = void>
struct OptionTable {
  const char* name;  // the description's key: "model", "trainer", "generate"
  const OptionSpec<O, C>* specs;
  int count;
};

// A number as the messages and the description write it: the fewest
// decimals that read back as the same double (64, 4294967295, 0.003,
// -0.5); 17 significant digits at most. Integer arithmetic only: printf's
// floating-point formatting would add tens of KiB to the main wasm module.
inline std::string decimal_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
    return std::to_string(static_cast<long long>(v));
  }
  const std::string sign = v < 0 ? "-" : "";
  const double a = std::fabs(v);
  double scale = 1;
  for (int k = 1; k <= 17 && a * scale * 10 < 9007199254740992.0; ++k) {
    scale *= 10;
    const long long m = std::llround(a * scale);
    if (static_cast<double>(m) / scale != a && k < 17) continue;
    std::string digits = std::to_string(m);
    if (static_cast<int>(digits.size()) <= k) digits.insert(0, k + 1 - digits.size(), '0');
    digits.insert(digits.size() - k, ".");
    return sign + digits;
  }
  return sign + std::to_string(std::llround(a));
}

// The range's upper end for these options (a capped range's cap applied).
template <class O, class C>
double upper_bound(const OptionSpec<O, C>& s, const O& o) {
  if (s.cap_member == nullptr) return s.hi;
  return std::fmin(s.hi, std::floor(o.*s.cap_member / s.cap_divisor));
}

// The problem a bad value of option s gives, its message made from the rule.
template <class O, class C>
Problem option_problem(const OptionSpec<O, C>& s, const O& o) {
  const std::string n = s.name;
  const std::string range = decimal_text(s.lo) + ".." + decimal_text(upper_bound(s, o));
  std::string message;
  switch (s.kind) {
    case OptionKind::kInteger:
      message = n + " must be an integer in " + range;
      break;
    case OptionKind::kPowerOfTwo:
      message = n + " must be a power of two in " + range;
      break;
    case OptionKind::kNumber:
      message = n + " must be a number in " + range;
      break;
    case OptionKind::kNumberAbove:
      message = n + " must be a number > " + decimal_text(s.lo) + " and <= " + decimal_text(s.hi);
      break;
    case OptionKind::kFiniteAbove:
      message = n + " must be a finite number > " + decimal_text(s.lo);
      break;
    case OptionKind::kBoolean:
      message = n + " must be true or false";
      break;
    case OptionKind::kChoice:
      message = n + " must be ";
      for (int k = 0; k < s.choice_count; ++k) {
        if (k > 0) message += k + 1 == s.choice_count ? " or " : ", ";
        message += std::string("'") + s.choices[k] + "'";
      }
      break;
    case OptionKind::kText:
      break;
  }
  if (s.cap_by != nullptr) {
    message += std::string(" for ") + s.cap_by + " " + decimal_text(o.*s.cap_member);
  }
  const ProblemCode code =
      s.kind == OptionKind::kChoice ? ProblemCode::kNotOneOf : ProblemCode::kOutOfRange;
  return {code, s.field, message};
}

// Whether option s's value in o follows its rule.
template <class O, class C>
bool option_ok(const OptionSpec<O, C>& s, const O& o) {
  if (s.kind == OptionKind::kText) return true;
  if (s.kind == OptionKind::kChoice) {
    const std::string& v = o.*s.string;
    for (int k = 0; k < s.choice_count; ++k) {
      if (v == s.choices[k]) return true;
    }
    return false;
  }
  const double v = o.*s.number;
  if (s.computed_default != nullptr && std::isnan(v)) return true;
  switch (s.kind) {
    case OptionKind::kInteger:
      return is_integer_in(v, s.lo, s.hi);
    case OptionKind::kPowerOfTwo: {
      const double hi = upper_bound(s, o);
      return hi >= s.lo && is_power_of_two_in(v, static_cast<int>(s.lo), static_cast<int>(hi));
    }
    case OptionKind::kNumber:
      return v >= s.lo && v <= s.hi;
    case OptionKind::kNumberAbove:
      return v > s.lo && v <= s.hi;
    case OptionKind::kFiniteAbove:
      return std::isfinite(v) && v > s.lo;
    case OptionKind::kBoolean:
      return v == 0 || v == 1;
    default:
      return false;
  }
}

// No problem, or the first option of the table (in its order) whose value
// breaks its rule.
template <class O, class C>
Problem check_options(const OptionTable<O, C>& table, const O& o) {
  for (int i = 0; i < table.count; ++i) {
    if (!option_ok(table.specs[i], o)) return option_problem(table.specs[i], o);
  }
  return {};
}

// The config valid options resolve to: each option's resolve, in table
// order, on a default-constructed C.
template <class O, class C>
C resolve_options(const OptionTable<O, C>& table, const O& o) {
  C c;
  for (int i = 0; i < table.count; ++i) {
    if (table.specs[i].resolve != nullptr) table.specs[i].resolve(o, &c);
  }
  return c;
}

}  // namespace normlab::model
