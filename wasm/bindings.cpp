// normlab's JavaScript boundary: the one Embind block of the wasm modules.
// wasm/normlab.js wraps it in the public API; nothing else calls it.
//
// T = rows, D = row length (dim)
//
// Design
// - A long-lived Workspace owns every buffer a kernel call needs: input (T, D),
//   gain and bias (D), output (T, D) and the per-row results (T). JS writes the
//   inputs straight into the wasm heap, runs one kernel on them, and copies the
//   results out with one .slice() (or one .set() into a caller's array).
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
//   Workspace's lifetime (new / delete, counted by the leak tests), the model
//   and memoryInfo. The nl_ws_* functions take the Workspace's address, which
//   JS gets once from Workspace::handle(). A steady-state op is then exactly
//   one wasm call: JS remembers the shape of the last resize and calls
//   nl_ws_resize only when the shape changes.
// - Buffer addresses: resize() writes the byte address of every buffer into
//   the Workspace's layout array (kLayout order below), which JS reads from
//   the heap right after each nl_ws_resize (nl_ws_layout gives its address).
// - The view rule: a typed array on the wasm memory is a window on the memory
//   as it is now. Anything that grows memory (Workspace::resize, or anything
//   else that allocates: the model, Embind) replaces the memory's ArrayBuffer
//   and leaves older views empty. JS uses the Float32Array over the whole
//   heap that Emscripten replaces on every growth (module.HEAPF32), read
//   afresh on every op, after any resize and before writing inputs. Kernel
//   calls do not allocate, so the view stays valid from the input write to
//   the output copy.
//   Views handed out by the model (floats(), ints(), gains()) are taken fresh
//   right after the call that filled them and never kept across calls. A
//   tensor's view (its .array) follows the same rule on its own: it is
//   re-taken whenever the memory's buffer has changed. Kernels only ever see
//   addresses, which a growth leaves unchanged.
// - Buffers only grow (each keeps its high-water size), so calls with familiar
//   sizes do not touch malloc at all.
// - Nothing here throws: the shipped modules are built without exceptions, and
//   a C++ exception would reach JS as a bare number. The JS wrapper checks every
//   argument before it gets here; resize() reports an allocation failure (the
//   512 MiB memory limit) by returning false.
// - Leak accounting: every buffer, tensor, Workspace and Model is counted
//   (liveAllocations), and memoryInfo() also reports the bytes malloc has handed
//   out and not yet had back, which covers allocations made anywhere in the
//   module (Embind's included), so tests can prove that calls leak nothing.
// - The synthetic model (src/model) is one long-lived Model object per JS
//   model. Its results are many small arrays; building them as Embind objects
//   would cost milliseconds, so each call packs them into one float and one
//   int buffer the Model owns (layouts below), JS takes a view of each right
//   after the call and .slice()s it at once, then shapes the public objects
//   from subarrays of that one copy. Model errors come back as strings.
#include <emscripten/bind.h>
#include <emscripten/em_macros.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "model/model.h"
#include "normlab/kernels.h"

namespace {

using emscripten::typed_memory_view;
using emscripten::val;
using normlab::RowStats;

// JS reads RowStats rows as flat float32: l2, mean, variance, std, rms, max_abs.
static_assert(sizeof(RowStats) == 6 * sizeof(float), "RowStats must be 6 packed floats");
static_assert(offsetof(RowStats, max_abs) == 5 * sizeof(float), "RowStats field order");

// Buffers and Workspaces alive right now.
unsigned g_live_allocations = 0;

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

// All buffers of one kernel call, sized for the current shape (T, D).
class Workspace {
 public:
  Workspace() { ++g_live_allocations; }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
  ~Workspace() { --g_live_allocations; }

  // Which (T, D) buffers resize() must provide; the (D) and (T) buffers are
  // always provided.
  static constexpr int kNeedInput = 1, kNeedOutput = 2;

