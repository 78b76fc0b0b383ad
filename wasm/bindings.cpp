// normlab's JavaScript boundary: the Embind block of the main wasm module
// (kernels, Workspace, tensors, the synthetic model). wasm/normlab.js and
// wasm/model.js wrap it in the public API (through wasm/boundary.js); nothing
// else calls it. The trainer is a module of its own (train_bindings.cpp);
// the packer, the description's pieces and the leak count both use are in
// packing.h.
//
// T = rows, D = row length (dim), S = row statistics (6); the model's
// symbols are listed in src/model/results.h
//
// Design
// - The boundary is declared once, in tables both sides walk: the Workspace's
//   buffers (kWorkspaceBuffers below) and the model's results
//   (src/model/results.h) each have a name, an element type and a shape in
//   symbolic dimensions. boundary() exports them, with the named axes'
//   names, the problem codes and fields and the model's option table
//   (src/model/options.h), as one JSON description that JS
//   reads once per module load (wasm/boundary.js); JS then finds every
//   buffer and builds every result object by name from it. Nothing is laid
//   out by position on one side and replayed on the other.
// - A long-lived Workspace owns every buffer a kernel call needs: input
//   (T, D), gain and bias (D), output (T, D) and the per-row results (T, or
//   (T, S) for the statistics). JS writes the inputs straight into the wasm
//   heap, runs one kernel on them, and copies the results out with one
//   .slice() (or one .set() into a caller's array).
// - Tensors (nl.tensor() in JS) are plain malloc'd float arrays that live in
//   the wasm memory until JS frees them (nl_tensor_alloc / nl_tensor_free).
//   The kernel exports take the address of every row-sized input and output
//   (x, out, gain, bias), so JS points them either at Workspace buffers (the
//   copying API) or straight at tensors (no copy at all); the per-row results
//   (rstd, mean, stats, ...) always stay in the Workspace. resize() takes flags
//   saying which of the two (T, D) buffers a call needs, so calls on tensors
//   do not allocate copies they never use.
// - The hot path is plain C functions (extern "C", nl_ws_*), called directly as
//   module._nl_ws_*: an Embind call costs microseconds under
//   DYNAMIC_EXECUTION=0 (its invokers are generic closures, no generated
//   code), a direct wasm export call tens of nanoseconds. Embind keeps the
//   Workspace's lifetime (new / delete, counted by the leak tests), the model,
//   the description and memoryInfo. The nl_ws_* functions take the
//   Workspace's address, which JS gets once from Workspace::handle(). A
//   steady-state op is then exactly one wasm call: JS remembers the shape of
//   the last resize and calls nl_ws_resize only when the shape changes.
// - Buffer addresses: resize() writes the byte address of every buffer into
//   the Workspace's layout array, in table order, which JS reads from the
//   heap right after each nl_ws_resize (nl_ws_layout gives its address) at
//   the index the description gives each buffer's name.
// - The view rule: a typed array on the wasm memory is a window on the memory
//   as it is now. Anything that grows memory (Workspace::resize, or anything
//   else that allocates: the model, Embind) replaces the memory's ArrayBuffer
//   and leaves older views empty. JS uses the Float32Array over the whole
//   heap that Emscripten replaces on every growth (module.HEAPF32), read
//   afresh on every op, after any resize and before writing inputs. Kernel
//   calls do not allocate, so the view stays valid from the input write to
//   the output copy.
//   Views handed out by the model (packed(), gains()) are taken fresh right
//   after the call that filled them and never kept across calls. A tensor's
//   view (its .array) follows the same rule on its own: it is re-taken
//   whenever the memory's buffer has changed. Kernels only ever see
//   addresses, which a growth leaves unchanged.
// - Buffers only grow (each keeps its high-water size), so calls with familiar
//   sizes do not touch malloc at all.
// - Nothing here throws: the shipped modules are built without exceptions, and
//   a C++ exception would reach JS as a bare number. The JS wrapper checks
//   every argument's type (and the kernels' arguments entirely) before it
//   gets here; the model's checks return a Problem (code, field, message:
//   src/model/problem.h), from which JS picks the error class; resize()
//   reports an allocation failure (the 512 MiB memory limit) by returning
//   false.
// - Leak accounting: every buffer, tensor, Workspace and Model is counted
//   (liveAllocations), and memoryInfo() also reports the bytes malloc has handed
//   out and not yet had back, which covers allocations made anywhere in the
//   module (Embind's included), so tests can prove that calls leak nothing.
// - The synthetic model (src/model) is one long-lived Model object per JS
//   model. Its results are many small arrays; building them as Embind objects
//   would cost milliseconds, so each call packs its result into one byte
//   buffer, by walking the result's table (the packed layout is in
//   results.h). JS takes a view of it right after the call, .slice()s it at
//   once and builds the public object from typed views of that one copy; so
//   one buffer serves every model of the module. The models share their
//   other scratch too (src/model/model.h: "Memory").
// - Test support: pack_identity_for_tests and nl_ws_fill_identity_for_tests
//   fill every result entry and Workspace buffer with values naming the
//   entry and the element, so that a test can show each named array got its
//   own data (tests/js/boundary.test.mjs).
#include <emscripten/bind.h>
#include <emscripten/em_macros.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "model/model.h"
#include "model/problem.h"
#include "model/results.h"
#include "normlab/kernels.h"
#include "packing.h"

