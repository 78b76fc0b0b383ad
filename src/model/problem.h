// How the model rejects an argument: the rule it broke (a code), the
// argument that broke it (a field, named as the JavaScript API names it) and
// the message users read. Nothing throws (the wasm modules are built without
// C++ exceptions), so every check returns a Problem; the JS wrapper picks
// the error class from the code, and from whether it had found that field of
// the wrong type, and throws the message unchanged.
#pragma once

#include <string>

namespace normlab::model {

// X(enumerator, name in JavaScript)
#define NORMLAB_PROBLEM_CODES(X)                                          \
  X(kNone, "none")             /* no problem */                           \
  X(kOutOfRange, "outOfRange") /* a number the field does not allow */    \
  X(kNotOneOf, "notOneOf")     /* a string that is none of its choices */ \
  X(kEmpty, "empty")           /* nothing where something is needed */    \
  X(kTooLong, "tooLong")       /* more than the field can hold */         \
  X(kTooShort, "tooShort")     /* fewer than the call needs */            \
  X(kMidStep, "midStep")       /* the call must wait for a step's end */  \
  X(kInternal, "internal")     /* the module disagrees with itself: a bug */

// The fields a problem can be about: the model options, the trainer's
// others, then the calls' arguments (state: restoreState()'s bytes).
#define NORMLAB_PROBLEM_FIELDS(X)            \
  X(kNone, "")                               \
  X(kLayers, "layers")                       \
  X(kHidden, "hidden")                       \
  X(kHeads, "heads")                         \
  X(kNorm, "norm")                           \
  X(kPlacement, "placement")                 \
  X(kEps, "eps")                             \
  X(kSeed, "seed")                           \
  X(kInitStd, "initStd")                     \
  X(kResidualInitScale, "residualInitScale") \
  X(kQkNorm, "qkNorm")                       \
  X(kLr, "lr")                               \
  X(kWarmup, "warmup")                       \
  X(kSteps, "steps")                         \
  X(kSeq, "seq")                             \
  X(kBatch, "batch")                         \
  X(kText, "text")                           \
  X(kPrompt, "prompt")                       \
  X(kTopK, "topK")                           \
  X(kLayer, "layer")                         \
  X(kWhich, "which")                         \
  X(kNBytes, "nBytes")                       \
  X(kTemperature, "temperature")             \
  X(kState, "state")

#define NORMLAB_PROBLEM_ENUMERATOR(name, text) name,
enum class ProblemCode : int { NORMLAB_PROBLEM_CODES(NORMLAB_PROBLEM_ENUMERATOR) };
enum class Field : int { NORMLAB_PROBLEM_FIELDS(NORMLAB_PROBLEM_ENUMERATOR) };
#undef NORMLAB_PROBLEM_ENUMERATOR

#define NORMLAB_PROBLEM_NAME(name, text) text,
inline constexpr const char* kProblemCodeNames[] = {NORMLAB_PROBLEM_CODES(NORMLAB_PROBLEM_NAME)};
inline constexpr const char* kFieldNames[] = {NORMLAB_PROBLEM_FIELDS(NORMLAB_PROBLEM_NAME)};
#undef NORMLAB_PROBLEM_NAME

// No problem (code kNone, empty message), or the first one a check found.
struct Problem {
  ProblemCode code = ProblemCode::kNone;
  Field field = Field::kNone;
  std::string message;

  explicit operator bool() const { return code != ProblemCode::kNone; }
};

}  // namespace normlab::model