  // Set the shape to T rows of D, with room for the (T, D) buffers `need`
  // names (kNeedInput | kNeedOutput; the others keep whatever size they
  // had). May grow wasm memory: views taken before are invalid afterwards.
  // Returns false, changing nothing, when the memory cannot hold the buffers.
  bool resize(int T, int D, int need) {
    if (T < 0 || D < 1) return false;
    const std::size_t n = static_cast<std::size_t>(T) * static_cast<std::size_t>(D);
    if (T != 0 && n / static_cast<std::size_t>(T) != static_cast<std::size_t>(D)) return false;

    Pending<float> inp{inp_, need & kNeedInput ? n : 0}, out{out_, need & kNeedOutput ? n : 0};
    Pending<float> gain{gain_, std::size_t(D)}, bias{bias_, std::size_t(D)};
    Pending<float> mean{mean_, std::size_t(T)}, rstd{rstd_, std::size_t(T)};
    Pending<float> entropy{entropy_, std::size_t(T)}, max_prob{max_prob_, std::size_t(T)};
    Pending<RowStats> stats{stats_, std::size_t(T)};
    const bool ok = inp.ok() && out.ok() && gain.ok() && bias.ok() && mean.ok() && rstd.ok() &&
                    entropy.ok() && max_prob.ok() && stats.ok();
    if (!ok) return false;  // each Pending frees what it got
    inp.commit(), out.commit(), gain.commit(), bias.commit(), mean.commit(), rstd.commit();
    entropy.commit(), max_prob.commit(), stats.commit();
    T_ = T;
    D_ = D;
    const void* buffers[kLayoutSize] = {inp_.data(),  gain_.data(),    bias_.data(),     out_.data(),
                                        mean_.data(), rstd_.data(),    entropy_.data(),  max_prob_.data(),
                                        stats_.data()};
    for (int k = 0; k < kLayoutSize; ++k) layout_[k] = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(buffers[k]));
    return true;
  }

  // Byte addresses of the buffers after the last resize, in this order (JS
  // reads them as uint32): input, gain, bias, output, mean, rstd, entropy,
  // maxProb, stats. Null (0) before the first resize. The input and output
  // buffers hold T * D floats only if the last resize needed them.
  static constexpr int kLayoutSize = 9;
  const uint32_t* layout() const { return layout_; }

  // The address the nl_ws_* functions take (wasm32: fits a JS number).
  double handle() const { return static_cast<double>(reinterpret_cast<uintptr_t>(this)); }

  // Kernels on the current shape. inp and out are (T, D) and gain, bias (D)
  // anywhere in the memory (Workspace buffers or tensors; gain, bias null for
  // none; out may be inp); the per-row results go to the Workspace.
  void rmsnorm(float* out, const float* inp, const float* gain, float eps) {
    normlab::rmsnorm_forward(out, rstd_.data(), inp, gain, T_, D_, eps);
  }
  void layernorm(float* out, const float* inp, const float* gain, const float* bias, float eps) {
    normlab::layernorm_forward(out, mean_.data(), rstd_.data(), inp, gain, bias, T_, D_, eps);
  }
  void softmax(float* out, const float* inp, float temperature) {
    normlab::softmax_forward(out, inp, T_, D_, temperature);
  }
  void row_stats(const float* inp) { normlab::row_stats(stats_.data(), inp, T_, D_); }
  void distribution_stats(const float* inp) {
    normlab::distribution_stats(entropy_.data(), max_prob_.data(), inp, T_, D_);
  }
  void copy_rows(float* out, const float* inp) { normlab::copy_rows(out, inp, T_, D_); }

 private:
  // One buffer's part of a resize: new storage when the buffer holds fewer
  // than n elements, handed over by commit() or freed if the resize is given up.
  template <class E>
  class Pending {
   public:
    Pending(GrowBuffer<E>& target, std::size_t n) : target_(target), n_(n), short_(n > target.capacity()) {
      if (short_ && n <= SIZE_MAX / sizeof(E)) storage_ = static_cast<E*>(std::malloc(n * sizeof(E)));
    }
    Pending(const Pending&) = delete;
    Pending& operator=(const Pending&) = delete;
    ~Pending() { std::free(storage_); }

    bool ok() const { return !short_ || storage_ != nullptr; }
    void commit() {
      if (storage_ == nullptr) return;
      target_.adopt(storage_, n_);
      storage_ = nullptr;
    }

   private:
    GrowBuffer<E>& target_;
    std::size_t n_;
    bool short_;
    E* storage_ = nullptr;
  };

  int T_ = 0, D_ = 1;
  uint32_t layout_[kLayoutSize] = {};
  GrowBuffer<float> inp_, out_, gain_, bias_, mean_, rstd_, entropy_, max_prob_;
  GrowBuffer<RowStats> stats_;
};

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

std::string kernel_arch_name() { return normlab::kernel_arch_name(); }