namespace {

using emscripten::typed_memory_view;
using emscripten::val;
using normlab::RowStats;

// Grow-only storage for elements of a trivially copyable type. Contents are not
// kept across a grow: every call writes its inputs afresh.
template <class T>
class GrowBuffer {
 public:
  GrowBuffer() = default;
  GrowBuffer(const GrowBuffer&) = delete;
  GrowBuffer& operator=(const GrowBuffer&) = delete;
  ~GrowBuffer() { release(); }

  T* data() const { return data_; }
  std::size_t capacity() const { return capacity_; }

  // Take over `storage` (from malloc, n elements), freeing the old storage.
  void adopt(T* storage, std::size_t n) {
    release();
    data_ = storage;
    capacity_ = n;
    ++g_live_allocations;
  }

 private:
  void release() {
    if (data_ == nullptr) return;
    std::free(data_);
    data_ = nullptr;
    capacity_ = 0;
    --g_live_allocations;
  }

  T* data_ = nullptr;
  std::size_t capacity_ = 0;
};

// ---------------------------------------------------------------- workspace

// Which (T, D) buffers resize() must provide; the others always are.
constexpr int kNeedInput = 1, kNeedOutput = 2;

// The Workspace's buffers, in layout order: X(enumerator, name in JS, shape,
// the resize() flag it is provided under, or 0 for always). All float32;
// stats holds T RowStats records, S floats each.
#define NORMLAB_WORKSPACE_BUFFERS(X)       \
  X(kInput, "input", "T D", kNeedInput)    \
  X(kGain, "gain", "D", 0)                 \
  X(kBias, "bias", "D", 0)                 \
  X(kOutput, "output", "T D", kNeedOutput) \
  X(kMean, "mean", "T", 0)                 \
  X(kRstd, "rstd", "T", 0)                 \
  X(kEntropy, "entropy", "T", 0)           \
  X(kMaxProb, "maxProb", "T", 0)           \
  X(kStats, "stats", "T S", 0)

#define NORMLAB_BUFFER_ENUMERATOR(id, name, shape, need) id,
enum Buffer : int { NORMLAB_WORKSPACE_BUFFERS(NORMLAB_BUFFER_ENUMERATOR) kBufferCount };
#undef NORMLAB_BUFFER_ENUMERATOR

struct BufferSpec {
  const char* name;
  const char* shape;
  int need;
};
#define NORMLAB_BUFFER_SPEC(id, name, shape, need) {name, shape, need},
constexpr BufferSpec kWorkspaceBuffers[kBufferCount] = {
    NORMLAB_WORKSPACE_BUFFERS(NORMLAB_BUFFER_SPEC)};
#undef NORMLAB_BUFFER_SPEC

// The workspace's dims, in the order the description lists them.
nm::DimValues workspace_dims(int T, int D) {
  nm::DimValues d;
  d.count = 2;
  d.symbols[0] = "T", d.values[0] = T;
  d.symbols[1] = "D", d.values[1] = D;
  return d;
}

// All buffers of one kernel call, sized for the current shape (T, D).
class Workspace {
 public:
  Workspace() { ++g_live_allocations; }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  ~Workspace() { --g_live_allocations; }

