// The trainer's elementwise ops: GELU and its backward, Adam's update and
// the sum of squares behind the gradient norms. Each runs on the same
// vec_map / vec_sum_of primitives as the normlab kernels (normlab/vec.hpp),
// for the trainer's architecture (train_arch), and has a plain scalar
// reference `*_ref` next to it. The residual addition and the scaling are
// the model's add and scale (model/vec.h): one IEEE operation per element,
// the same bits on every architecture.
//
// n = elements
#pragma once

#include <cstddef>

namespace normlab::train {

// GELU, tanh approximation:
//   g(h) = h / 2 (1 + tanh(u)),  u = sqrt(2 / pi) (h + 0.044715 h^3)
// tanh(u) = sign(u) (1 - e) / (1 + e) with e = exp(-2 |u|) in (0, 1], from
// the kernels' exp2_nonpositive (normlab/fast_exp.hpp, relative error
// <= 4.4e-7): the absolute error of tanh stays below ~1e-6 for every u, and
// g's below ~1e-6 |h|. Large |u| gives e = 0 and tanh = +-1 exactly; NaN
// stays NaN. out may alias inp. out, inp: (n)
void gelu_forward(float* out, const float* inp, int n);

// dinp = dout * g'(h),
//   g'(h) = (1 + t) / 2 + h / 2 (1 - t^2) sqrt(2 / pi) (1 + 3 0.044715 h^2),
// t = tanh(u) recomputed from h as in the forward. dinp may alias dout.
// dinp, dout, inp: (n)
void gelu_backward(float* dinp, const float* dout, const float* inp, int n);

// DyT, dynamic tanh (Zhu et al. 2025), in place of a norm on R rows of D:
//   y = gain * tanh(alpha x) + bias,  alpha a learned scalar
// tanh as GELU's (above): absolute error below ~1e-6. out may alias inp.
// out, inp: (R, D); gain, bias: (D)
void dyt_forward(float* out, const float* inp, float alpha, const float* gain, const float* bias,
                 int R, int D);

// With t = tanh(alpha x) recomputed from x:
//   dinp = dout gain alpha (1 - t^2)           (written)
//   dgain += dout t,  dbias += dout            (accumulated, row by row)
//   dalpha += sum over the row of dout gain x (1 - t^2), each row's sum in
//             double (vec_sum_of) added in float, row by row in order
// dinp, dout, inp: (R, D); dgain, dbias: (D); dalpha: (1)
void dyt_backward(float* dinp, float* dgain, float* dbias, float* dalpha, const float* dout,
                  const float* inp, float alpha, const float* gain, int R, int D);

// One Adam step on n parameters (no weight decay):
//   m = beta1 m + (1 - beta1) g,  v = beta2 v + (1 - beta2) g^2
//   p -= lr (m / c1) / (sqrt(v / c2) + eps)
// c1 = 1 - beta1^t and c2 = 1 - beta2^t are the bias corrections of step
// t >= 1, passed in by the caller. p, m, v: (n) updated; grad: (n)
void adam_update(float* p, float* m, float* v, const float* grad, std::size_t n, float lr,
                 float beta1, float beta2, float eps, float c1, float c2);

// sum x^2 in double: normlab::simd::vec_sum_squares, the primitive behind
// model::sum_squares (model/vec.h), at the trainer's architecture. Natively
// the two architectures differ (AVX2 here, the widest ISA there), and so
// does the order of the float sums; in wasm they are the same. Its scalar
// reference is model::sum_squares_ref. x: (n)
double sum_squares(const float* x, std::size_t n);

void gelu_forward_ref(float* out, const float* inp, int n);
void gelu_backward_ref(float* dinp, const float* dout, const float* inp, int n);
void dyt_forward_ref(float* out, const float* inp, float alpha, const float* gain,
                     const float* bias, int R, int D);
void dyt_backward_ref(float* dinp, float* dgain, float* dbias, float* dalpha, const float* dout,
                      const float* inp, float alpha, const float* gain, int R, int D);
void adam_update_ref(float* p, float* m, float* v, const float* grad, std::size_t n, float lr,
                     float beta1, float beta2, float eps, float c1, float c2);

}  // namespace normlab::train
