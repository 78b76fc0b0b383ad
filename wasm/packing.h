// What both wasm modules' Embind blocks share: the main module's
// (bindings.cpp: kernels, Workspace, model) and the trainer's
// (train_bindings.cpp). Each module is one translation unit that includes
// this file once, so everything here has internal linkage: each module has
// its own leak count and its own copy of the packer.
//
// - The packer: a result packed as its table declares (src/model/results.h:
//   the packed layout), read in JS by wasm/boundary.js.
// - The description: the JSON each module's boundary() returns, built by
//   walking the same tables (describe(), describe_axes()).
// - The leak count and memoryInfo(): every buffer, tensor, Workspace, Model
//   and Trainer a module holds is counted in its g_live_allocations.
// - Problems as JS receives them (JsProblem), and the option tables
//   (model/option_table.h) as Embind field lists (register_options) and in
//   the description (describe_options).
// - Test support: identity_value() and fill_identity(), values naming an
//   entry and an element (tests/js/boundary.test.mjs, trainer.test.mjs).
#pragma once

#include <emscripten/bind.h>
#include <emscripten/heap.h>

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "model/option_table.h"
#include "model/problem.h"
#include "model/results.h"

namespace {

namespace nm = normlab::model;

// The module's counted objects alive right now (the main module's buffers,
// tensors, Workspaces and Models; the trainer module's Trainers).
unsigned g_live_allocations = 0;

// Values that name an array entry and an element, for the identity packings:
// entry * 65536 + element. Exact in float32 for entries < 256 and elements
// < 65536 (the tests keep their shapes that small).
constexpr int kIdentityStride = 65536;
double identity_value(int entry, std::size_t element) {
  return static_cast<double>(entry) * kIdentityStride +
         static_cast<double>(element % kIdentityStride);
}

// What a leak test looks at. heapBytes is the wasm memory size, which only
// ever grows; mallocBytes and liveAllocations come back down when nothing leaks.
struct MemoryInfo {
  unsigned heap_bytes;
  unsigned malloc_bytes;
  unsigned live_allocations;
};

MemoryInfo memory_info() {
  const struct mallinfo m = mallinfo();
  return {static_cast<unsigned>(emscripten_get_heap_size()), static_cast<unsigned>(m.uordblks),
          g_live_allocations};
}

// A Problem as JS receives it: code and field as their enum values, whose
// names the description lists (problems).
struct JsProblem {
  int code;
  int field;
  std::string message;
};

JsProblem to_js(const nm::Problem& p) {
  return {static_cast<int>(p.code), static_cast<int>(p.field), p.message};
}

// ---------------------------------------------------------------- packing
//
// A result packed as its table declares (src/model/results.h: the packed
// layout): a header of the dims' and flags' int32 values, then each entry
// present, aligned to its element size, in its declared shape's order.

std::size_t align_up(std::size_t offset, std::size_t alignment) {
  return (offset + alignment - 1) / alignment * alignment;
}

// Copies a member laid out as `from` into `to`'s order (the same symbols,
// permuted): dst[to-index] = src[from-index], for elements of kBytes bytes.
template <std::size_t kBytes>
void permuted_copy(uint8_t* dst, const uint8_t* src, const nm::Shape& to, const nm::Shape& from,
                   const nm::DimValues& dims) {
  // size[k], stride[k]: to's axis k, and the src elements between
  // neighbours along it.
  std::size_t size[nm::kMaxRank] = {1}, stride[nm::kMaxRank] = {1};
  for (int k = 0; k < to.rank; ++k) {
    std::size_t s = 1;
    for (int j = from.rank - 1; j >= 0 && from.symbols[j] != to.symbols[k]; --j) {
      s *= static_cast<std::size_t>(dims.size_of(from.symbols[j]));
    }
    size[k] = static_cast<std::size_t>(dims.size_of(to.symbols[k]));
    stride[k] = s;
  }
  // The innermost axis in a plain loop; an odometer over the outer ones.
  const int inner = std::max(to.rank - 1, 0);
  const std::size_t n = size[inner], step = stride[inner];
  std::size_t outer = 1;
  for (int k = 0; k < inner; ++k) outer *= size[k];
  std::size_t index[nm::kMaxRank] = {};
  std::size_t at = 0;  // the src element of index, with the innermost at 0
  for (std::size_t o = 0; o < outer; ++o) {
    for (std::size_t i = 0; i < n; ++i, dst += kBytes) {
      std::memcpy(dst, src + (at + i * step) * kBytes, kBytes);
    }
    for (int k = inner - 1; k >= 0; --k) {
      at += stride[k];
      if (++index[k] < size[k]) break;
      at -= stride[k] * size[k];
      index[k] = 0;
    }
  }
}

// True if `from` names each of `to`'s symbols once.
bool is_permutation(const nm::Shape& to, const nm::Shape& from) {
  if (to.rank != from.rank) return false;
  for (int k = 0; k < to.rank; ++k) {
    if (std::count(from.symbols, from.symbols + from.rank, to.symbols[k]) != 1) return false;
  }
  return true;
}

// The bytes the packing of a result with these dims takes at most: every
// entry present (every flag set). bytes: header and entries, aligned as
// pack() lays them out; -1 if a shape does not parse.
template <class R>
long long largest_packing(const nm::ResultTable<R>& table, const nm::DimValues& dims) {
  std::size_t end = static_cast<std::size_t>(table.dim_count + table.flag_count) * 4;
  const R blank{};  // only for the entries' element types
  for (int i = 0; i < table.entry_count; ++i) {
    const nm::ResultEntry<R>& e = table.entries[i];
    if (e.source == nullptr) continue;
    const long long n = nm::element_count(e.shape, dims);
    if (n < 0) return -1;
    const std::size_t es = nm::element_size(e.source(blank).type);
    end = align_up(end, es) + static_cast<std::size_t>(n) * es;
  }
  return static_cast<long long>(end);
}

// Packs r into *out (resized to fit; its capacity is kept across calls).
// dims: the table's dim values, from r itself except for the identity
// packing. Returns the path of the first entry that does not match its
// declaration (unknown symbol, wrong member size), or null; then *out is
// left incomplete and must not be read.
template <class R>
const char* pack(std::vector<uint8_t>* out, const nm::ResultTable<R>& table, const R& r,
                 const nm::DimValues& dims) {
  // No table has more (the static_asserts beside the tables).
  bool flags[nm::kMaxFlags] = {};
  for (int f = 0; f < table.flag_count && f < nm::kMaxFlags; ++f)
    flags[f] = table.flags[f].value(r);
  const auto present = [&](const nm::ResultEntry<R>& e) {
    if (e.source == nullptr) return false;
    if (e.when == nullptr) return true;
    for (int f = 0; f < table.flag_count; ++f) {
      if (std::strcmp(table.flags[f].name, e.when) == 0) return flags[f];
    }
    return false;
  };

  // Sizes first, so that the buffer is resized once.
  const std::size_t header = static_cast<std::size_t>(table.dim_count + table.flag_count) * 4;
  std::size_t end = header;
  for (int i = 0; i < table.entry_count; ++i) {
    const nm::ResultEntry<R>& e = table.entries[i];
    if (!present(e)) continue;
    const nm::Span s = e.source(r);
    const long long n = nm::element_count(e.shape, dims);
    if (n < 0 || static_cast<std::size_t>(n) != s.count) return e.path;
    const std::size_t es = nm::element_size(s.type);
    end = align_up(end, es) + s.count * es;
  }
  out->resize(end);
  uint8_t* bytes = out->data();
  for (int k = 0; k < table.dim_count; ++k) {
    const int32_t v = dims.values[k];
    std::memcpy(bytes + 4 * k, &v, 4);
  }
  for (int f = 0; f < table.flag_count; ++f) {
    const int32_t v = flags[f] ? 1 : 0;
    std::memcpy(bytes + 4 * (table.dim_count + f), &v, 4);
  }

  std::size_t at = header;
  for (int i = 0; i < table.entry_count; ++i) {
    const nm::ResultEntry<R>& e = table.entries[i];
    if (!present(e)) continue;
    const nm::Span s = e.source(r);
    const std::size_t es = nm::element_size(s.type);
    at = align_up(at, es);
    const auto* src = static_cast<const uint8_t*>(s.data);
    if (e.source_shape == nullptr) {
      if (s.count != 0) std::memcpy(bytes + at, src, s.count * es);
    } else {
      nm::Shape to, from;
      const bool valid = nm::parse_shape(&to, e.shape) && nm::parse_shape(&from, e.source_shape) &&
                         is_permutation(to, from) &&
                         nm::element_count(e.source_shape, dims) == static_cast<long long>(s.count);
      if (!valid) return e.path;
      if (es == 8) {
        permuted_copy<8>(bytes + at, src, to, from, dims);
      } else {
        permuted_copy<4>(bytes + at, src, to, from, dims);
      }
    }
    at += s.count * es;
  }
  return nullptr;
}

// Test support: overwrites every entry's member in *r with
// identity_value(entry index, element index in the member's own layout).
template <class R>
void fill_identity(R* r, const nm::ResultTable<R>& table) {
  for (int i = 0; i < table.entry_count; ++i) {
    const nm::ResultEntry<R>& e = table.entries[i];
    if (e.source == nullptr) continue;
    const nm::Span s = e.source(*r);
    // The span points into *r, which is ours to write.
    auto* data = static_cast<uint8_t*>(const_cast<void*>(s.data));
    for (std::size_t k = 0; k < s.count; ++k) {
      const double v = identity_value(i, k);
      switch (s.type) {
        case nm::ElementType::kFloat32: {
          const float f = static_cast<float>(v);
          std::memcpy(data + 4 * k, &f, 4);
          break;
        }
        case nm::ElementType::kInt32: {
          const int32_t n = static_cast<int32_t>(v);
          std::memcpy(data + 4 * k, &n, 4);
          break;
        }
        case nm::ElementType::kUint32: {
          const uint32_t n = static_cast<uint32_t>(v);
          std::memcpy(data + 4 * k, &n, 4);
          break;
        }
        case nm::ElementType::kFloat64:
          std::memcpy(data + 8 * k, &v, 8);
          break;
      }
    }
  }
}

// ---------------------------------------------------------------- description
//
// The JSON a module's boundary() returns (wasm/boundary.js reads it):
//   axes:      { symbol: [names] }                       the named axes
//   results:   { name: {                                 main module: forward,
//                  dims: [symbol], flags: [name],          gradients, config;
//                  entries: [{ path, type,                 trainer module:
//                              shape: [symbol],            trainRun, trainConfig,
//                              source?: [symbol],          trainLayerNorms
//                              when?, names? }] } }      type "names": no data
//   workspace: { dims: [symbol], buffers: [{ name, type, shape, need }] }
//                                                        main module only
//   problems:  { codes: [name], fields: [name] }         indexed by value
//   options:   { table: [{ name, kind, default,          main module: model;
//                  lo?, hi?, choices?,                     trainer module:
//                  computedDefault?, cap?: { by,           trainer, generate
//                  divisor }, positional?,
//                  heldOutParts? }] }
//              default: the struct member's initializer (null when it is
//              computed, or for a positional argument); hi absent for no
//              upper bound. One entry per row of the option table, in order.

class Json {
 public:
  const std::string& text() const { return text_; }
  Json& raw(const char* s) {
    text_ += s;
    return *this;
  }
  Json& string(std::string_view s) {
    text_ += '"';
    for (const char c : s) {
      if (c == '"' || c == '\\') text_ += '\\';
      text_ += c;
    }
    text_ += '"';
    return *this;
  }
  // A key of the enclosing object; its value follows without a comma.
  Json& key(const char* k) {
    comma();
    return string(k).raw(":");
  }
  // An element of the enclosing array or object; the next one gets a comma.
  Json& comma() {
    if (!first_) text_ += ',';
    first_ = false;
    return *this;
  }
  Json& open(const char* bracket) {
    text_ += bracket;
    first_ = true;
    return *this;
  }
  Json& close(const char* bracket) {
    text_ += bracket;
    first_ = false;
    return *this;
  }
  Json& number(long long v) {
    text_ += std::to_string(v);
    return *this;
  }
  // A finite double as nm::decimal_text writes it (64, 0.003,
  // 4294967295); null for NaN or an infinity, which JSON lacks.
  Json& real(double v) {
    if (!std::isfinite(v)) return raw("null");
    text_ += nm::decimal_text(v);
    return *this;
  }
  Json& symbols(const char* shape) {
    nm::Shape s;
    nm::parse_shape(&s, shape);
    open("[");
    for (int k = 0; k < s.rank; ++k) comma().string(s.symbols[k]);
    return close("]");
  }
  template <class Names>
  Json& strings(const Names& names, int n) {
    open("[");
    for (int k = 0; k < n; ++k) comma().string(names[k]);
    return close("]");
  }