  // Set the shape to T rows of D, with room for the (T, D) buffers `need`
  // names (kNeedInput | kNeedOutput; the others keep whatever size they
  // had). May grow wasm memory: views taken before are invalid afterwards.
  // Returns false, changing nothing, when the memory cannot hold the buffers.
  bool resize(int T, int D, int need) {
    if (T < 0 || D < 1) return false;
    const nm::DimValues dims = workspace_dims(T, D);
    float* fresh[kBufferCount] = {};
    std::size_t sizes[kBufferCount] = {};
    bool ok = true;
    for (int k = 0; k < kBufferCount && ok; ++k) {
      const BufferSpec& b = kWorkspaceBuffers[k];
      if (b.need != 0 && (need & b.need) == 0) continue;
      const long long n = nm::element_count(b.shape, dims);
      if (n < 0 || static_cast<unsigned long long>(n) > SIZE_MAX / sizeof(float)) {
        ok = false;
      } else if (static_cast<std::size_t>(n) > buffers_[k].capacity()) {
        sizes[k] = static_cast<std::size_t>(n);
        fresh[k] = static_cast<float*>(std::malloc(sizes[k] * sizeof(float)));
        ok = fresh[k] != nullptr;
      }
    }
    if (!ok) {
      for (float* p : fresh) std::free(p);
      return false;
    }
    for (int k = 0; k < kBufferCount; ++k) {
      if (fresh[k] != nullptr) buffers_[k].adopt(fresh[k], sizes[k]);
      layout_[k] = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(buffers_[k].data()));
    }
    T_ = T;
    D_ = D;
    return true;
  }

  // Byte addresses of the buffers after the last resize, in table order (JS
  // reads them as uint32). Null (0) before the first resize. The input and
  // output buffers hold T * D floats only if the last resize needed them.
  const uint32_t* layout() const { return layout_; }

  // The address the nl_ws_* functions take (wasm32: fits a JS number).
  double handle() const { return static_cast<double>(reinterpret_cast<uintptr_t>(this)); }

  // Kernels on the current shape. inp and out are (T, D) and gain, bias (D)
  // anywhere in the memory (Workspace buffers or tensors; gain, bias null for
  // none; out may be inp); the per-row results go to the Workspace.
  void rmsnorm(float* out, const float* inp, const float* gain, float eps) {
    normlab::rmsnorm_forward(out, buffer(kRstd), inp, gain, T_, D_, eps);
  }
  void layernorm(float* out, const float* inp, const float* gain, const float* bias, float eps) {
    normlab::layernorm_forward(out, buffer(kMean), buffer(kRstd), inp, gain, bias, T_, D_, eps);
  }
  void softmax(float* out, const float* inp, float temperature) {
    normlab::softmax_forward(out, inp, T_, D_, temperature);
  }
  void row_stats(const float* inp) {
    normlab::row_stats(reinterpret_cast<RowStats*>(buffer(kStats)), inp, T_, D_);
  }
  void distribution_stats(const float* inp) {
    normlab::distribution_stats(buffer(kEntropy), buffer(kMaxProb), inp, T_, D_);
  }
  void copy_rows(float* out, const float* inp) { normlab::copy_rows(out, inp, T_, D_); }

  // Test support: every buffer's elements at the current shape (as far as
  // it holds them) set to identity_value(its table index, element).
  void fill_identity() {
    const nm::DimValues dims = workspace_dims(T_, D_);
    for (int k = 0; k < kBufferCount; ++k) {
      const long long shaped = nm::element_count(kWorkspaceBuffers[k].shape, dims);
      const std::size_t n =
          std::min(buffers_[k].capacity(), static_cast<std::size_t>(std::max(0LL, shaped)));
      float* data = buffers_[k].data();
      for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<float>(identity_value(k, i));
    }
  }

 private:
  float* buffer(Buffer k) const { return buffers_[k].data(); }

  int T_ = 0, D_ = 1;
  uint32_t layout_[kBufferCount] = {};
  GrowBuffer<float> buffers_[kBufferCount];
};

std::string kernel_arch_name() { return normlab::kernel_arch_name(); }

std::string describe_boundary() {
  Json j;
  j.open("{");
  describe_axes(&j);
  j.key("results").open("{");
  describe(&j, nm::kForwardTable);
  describe(&j, nm::kGradientTable);
  describe(&j, nm::kConfigTable);
  j.close("}");
  j.key("workspace").open("{");
  j.key("dims").symbols("T D");
  j.key("buffers").open("[");
  for (const BufferSpec& b : kWorkspaceBuffers) {
    j.comma().open("{");
    j.key("name").string(b.name);
    j.key("type").string("float32");
    j.key("shape").symbols(b.shape);
    j.key("need").number(b.need);
    j.close("}");
  }
  j.close("]");
  j.close("}");
  describe_problems(&j);
  j.key("options").open("{");
  describe_options(&j, nm::kModelOptions);
  j.close("}");
  j.close("}");
  return j.text();
}

// ---------------------------------------------------------------- model

// Every handle packs its results into this one buffer, and JS .slice()s
// it right after the call that filled it: one call runs at a time, so one
// buffer serves every model. It is reserved for the largest forward result
// of the first model that runs one (see ModelHandle::forward), which keeps
// a long session's prompts of growing length from reallocating it.
std::vector<uint8_t>& packed_buffer() {
  static std::vector<uint8_t> buffer;
  return buffer;
}