// ---------------------------------------------------------------- model
//
// L = layers, T = prompt tokens, H = heads, K = top-k, P = probes (10),
// S = statistics (6), F = final-norm probes (3); probe, statistic and norm
// orders as in src/model/probes.h.
//
// forward() packs ForwardResult, regrouped so that every array the JS object
// exposes is one contiguous run (a subarray, no copying in JS):
//
//   ints:   L, T, H, K, post (1 if the norm-rescale arrays are present, else 0),
//           next token, tokens (T), top tokens (K)
//   floats: per-token stats   (P, S, L, T)   ForwardResult::stats is (L, P, T, S)
//           mean stats        (P, S, L)      from stats_mean (L, P, S)
//           final per-token   (F, S, T)      from final_stats (F, T, S)
//           final mean        (F, S)
//           entropy, maxProb  (L, T, H) each
//           their layer means (L) each
//           post only: rescale, product (L, 2, T) each; their means (L, 2) each
//           top probabilities (K)
//
// gradients() packs GradientResult:
//
//   ints:   L, T, post (1 if post-norm with a norm, else 0)
//   floats: loss, embedding, finalNorm, residual (L + 1),
//           residual per token (L + 1, T), attention, mlp, norm, layer (L) each
//           post only: rescale means, product means (L, 2) each
class ModelHandle {
 public:
  explicit ModelHandle(const normlab::model::ModelOptions& options) : model_(options) {
    ++g_live_allocations;
  }
  ModelHandle(const ModelHandle&) = delete;
  ModelHandle& operator=(const ModelHandle&) = delete;
  ~ModelHandle() { --g_live_allocations; }

  std::string error() const { return model_.error(); }

  struct Config {
    int layers, hidden, heads;
    std::string norm, placement;
    float eps;
    double seed;  // uint32 as a JS number
  };
  Config config() const {
    const normlab::model::ModelConfig& c = model_.config();
    return {c.layers, c.hidden, c.heads, normlab::model::norm_kind_name(c.norm),
            normlab::model::placement_name(c.placement), c.eps, static_cast<double>(c.seed)};
  }

  // The prompt arrives as UTF-8 bytes (JS encodes it). "" on success.
  std::string forward(const std::string& prompt_utf8, int top_k, int layers) {
    std::string message = model_.forward(prompt_utf8, top_k, layers);
    if (message.empty()) pack_forward();
    return message;
  }

  std::string gradients(const std::string& prompt_utf8) {
    std::string message = model_.gradients(prompt_utf8);
    if (message.empty()) pack_gradients();
    return message;
  }

  std::string gain_error(double layer, const std::string& which) const {
    return model_.validate_gain_query(layer, which);
  }

  // Views of the last successful call's packed results, and of a norm's
  // gains (D) owned by the model. See the view rule at the top of this file.
  val floats() const { return val(typed_memory_view(floats_.size(), floats_.data())); }
  val ints() const { return val(typed_memory_view(ints_.size(), ints_.data())); }
  val gains(int layer, const std::string& which) const {
    return val(typed_memory_view(std::size_t(model_.config().hidden), model_.gains(layer, which)));
  }

 private:
  void pack_forward() {
    using namespace normlab::model;
    const ForwardResult& r = model_.forward_result();
    const std::size_t L = r.layers, T = r.tokens, H = r.heads, K = r.top_k;
    const bool post = !r.norm_rescale.empty();
    ints_.clear();
    for (const std::size_t v : {L, T, H, K, std::size_t(post)}) ints_.push_back(static_cast<int32_t>(v));
    ints_.push_back(r.next_token);
    ints_.insert(ints_.end(), r.token_ids.begin(), r.token_ids.end());
    ints_.insert(ints_.end(), r.top_tokens.begin(), r.top_tokens.end());

    floats_.resize((kProbes * kStats * L * (T + 1)) + kFinalProbes * kStats * (T + 1) + 2 * L * (T * H + 1) +
                   (post ? 4 * L * (T + 1) : 0) + K);
    float* out = floats_.data();
    for (std::size_t p = 0; p < kProbes; ++p) {
      for (std::size_t s = 0; s < kStats; ++s) {
        for (std::size_t l = 0; l < L; ++l) {
          const float* stats_lp = r.stats.data() + (l * kProbes + p) * T * kStats;  // (T, S)
          for (std::size_t t = 0; t < T; ++t) *out++ = stats_lp[t * kStats + s];
        }
      }
    }
    for (std::size_t p = 0; p < kProbes; ++p) {
      for (std::size_t s = 0; s < kStats; ++s) {
        for (std::size_t l = 0; l < L; ++l) *out++ = r.stats_mean[(l * kProbes + p) * kStats + s];
      }
    }
    for (std::size_t f = 0; f < kFinalProbes; ++f) {
      for (std::size_t s = 0; s < kStats; ++s) {
        for (std::size_t t = 0; t < T; ++t) *out++ = r.final_stats[(f * T + t) * kStats + s];
      }
    }
    out = append(out, r.final_stats_mean);
    out = append(out, r.attention_entropy);
    out = append(out, r.attention_max_prob);
    out = append(out, r.attention_entropy_mean);
    out = append(out, r.attention_max_prob_mean);
    if (post) {
      out = append(out, r.norm_rescale);
      out = append(out, r.norm_rescale_product);
      out = append(out, r.norm_rescale_mean);
      out = append(out, r.norm_rescale_product_mean);
    }
    out = append(out, r.top_probs);
    assert(out == floats_.data() + floats_.size());
  }

