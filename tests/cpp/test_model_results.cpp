// The result tables (model/results.h) against the structs they describe,
// on real forward and gradient passes: every entry's member holds exactly
// the elements its declared shape counts (and an entry left out under its
// flag has an empty member, so nothing is dropped unseen), every symbol is a
// dim or a named axis, a member's own layout names the same symbols as the
// packed shape, and the {X} placeholders of a path lead the shape. The JS
// side of the same tables is tested in tests/js/boundary.test.mjs.
//
// L = layers, T = tokens, K = top-k
#include <catch2/catch.hpp>

#include "model/model.h"
#include "model/results.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

using namespace normlab::model;

namespace {

// The {X} placeholders of a path, in order.
std::vector<std::string_view> placeholders(std::string_view path) {
  std::vector<std::string_view> out;
  for (std::size_t open = path.find('{'); open != std::string_view::npos;
       open = path.find('{', open + 1)) {
    const std::size_t close = path.find('}', open);
    REQUIRE(close != std::string_view::npos);
    out.push_back(path.substr(open + 1, close - open - 1));
  }
  return out;
}

template <class R>
bool flag_set(const char* when, const ResultTable<R>& table, const R& r) {
  for (int f = 0; f < table.flag_count; f++) {
    if (std::strcmp(table.flags[f].name, when) == 0) return table.flags[f].value(r);
  }
  FAIL("unknown flag " << when);
  return false;
}

// Every rule of results.h for one table and one result. Returns the
// number of entries packed (present, with data).
template <class R>
int check_table(const ResultTable<R>& table, const R& r) {
  const DimValues dims = dim_values(table, r);
  REQUIRE(dims.count == table.dim_count);
  for (int k = 0; k < dims.count; k++) {
    INFO(table.name << " dim " << dims.symbols[k]);
    CHECK(dims.values[k] >= 1);
    CHECK(find_named_axis(dims.symbols[k]) == nullptr);  // one meaning per symbol
  }
  int packed = 0;
  for (int i = 0; i < table.entry_count; i++) {
    const ResultEntry<R>& e = table.entries[i];
    INFO(table.name << " entry " << e.path);
    Shape shape;
    REQUIRE(parse_shape(&shape, e.shape));
    for (int k = 0; k < shape.rank; k++) {
      INFO("symbol " << shape.symbols[k]);
      CHECK(dims.size_of(shape.symbols[k]) >= 0);
    }
    const std::vector<std::string_view> lead = placeholders(e.path);
    REQUIRE(static_cast<int>(lead.size()) <= shape.rank);
    for (std::size_t k = 0; k < lead.size(); k++) {
      CHECK(lead[k] == shape.symbols[k]);
      CHECK(find_named_axis(lead[k]) != nullptr);
    }
    if (e.source == nullptr) {
      // The names of an axis: its shape is that axis.
      REQUIRE(e.names != nullptr);
      CHECK(shape.rank == 1);
      CHECK(shape.symbols[0] == e.names);
      CHECK(find_named_axis(e.names) != nullptr);
      continue;
    }
    const Span span = e.source(r);
    if (e.when != nullptr && !flag_set(e.when, table, r)) {
      CHECK(span.count == 0);
      continue;
    }
    packed++;
    CHECK(static_cast<long long>(span.count) == element_count(e.shape, dims));
    if (e.source_shape != nullptr) {
      Shape source;
      REQUIRE(parse_shape(&source, e.source_shape));
      REQUIRE(source.rank == shape.rank);
      for (int k = 0; k < shape.rank; k++) {
        CHECK(std::count(source.symbols, source.symbols + source.rank, shape.symbols[k]) == 1);
      }
      CHECK(static_cast<long long>(span.count) == element_count(e.source_shape, dims));
    }
    if (e.names != nullptr) {
      // An enum: one value, a valid index into its names.
      const NamedAxis* axis = find_named_axis(e.names);
      REQUIRE(axis != nullptr);
      REQUIRE(span.type == ElementType::kInt32);
      REQUIRE(span.count == 1);
      int32_t v;
      std::memcpy(&v, span.data, sizeof v);
      CHECK((v >= 0 && v < axis->size));
    }
  }
  return packed;
}

ModelOptions small(const char* norm, const char* placement) {
  ModelOptions o;
  o.layers = 3;
  o.hidden = 64;
  o.heads = 4;
  o.norm = norm;
  o.placement = placement;
  return o;
}

}  // namespace