 private:
  std::string text_;
  bool first_ = true;
};

template <class R>
void describe(Json* j, const nm::ResultTable<R>& table) {
  const R blank{};  // only for the entries' element types
  j->key(table.name).open("{");
  j->key("dims").open("[");
  for (int k = 0; k < table.dim_count; ++k) j->comma().string(table.dims[k].symbol);
  j->close("]");
  j->key("flags").open("[");
  for (int f = 0; f < table.flag_count; ++f) j->comma().string(table.flags[f].name);
  j->close("]");
  j->key("entries").open("[");
  for (int i = 0; i < table.entry_count; ++i) {
    const nm::ResultEntry<R>& e = table.entries[i];
    j->comma().open("{");
    j->key("path").string(e.path);
    const char* type = e.source == nullptr ? "names" : nm::element_type_name(e.source(blank).type);
    j->key("type").string(type);
    j->key("shape").symbols(e.shape);
    if (e.source_shape != nullptr) j->key("source").symbols(e.source_shape);
    if (e.when != nullptr) j->key("when").string(e.when);
    if (e.names != nullptr) j->key("names").string(e.names);
    j->close("}");
  }
  j->close("]");
  j->close("}");
}

// One option table, as a member of the description's "options".
template <class O, class C>
void describe_options(Json* j, const nm::OptionTable<O, C>& table) {
  const O defaults{};
  j->key(table.name).open("[");
  for (int i = 0; i < table.count; ++i) {
    const nm::OptionSpec<O, C>& s = table.specs[i];
    const bool numeric = s.number != nullptr;
    j->comma().open("{");
    j->key("name").string(s.name);
    j->key("kind").string(nm::kOptionKindNames[static_cast<int>(s.kind)]);
    j->key("default");
    if (s.positional || s.computed_default != nullptr) {
      j->raw("null");
    } else if (s.kind == nm::OptionKind::kBoolean) {
      j->raw(defaults.*s.number != 0 ? "true" : "false");
    } else if (numeric) {
      j->real(defaults.*s.number);
    } else {
      j->string(defaults.*s.string);
    }
    if (numeric && s.kind != nm::OptionKind::kBoolean) {
      j->key("lo").real(s.lo);
      if (s.kind != nm::OptionKind::kFiniteAbove) j->key("hi").real(s.hi);
    }
    if (s.kind == nm::OptionKind::kChoice) j->key("choices").strings(s.choices, s.choice_count);
    if (s.computed_default != nullptr) j->key("computedDefault").string(s.computed_default);
    if (s.cap_by != nullptr) {
      j->key("cap").open("{");
      j->key("by").string(s.cap_by);
      j->key("divisor").number(s.cap_divisor);
      j->close("}");
    }
    if (s.positional) j->key("positional").raw("true");
    if (s.held_out_parts != 0) j->key("heldOutParts").number(s.held_out_parts);
    j->close("}");
  }
  j->close("]");
}

// The problem codes and fields, as the description's "problems" member.
void describe_problems(Json* j) {
  j->key("problems").open("{");
  j->key("codes").strings(nm::kProblemCodeNames,
                          static_cast<int>(std::size(nm::kProblemCodeNames)));
  j->key("fields").strings(nm::kFieldNames, static_cast<int>(std::size(nm::kFieldNames)));
  j->close("}");
}

// The Embind field list of an options struct: one field per option of the
// table, by its JS name.
template <class O, class C>
void register_options(emscripten::value_object<O>* object, const nm::OptionTable<O, C>& table) {
  for (int i = 0; i < table.count; ++i) {
    const nm::OptionSpec<O, C>& s = table.specs[i];
    if (s.number != nullptr) {
      object->field(s.name, s.number);
    } else {
      object->field(s.name, s.string);
    }
  }
}

// The named axes, as the description's "axes" member.
void describe_axes(Json* j) {
  j->key("axes").open("{");
  for (const nm::NamedAxis& axis : nm::kNamedAxes) {
    j->key(axis.symbol).strings(axis.names, axis.size);
  }
  j->close("}");
}

}  // namespace