class ModelHandle {
 public:
  explicit ModelHandle(const nm::ModelOptions& options) : model_(options) { ++g_live_allocations; }
  ModelHandle(const ModelHandle&) = delete;
  ModelHandle& operator=(const ModelHandle&) = delete;
  ~ModelHandle() { --g_live_allocations; }

  // What the options were found to lack (code 0: nothing).
  JsProblem problem() const { return to_js(model_.problem()); }

  // The resolved options, packed into packed() (kConfigTable).
  JsProblem pack_config() { return pack_result(nm::kConfigTable, model_.config()); }

  // The prompt arrives as UTF-8 bytes (JS encodes it). On success the result
  // is in packed() (kForwardTable).
  JsProblem forward(const std::string& prompt_utf8, int top_k, int layers) {
    if (const nm::Problem p = model_.check_forward(prompt_utf8, top_k, layers)) return to_js(p);
    reserve_largest_forward();
    model_.forward(prompt_utf8, top_k, layers);
    return pack_result(nm::kForwardTable, model_.forward_result());
  }

  // On success the result is in packed() (kGradientTable).
  JsProblem gradients(const std::string& prompt_utf8, int layers) {
    if (const nm::Problem p = model_.check_gradients(prompt_utf8, layers)) return to_js(p);
    model_.gradients(prompt_utf8, layers);
    return pack_result(nm::kGradientTable, model_.gradient_result());
  }

  // Model::extend: how many layers the kept run now covers (0: this model
  // does not hold it). JS has checked layers (an integer >= 1).
  int extend(int layers) { return model_.extend(layers); }

  JsProblem check_gains(double layer, const std::string& which) const {
    return to_js(model_.check_gain_query(layer, which));
  }

  // Views of the last packed result, and of a norm's gains (D) owned by the
  // model. See the view rule at the top of this file.
  val packed() const {
    const std::vector<uint8_t>& p = packed_buffer();
    return val(typed_memory_view(p.size(), p.data()));
  }
  val gains(int layer, const std::string& which) const {
    return val(typed_memory_view(std::size_t(model_.config().hidden), model_.gains(layer, which)));
  }

  // Test support: packs a copy of the last result of that name ("forward",
  // "gradients", "config") with every entry filled by fill_identity, under
  // the real result's dims.
  JsProblem pack_identity_for_tests(const std::string& result) {
    if (result == "forward") return pack_identity(nm::kForwardTable, model_.forward_result());
    if (result == "gradients") return pack_identity(nm::kGradientTable, model_.gradient_result());
    if (result == "config") return pack_identity(nm::kConfigTable, model_.config());
    return {static_cast<int>(nm::ProblemCode::kNotOneOf), static_cast<int>(nm::Field::kNone),
            "result must be 'forward', 'gradients' or 'config'"};
  }

 private:
  // The packed buffer's capacity for this model's largest forward result:
  // all its layers, the longest prompt, every next token.
  void reserve_largest_forward() {
    const nm::ModelConfig& c = model_.config();
    nm::ForwardResult largest;
    largest.layers = c.layers;
    largest.tokens = nm::kMaxPromptTokens;
    largest.heads = c.heads;
    largest.top_k = nm::kVocab;
    largest.hidden = c.hidden;
    const long long bytes =
        largest_packing(nm::kForwardTable, nm::dim_values(nm::kForwardTable, largest));
    if (bytes > 0) packed_buffer().reserve(static_cast<std::size_t>(bytes));
  }

  template <class R>
  JsProblem pack_result(const nm::ResultTable<R>& table, const R& r) {
    return outcome(table, pack(&packed_buffer(), table, r, nm::dim_values(table, r)));
  }

  template <class R>
  JsProblem pack_identity(const nm::ResultTable<R>& table, const R& r) {
    R copy = r;
    fill_identity(&copy, table);
    return outcome(table, pack(&packed_buffer(), table, copy, nm::dim_values(table, r)));
  }

  // No problem, or the kInternal one of an entry that does not match its
  // table: a bug in the table, which the tests exist to catch.
  template <class R>
  static JsProblem outcome(const nm::ResultTable<R>& table, const char* bad_entry) {
    if (bad_entry == nullptr) return to_js({});
    return to_js({nm::ProblemCode::kInternal, nm::Field::kNone,
                  std::string("normlab: the ") + table.name + " result's '" + bad_entry +
                      "' does not match its table"});
  }

  nm::Model model_;
};

}  // namespace

