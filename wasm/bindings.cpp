// normlab's JavaScript boundary: the one Embind block of the wasm modules.
// wasm/normlab.js wraps it in the public API; nothing else calls it.
//
// T = rows, D = row length (dim)
//
// Design
// - A long-lived Workspace owns every buffer a kernel call needs: input (T, D),
//   gain and bias (D), output (T, D) and the per-row results (T). JS writes the
//   inputs straight into the wasm heap through typed_memory_view()s of those
//   buffers, runs one kernel on them, and copies the results out with .slice().
// - The view rule: a view is a window on the wasm memory as it is now. Any call
//   that may grow memory (Workspace::resize, or anything else that allocates)
//   may replace that memory and leave older views empty. Take a fresh view
//   after every resize; never keep one across calls. Kernel calls do not
//   allocate, so views taken after resize stay valid through the kernel call.
// - Buffers only grow (each keeps its high-water size), so calls with familiar
//   sizes do not touch malloc at all.
// - Nothing here throws: the shipped modules are built without exceptions, and
//   a C++ exception would reach JS as a bare number. The JS wrapper checks every
//   argument before it gets here; resize() reports an allocation failure (the
//   512 MiB memory limit) by returning false.
// - Leak accounting: every buffer and every Workspace is counted
//   (liveAllocations), and memoryInfo() also reports the bytes malloc has handed
//   out and not yet had back, which covers allocations made anywhere in the
//   module (Embind's included), so tests can prove that calls leak nothing.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

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

  // Set the shape to T rows of D. May grow wasm memory: views taken before are
  // invalid afterwards. Returns false, changing nothing, when the memory
  // cannot hold the buffers.
  bool resize(int T, int D) {
    if (T < 0 || D < 1) return false;
    const std::size_t n = static_cast<std::size_t>(T) * static_cast<std::size_t>(D);
    if (T != 0 && n / static_cast<std::size_t>(T) != static_cast<std::size_t>(D)) return false;

    Pending<float> inp{inp_, n}, out{out_, n}, gain{gain_, std::size_t(D)}, bias{bias_, std::size_t(D)};
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
    return true;
  }

  // Views of the current shape. See the view rule at the top of this file.
  val input() const { return view(inp_, rows_x_dim()); }        // (T, D)
  val gain() const { return view(gain_, D_); }                  // (D)
  val bias() const { return view(bias_, D_); }                  // (D)
  val output() const { return view(out_, rows_x_dim()); }       // (T, D)
  val mean() const { return view(mean_, T_); }                  // (T)
  val rstd() const { return view(rstd_, T_); }                  // (T)
  val entropy() const { return view(entropy_, T_); }            // (T)
  val max_prob() const { return view(max_prob_, T_); }          // (T)
  val stats() const {                                           // (T, 6)
    return val(typed_memory_view(std::size_t(T_) * 6, reinterpret_cast<const float*>(stats_.data())));
  }

  // Kernels on the current shape: input (and gain, bias when asked) in,
  // output and per-row results out.
  void rmsnorm(float eps, bool use_gain) {
    normlab::rmsnorm_forward(out_.data(), rstd_.data(), inp_.data(), use_gain ? gain_.data() : nullptr,
                             T_, D_, eps);
  }
  void layernorm(float eps, bool use_gain, bool use_bias) {
    normlab::layernorm_forward(out_.data(), mean_.data(), rstd_.data(), inp_.data(),
                               use_gain ? gain_.data() : nullptr, use_bias ? bias_.data() : nullptr,
                               T_, D_, eps);
  }
  void softmax(float temperature) { normlab::softmax_forward(out_.data(), inp_.data(), T_, D_, temperature); }
  void row_stats() { normlab::row_stats(stats_.data(), inp_.data(), T_, D_); }
  void distribution_stats() {
    normlab::distribution_stats(entropy_.data(), max_prob_.data(), inp_.data(), T_, D_);
  }
  void copy_rows() { normlab::copy_rows(out_.data(), inp_.data(), T_, D_); }

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

  std::size_t rows_x_dim() const { return std::size_t(T_) * std::size_t(D_); }
  static val view(const GrowBuffer<float>& b, std::size_t n) { return val(typed_memory_view(n, b.data())); }

  int T_ = 0, D_ = 1;
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

}  // namespace

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
      .function("resize", &Workspace::resize)
      .function("input", &Workspace::input)
      .function("gain", &Workspace::gain)
      .function("bias", &Workspace::bias)
      .function("output", &Workspace::output)
      .function("mean", &Workspace::mean)
      .function("rstd", &Workspace::rstd)
      .function("entropy", &Workspace::entropy)
      .function("maxProb", &Workspace::max_prob)
      .function("stats", &Workspace::stats)
      .function("rmsnorm", &Workspace::rmsnorm)
      .function("layernorm", &Workspace::layernorm)
      .function("softmax", &Workspace::softmax)
      .function("rowStats", &Workspace::row_stats)
      .function("distributionStats", &Workspace::distribution_stats)
      .function("copyRows", &Workspace::copy_rows);

  // ---- synthetic model
  // The synthetic model's bindings (its createModel factory and class) go
  // here, in this same block, so both wasm modules carry them.
}