  void pack_gradients() {
    const normlab::model::GradientResult& r = model_.gradient_result();
    const bool post = !r.norm_rescale_mean.empty();
    ints_.assign({r.layers, r.tokens, post ? 1 : 0});
    floats_.clear();
    floats_.insert(floats_.end(), {r.loss, r.embedding_grad_l2, r.final_norm_grad_l2});
    for (const auto* v : {&r.residual_grad_l2, &r.residual_grad_l2_per_token, &r.attention_grad_l2,
                          &r.mlp_grad_l2, &r.norm_grad_l2, &r.layer_grad_l2,
                          &r.norm_rescale_mean, &r.norm_rescale_product_mean}) {
      floats_.insert(floats_.end(), v->begin(), v->end());
    }
  }

  static float* append(float* out, const std::vector<float>& v) { return std::copy(v.begin(), v.end(), out); }

  normlab::model::Model model_;
  // Packed results of the last forward() or gradients(); they keep their
  // capacity, so repeated calls do not allocate.
  std::vector<float> floats_;
  std::vector<int32_t> ints_;
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
EMSCRIPTEN_KEEPALIVE void nl_ws_rmsnorm(uintptr_t w, float* out, const float* inp, const float* gain, float eps) {
  ws(w)->rmsnorm(out, inp, gain, eps);
}
EMSCRIPTEN_KEEPALIVE void nl_ws_layernorm(uintptr_t w, float* out, const float* inp, const float* gain,
                                          const float* bias, float eps) {
  ws(w)->layernorm(out, inp, gain, bias, eps);
}
EMSCRIPTEN_KEEPALIVE void nl_ws_softmax(uintptr_t w, float* out, const float* inp, float temperature) {
  ws(w)->softmax(out, inp, temperature);
}
EMSCRIPTEN_KEEPALIVE void nl_ws_row_stats(uintptr_t w, const float* inp) { ws(w)->row_stats(inp); }
EMSCRIPTEN_KEEPALIVE void nl_ws_distribution_stats(uintptr_t w, const float* inp) { ws(w)->distribution_stats(inp); }
EMSCRIPTEN_KEEPALIVE void nl_ws_copy_rows(uintptr_t w, float* out, const float* inp) { ws(w)->copy_rows(out, inp); }

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

  // ---- kernels
  function("kernelArchName", &kernel_arch_name);

  value_object<MemoryInfo>("MemoryInfo")
      .field("heapBytes", &MemoryInfo::heap_bytes)
      .field("mallocBytes", &MemoryInfo::malloc_bytes)
      .field("liveAllocations", &MemoryInfo::live_allocations);
  function("memoryInfo", &memory_info);

  class_<Workspace>("Workspace")
      .constructor<>()
      .function("handle", &Workspace::handle);

  // ---- synthetic model
  // JS fills every field (eps NaN = the norm's default).
  value_object<normlab::model::ModelOptions>("ModelOptions")
      .field("layers", &normlab::model::ModelOptions::layers)
      .field("hidden", &normlab::model::ModelOptions::hidden)
      .field("heads", &normlab::model::ModelOptions::heads)
      .field("norm", &normlab::model::ModelOptions::norm)
      .field("placement", &normlab::model::ModelOptions::placement)
      .field("eps", &normlab::model::ModelOptions::eps)
      .field("seed", &normlab::model::ModelOptions::seed);

  value_object<ModelHandle::Config>("ModelConfig")
      .field("layers", &ModelHandle::Config::layers)
      .field("hidden", &ModelHandle::Config::hidden)
      .field("heads", &ModelHandle::Config::heads)
      .field("norm", &ModelHandle::Config::norm)
      .field("placement", &ModelHandle::Config::placement)
      .field("eps", &ModelHandle::Config::eps)
      .field("seed", &ModelHandle::Config::seed);

  class_<ModelHandle>("Model")
      .constructor<const normlab::model::ModelOptions&>()
      .function("error", &ModelHandle::error)
      .function("config", &ModelHandle::config)
      .function("forward", &ModelHandle::forward)
      .function("gradients", &ModelHandle::gradients)
      .function("gainError", &ModelHandle::gain_error)
      .function("gains", &ModelHandle::gains)
      .function("floats", &ModelHandle::floats)
      .function("ints", &ModelHandle::ints);
}