// ---------------------------------------------------------------- hot path
// Direct wasm exports (see the design notes): w is Workspace::handle().
// Flags are 0 / 1. Like the Embind methods, nothing here throws or checks:
// the JS wrapper has validated every argument.
namespace {
Workspace* ws(uintptr_t w) { return reinterpret_cast<Workspace*>(w); }
}  // namespace

extern "C" {
// 1 on success; 0, changing nothing, when the memory cannot hold the buffers.
// need: Workspace::kNeedInput | kNeedOutput.
EMSCRIPTEN_KEEPALIVE int nl_ws_resize(uintptr_t w, int T, int D, int need) {
  return ws(w)->resize(T, D, need) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE const uint32_t* nl_ws_layout(uintptr_t w) { return ws(w)->layout(); }
// Addresses: out, inp (T, D); gain, bias (D) or 0 for none.
EMSCRIPTEN_KEEPALIVE void nl_ws_rmsnorm(uintptr_t w, float* out, const float* inp,
                                        const float* gain, float eps) {
  ws(w)->rmsnorm(out, inp, gain, eps);
}
EMSCRIPTEN_KEEPALIVE void nl_ws_layernorm(uintptr_t w, float* out, const float* inp,
                                          const float* gain, const float* bias, float eps) {
  ws(w)->layernorm(out, inp, gain, bias, eps);
}
EMSCRIPTEN_KEEPALIVE void nl_ws_softmax(uintptr_t w, float* out, const float* inp,
                                        float temperature) {
  ws(w)->softmax(out, inp, temperature);
}
EMSCRIPTEN_KEEPALIVE void nl_ws_row_stats(uintptr_t w, const float* inp) { ws(w)->row_stats(inp); }
EMSCRIPTEN_KEEPALIVE void nl_ws_distribution_stats(uintptr_t w, const float* inp) {
  ws(w)->distribution_stats(inp);
}
EMSCRIPTEN_KEEPALIVE void nl_ws_copy_rows(uintptr_t w, float* out, const float* inp) {
  ws(w)->copy_rows(out, inp);
}
// Test support: Workspace::fill_identity.
EMSCRIPTEN_KEEPALIVE void nl_ws_fill_identity_for_tests(uintptr_t w) { ws(w)->fill_identity(); }

// Tensors: n >= 1 floats, zeroed; 0 when the memory cannot hold them. Each
// live tensor counts as one live allocation.
EMSCRIPTEN_KEEPALIVE float* nl_tensor_alloc(uint32_t n) {
  if (n == 0 || n > SIZE_MAX / sizeof(float)) return nullptr;
  auto* p = static_cast<float*>(std::calloc(n, sizeof(float)));
  if (p != nullptr) ++g_live_allocations;
  return p;
}
EMSCRIPTEN_KEEPALIVE void nl_tensor_free(float* p) {
  if (p == nullptr) return;
  std::free(p);
  --g_live_allocations;
}
}  // extern "C"

EMSCRIPTEN_BINDINGS(normlab) {
  using namespace emscripten;

  // ---- the boundary's description (JSON; its form is in packing.h)
  function("boundary", &describe_boundary);

  // ---- kernels
  function("kernelArchName", &kernel_arch_name);

  value_object<MemoryInfo>("MemoryInfo")
      .field("heapBytes", &MemoryInfo::heap_bytes)
      .field("mallocBytes", &MemoryInfo::malloc_bytes)
      .field("liveAllocations", &MemoryInfo::live_allocations);
  function("memoryInfo", &memory_info);

  class_<Workspace>("Workspace").constructor<>().function("handle", &Workspace::handle);

  // ---- synthetic model
  // One field per option of kModelOptions; JS fills every one (eps NaN =
  // the norm's default).
  {
    value_object<nm::ModelOptions> model_options("ModelOptions");
    register_options(&model_options, nm::kModelOptions);
  }

  value_object<JsProblem>("Problem")
      .field("code", &JsProblem::code)
      .field("field", &JsProblem::field)
      .field("message", &JsProblem::message);

  class_<ModelHandle>("Model")
      .constructor<const nm::ModelOptions&>()
      .function("problem", &ModelHandle::problem)
      .function("packConfig", &ModelHandle::pack_config)
      .function("forward", &ModelHandle::forward)
      .function("gradients", &ModelHandle::gradients)
      .function("extend", &ModelHandle::extend)
      .function("checkGains", &ModelHandle::check_gains)
      .function("gains", &ModelHandle::gains)
      .function("packed", &ModelHandle::packed)
      .function("packIdentityForTests", &ModelHandle::pack_identity_for_tests);
}
