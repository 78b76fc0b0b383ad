// What crosses from the model to JavaScript, declared once: one table per
// result (ForwardResult, GradientResult, ModelConfig) names every value of
// the JS object, its shape in symbolic dimensions and the struct member it
// comes from, in that member's own layout. wasm/bindings.cpp packs a result
// by walking its table and exports the tables to JavaScript once per module
// load; wasm/boundary.js builds the JS objects by walking the same tables.
// A new array is one line in a table; a new probe or statistic one line in
// probes.h. A new result (a struct of its own) is a table like these (its
// dims, flags and entries), one line in describe_boundary() and a call of
// the packer where bindings.cpp fills it; JS reads it as
// boundary.results[name] with nothing added.
//
// Symbols of a shape:
//   named axes, whose entries have names (kNamedAxes):
//     P = layer probes, S = row statistics, F = final-norm probes,
//     N = a layer's two norms; norm and placement name the config's enums
//   each table's dims, whose values a packed result carries:
//     L = layers, T = prompt tokens, H = heads, K = top-k, D = hidden,
//     L+1 = the points of the residual stream (layer inputs and the output)
//
// Packed layout (both sides compute it from the table): one int32 per dim,
// then one per flag (1 set, 0 not), in table order; then each entry whose
// flag is set (or that has none), in table order, aligned to its element
// size, its elements row-major in `shape` order.
//
// An entry's path says where its values go in the JS object: dots separate
// keys, and {X} stands for each name of named axis X. The braced axes are
// the leading symbols of the shape, in order: each combination of their
// names gets one array of the rest of the shape (one number when nothing
// remains). An entry whose flag is not set leaves its path's first key null
// (postNorm: null).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <type_traits>
#include <vector>

#include "model/options.h"
#include "model/probes.h"

