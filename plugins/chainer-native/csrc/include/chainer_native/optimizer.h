// Fused in-place update rules of the optimizers (SGD, MomentumSGD, Adam):
// one pass over the parameter and its state, no temporaries, no graph.
// Float16 parameters are computed in float32 like every kernel; the state
// (v, m, vhat) may have its own float dtype, which the update computes in.
#pragma once

#include <optional>
#include <utility>

#include "array.h"

namespace cn {

// param -= lr * grad
void sgd_update(const Array& param, const Array& grad, double lr);

// v = momentum * v - lr * grad; param += v
void momentum_sgd_update(const Array& param, const Array& grad, const Array& v, double lr, double momentum);

struct AdamHyperparams {
    double alpha_t, beta1, beta2, eps, eta, weight_decay_rate;
    std::optional<std::pair<double, double>> bounds;  // AdaBound's (lower, upper) of the step
};

// m += (1 - beta1) (g - m); v += (1 - beta2) (g^2 - v); with vhat (AMSGrad,
// defined) vhat = max(vhat, v), s = vhat, else s = v;
// step = alpha_t / (sqrt(s) + eps), clipped to bounds when given;
// param -= eta (step m + weight_decay_rate param).
void adam_update(const Array& param, const Array& grad, const Array& m, const Array& v, const Array& vhat,
                 const AdamHyperparams& h);

}  // namespace cn