TEST_CASE("every result table entry matches the member it reads", "[model][results]") {
  struct Config {
    const char* norm;
    const char* placement;
    bool post;  // the post-norm arrays are present
  };
  const Config configs[] = {{"rmsnorm", "pre", false},
                            {"rmsnorm", "post", true},
                            {"layernorm", "post", true},
                            {"none", "post", false}};
  const char* const prompts[] = {"x", "RMSNorm", "\xe4\xbd\xa0\xe5\xa5\xbd"};  // 你好
  const int forward_entries = static_cast<int>(kForwardTable.entry_count);
  const int gradient_entries = static_cast<int>(kGradientTable.entry_count);
  for (const Config& c : configs) {
    Model model(small(c.norm, c.placement));
    REQUIRE(!model.problem());
    INFO(c.norm << " " << c.placement);
    check_table(kConfigTable, model.config());
    for (const char* prompt : prompts) {
      for (const int depth : {0, 2}) {
        for (const int top_k : {1, 7}) {
          INFO("prompt " << prompt << ", depth " << depth << ", top_k " << top_k);
          REQUIRE(model.forward(prompt, top_k, depth).empty());
          // Everything but probeNames packs data; the four postNorm arrays
          // only after post-norm.
          CHECK(check_table(kForwardTable, model.forward_result()) ==
                forward_entries - 1 - (c.post ? 0 : 4));
        }
      }
      if (std::strlen(prompt) >= 2) {
        REQUIRE(model.gradients(prompt).empty());
        CHECK(check_table(kGradientTable, model.gradient_result()) ==
              gradient_entries - (c.post ? 0 : 2));
      }
    }
  }
}

TEST_CASE("the named axes are the lists the model writes", "[model][results]") {
  for (const NamedAxis& axis : kNamedAxes) {
    INFO(axis.symbol);
    CHECK(find_named_axis(axis.symbol) == &axis);
    REQUIRE(axis.size > 0);
    for (int k = 0; k < axis.size; k++) {
      CHECK(std::count_if(axis.names, axis.names + axis.size, [&](const char* name) {
              return std::strcmp(name, axis.names[k]) == 0;
            }) == 1);
    }
  }
  CHECK(find_named_axis("P")->size == kProbes);
  CHECK(std::string(find_named_axis("P")->names[kPostAttnNormNormed]) ==
        "postAttentionNorm.normed");
  CHECK(find_named_axis("S")->size == kStats);
  CHECK(std::string(find_named_axis("S")->names[5]) == "maxAbs");
  CHECK(std::string(find_named_axis("F")->names[kFinalNormOut]) == "finalNorm.out");
  CHECK(std::string(find_named_axis("norm")->names[static_cast<int>(NormKind::layernorm)]) ==
        "layernorm");
  CHECK(std::string(find_named_axis("placement")->names[static_cast<int>(Placement::post)]) ==
        "post");
  CHECK(find_named_axis("L") == nullptr);
}

TEST_CASE("shapes parse into their symbols", "[model][results]") {
  Shape s;
  REQUIRE(parse_shape(&s, "P S L T"));
  REQUIRE(s.rank == 4);
  CHECK(s.symbols[0] == "P");
  CHECK(s.symbols[3] == "T");
  REQUIRE(parse_shape(&s, "L+1 T"));
  REQUIRE(s.rank == 2);
  CHECK(s.symbols[0] == "L+1");
  REQUIRE(parse_shape(&s, ""));
  CHECK(s.rank == 0);
  CHECK_FALSE(parse_shape(&s, "A B C D E"));

  GradientResult r;
  r.layers = 5;
  r.tokens = 3;
  const DimValues dims = dim_values(kGradientTable, r);
  CHECK(element_count("L+1 T", dims) == 18);
  CHECK(element_count("L N", dims) == 10);
  CHECK(element_count("", dims) == 1);
  CHECK(element_count("L Q", dims) == -1);
}