namespace normlab::model {

enum class ElementType : int { kFloat32, kInt32, kUint32, kFloat64 };

// The name JavaScript uses for an element type, and its size in bytes.
const char* element_type_name(ElementType type);
std::size_t element_size(ElementType type);

// A member's values as the packer reads them: count elements of type at data.
struct Span {
  const void* data;
  std::size_t count;
  ElementType type;
};

inline Span span_of(const std::vector<float>& v) {
  return {v.data(), v.size(), ElementType::kFloat32};
}
inline Span span_of(const std::vector<int32_t>& v) {
  return {v.data(), v.size(), ElementType::kInt32};
}
inline Span span_of(const float& v) { return {&v, 1, ElementType::kFloat32}; }
inline Span span_of(const int32_t& v) { return {&v, 1, ElementType::kInt32}; }
inline Span span_of(const uint32_t& v) { return {&v, 1, ElementType::kUint32}; }
inline Span span_of(const double& v) { return {&v, 1, ElementType::kFloat64}; }
// An enum crosses as its int32 value; the entry's `names` axis turns it into
// its name in JavaScript.
template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
Span span_of(const E& v) {
  static_assert(sizeof(E) == sizeof(int32_t), "enums cross as int32");
  return {&v, 1, ElementType::kInt32};
}

// An axis whose entries have names.
struct NamedAxis {
  const char* symbol;
  const char* const* names;
  int size;
};

inline constexpr NamedAxis kNamedAxes[] = {
    {"P", kProbeNames, kProbes},
    {"S", kStatNames, kStats},
    {"F", kFinalProbeNames, kFinalProbes},
    {"N", kLayerNormNames, kLayerNorms},
    {"norm", kNormKindNames, static_cast<int>(std::size(kNormKindNames))},
    {"placement", kPlacementNames, static_cast<int>(std::size(kPlacementNames))},
};

// Null if no named axis has this symbol.
const NamedAxis* find_named_axis(std::string_view symbol);

// A dimension whose value each result carries.
template <class R>
struct ResultDim {
  const char* symbol;
  int (*value)(const R&);
};

// A condition some entries are packed under.
template <class R>
struct ResultFlag {
  const char* name;
  bool (*value)(const R&);
};

template <class R>
struct ResultEntry {
  const char* path;   // where the values go in the JS object
  const char* shape;  // packed shape, outermost first, symbols separated by
                      // spaces ("P S L T"); "" for one value
  // The member; null for an entry that holds the names of axis `names`
  // (probeNames) and packs nothing.
  Span (*source)(const R&);
  // The member's own layout when it differs from shape (a permutation of
  // its symbols), else null.
  const char* source_shape = nullptr;
  const char* when = nullptr;   // a flag: packed only when it is set; null: always
  const char* names = nullptr;  // int32 values index this named axis: JS shows the name
};

// The most flags a table may have: the packer keeps their values in an array
// of this size (wasm/packing.h).
inline constexpr int kMaxFlags = 12;

template <class R>
struct ResultTable {
  const char* name;
  const ResultDim<R>* dims;
  int dim_count;
  const ResultFlag<R>* flags;
  int flag_count;
  const ResultEntry<R>* entries;
  int entry_count;
};

// ---------------------------------------------------------------- tables

// An entry's source: member m of the result (any table's).
#define NORMLAB_RESULT_MEMBER(m) [](const auto& r) { return span_of(r.m); }

inline constexpr ResultDim<ForwardResult> kForwardDims[] = {
    {"L", [](const ForwardResult& r) { return r.layers; }},
    {"T", [](const ForwardResult& r) { return r.tokens; }},
    {"H", [](const ForwardResult& r) { return r.heads; }},
    {"K", [](const ForwardResult& r) { return r.top_k; }},
    {"D", [](const ForwardResult& r) { return r.hidden; }},
};
inline constexpr ResultFlag<ForwardResult> kForwardFlags[] = {
    {"post", [](const ForwardResult& r) { return !r.norm_rescale.empty(); }},
};
// Model.forward()'s result (normlab.d.ts: ForwardRun). JavaScript adds
// tokenLabels, read off tokens.
inline constexpr ResultEntry<ForwardResult> kForwardEntries[] = {
    // path, shape, source[, source shape[, when[, names]]]
    {"layers", "", NORMLAB_RESULT_MEMBER(layers)},
    {"hidden", "", NORMLAB_RESULT_MEMBER(hidden)},
    {"heads", "", NORMLAB_RESULT_MEMBER(heads)},
    {"tokens", "T", NORMLAB_RESULT_MEMBER(token_ids)},
    {"probeNames", "P", nullptr, nullptr, nullptr, "P"},
    {"probes.{P}.mean.{S}", "P S L", NORMLAB_RESULT_MEMBER(stats_mean), "L P S"},
    {"probes.{P}.perToken.{S}", "P S L T", NORMLAB_RESULT_MEMBER(stats), "L P T S"},
    {"final.{F}.mean.{S}", "F S", NORMLAB_RESULT_MEMBER(final_stats_mean)},
    {"final.{F}.perToken.{S}", "F S T", NORMLAB_RESULT_MEMBER(final_stats), "F T S"},
    {"attention.entropy", "L T H", NORMLAB_RESULT_MEMBER(attention_entropy)},
    {"attention.maxProb", "L T H", NORMLAB_RESULT_MEMBER(attention_max_prob)},
    {"attention.meanEntropy", "L", NORMLAB_RESULT_MEMBER(attention_entropy_mean)},
    {"attention.meanMaxProb", "L", NORMLAB_RESULT_MEMBER(attention_max_prob_mean)},
    {"postNorm.rescale", "L N T", NORMLAB_RESULT_MEMBER(norm_rescale), nullptr, "post"},
    {"postNorm.product", "L N T", NORMLAB_RESULT_MEMBER(norm_rescale_product), nullptr, "post"},
    {"postNorm.meanRescale", "L N", NORMLAB_RESULT_MEMBER(norm_rescale_mean), nullptr, "post"},
    {"postNorm.meanProduct", "L N", NORMLAB_RESULT_MEMBER(norm_rescale_product_mean), nullptr,
     "post"},
    {"next.tokens", "K", NORMLAB_RESULT_MEMBER(top_tokens)},
    {"next.probs", "K", NORMLAB_RESULT_MEMBER(top_probs)},
    {"next.token", "", NORMLAB_RESULT_MEMBER(next_token)},
};

inline constexpr ResultDim<GradientResult> kGradientDims[] = {
    {"L", [](const GradientResult& r) { return r.layers; }},
    {"T", [](const GradientResult& r) { return r.tokens; }},
    {"L+1", [](const GradientResult& r) { return r.layers + 1; }},
};
inline constexpr ResultFlag<GradientResult> kGradientFlags[] = {
    {"post", [](const GradientResult& r) { return !r.norm_rescale_mean.empty(); }},
};
// Model.gradients()' result (normlab.d.ts: GradientRun).
inline constexpr ResultEntry<GradientResult> kGradientEntries[] = {
    // path, shape, source[, source shape[, when[, names]]]
    {"layers", "", NORMLAB_RESULT_MEMBER(layers)},
    {"tokens", "", NORMLAB_RESULT_MEMBER(tokens)},
    {"loss", "", NORMLAB_RESULT_MEMBER(loss)},
    {"residual", "L+1", NORMLAB_RESULT_MEMBER(residual_grad_l2)},
    {"residualPerToken", "L+1 T", NORMLAB_RESULT_MEMBER(residual_grad_l2_per_token)},
    {"attention", "L", NORMLAB_RESULT_MEMBER(attention_grad_l2)},
    {"mlp", "L", NORMLAB_RESULT_MEMBER(mlp_grad_l2)},
    {"norm", "L", NORMLAB_RESULT_MEMBER(norm_grad_l2)},
    {"layer", "L", NORMLAB_RESULT_MEMBER(layer_grad_l2)},
    {"embedding", "", NORMLAB_RESULT_MEMBER(embedding_grad_l2)},
    {"finalNorm", "", NORMLAB_RESULT_MEMBER(final_norm_grad_l2)},
    {"postNorm.meanRescale", "L N", NORMLAB_RESULT_MEMBER(norm_rescale_mean), nullptr, "post"},
    {"postNorm.meanProduct", "L N", NORMLAB_RESULT_MEMBER(norm_rescale_product_mean), nullptr,
     "post"},
};

// createModel()'s config (normlab.d.ts: ModelConfig): the options resolved.
inline constexpr ResultEntry<ModelConfig> kConfigEntries[] = {
    // path, shape, source[, source shape[, when[, names]]]
    {"layers", "", NORMLAB_RESULT_MEMBER(layers)},
    {"hidden", "", NORMLAB_RESULT_MEMBER(hidden)},
    {"heads", "", NORMLAB_RESULT_MEMBER(heads)},
    {"norm", "", NORMLAB_RESULT_MEMBER(norm), nullptr, nullptr, "norm"},
    {"placement", "", NORMLAB_RESULT_MEMBER(placement), nullptr, nullptr, "placement"},
    {"eps", "", NORMLAB_RESULT_MEMBER(eps_option)},
    {"seed", "", NORMLAB_RESULT_MEMBER(seed)},
};

inline constexpr ResultTable<ForwardResult> kForwardTable = {"forward",
                                                             kForwardDims,
                                                             std::size(kForwardDims),
                                                             kForwardFlags,
                                                             std::size(kForwardFlags),
                                                             kForwardEntries,
                                                             std::size(kForwardEntries)};
inline constexpr ResultTable<GradientResult> kGradientTable = {"gradients",
                                                               kGradientDims,
                                                               std::size(kGradientDims),
                                                               kGradientFlags,
                                                               std::size(kGradientFlags),
                                                               kGradientEntries,
                                                               std::size(kGradientEntries)};
inline constexpr ResultTable<ModelConfig> kConfigTable = {
    "config", nullptr, 0, nullptr, 0, kConfigEntries, std::size(kConfigEntries)};

// ---------------------------------------------------------------- shapes

constexpr int kMaxRank = 4;

// The symbols of a shape string, outermost first.
struct Shape {
  int rank = 0;
  std::string_view symbols[kMaxRank];
};

// Splits "P S L T" at its spaces. Returns false for more than kMaxRank
// symbols.
bool parse_shape(Shape* shape, const char* text);

// The value of every dim of a table, and the size of a symbol given them.
struct DimValues {
  static constexpr int kMaxDims = 8;
  int count = 0;
  std::string_view symbols[kMaxDims];
  int values[kMaxDims] = {};

  // The size of a dim or named axis; -1 for an unknown symbol.
  int size_of(std::string_view symbol) const;
};

// Every table's dims fit a DimValues, and its flags the packer's array.
static_assert(std::size(kForwardDims) <= DimValues::kMaxDims &&
                  std::size(kGradientDims) <= DimValues::kMaxDims,
              "a table has more dims than DimValues holds");
static_assert(std::size(kForwardFlags) <= kMaxFlags && std::size(kGradientFlags) <= kMaxFlags,
              "a table has more flags than the packer holds");

template <class R>
DimValues dim_values(const ResultTable<R>& table, const R& r) {
  DimValues d;
  for (int k = 0; k < table.dim_count && k < DimValues::kMaxDims; k++) {
    d.symbols[k] = table.dims[k].symbol;
    d.values[k] = table.dims[k].value(r);
    d.count = k + 1;
  }
  return d;
}

// The number of elements of a shape given the dims; -1 if a symbol is
// unknown or the shape does not parse.
long long element_count(const char* shape, const DimValues& dims);

}  // namespace normlab::model
