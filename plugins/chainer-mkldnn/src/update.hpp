// Fused optimizer updates behind the kernels sgd_update, momentum_sgd_update
// and adam_update: one pass over the arrays, each element read and written
// once, in place.
//
// The arithmetic is the core's NumPy reference, operation by operation, in
// the arrays' dtype, with each hyperparameter rounded to that dtype first as
// NumPy rounds Python scalars: the results are the reference's, bit for bit
// (which is why update.cpp is compiled without floating-point contraction).
#pragma once

#include <cstdint>

namespace cmk {

// Arrays hold n elements of T (float or double), C-contiguous; grad may be
// param itself.
template <class T>
void sgd_update(T *param, const T *grad, int64_t n, double lr);

template <class T>
void momentum_sgd_update(T *param, const T *grad, T *v, int64_t n, double lr,
                         double momentum);

struct AdamParams {
    double alpha_t, beta1, beta2, eps, eta, weight_decay_rate;
    bool clip;  // AdaBound: the step is clipped into [lower, upper]
    double lower, upper;
};

// vhat: the running maximum of v (AMSGrad), or null.
template <class T>
void adam_update(T *param, const T *grad, T *m, T *v, T *vhat, int64_t n,
                 const AdamParams &p);

}  // namespace cmk
