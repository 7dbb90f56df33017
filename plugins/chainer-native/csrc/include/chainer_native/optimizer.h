// Optimizers: the fused in-place update rules (SGD, MomentumSGD, Adam) -
// one pass over the parameter and its state, no temporaries, no graph - and
// the optimizer objects that hold a model's parameters and their state and
// apply those rules, as Chainer's optimizers do. Float16 parameters are
// computed in float32 like every kernel; the state (v, m, vhat) may have its
// own float dtype, which the update computes in.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

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

// An optimizer over a list of parameters (floating-point arrays that require
// grad). update() advances the step count t and applies the rule to every
// parameter that has a gradient (Chainer's Optimizer.update() after
// backward()); the others are left alone.
class Optimizer {
public:
    virtual ~Optimizer() = default;

    void add_param(const Array& param);
    void add_params(const std::vector<Array>& params);
    const std::vector<Array>& params() const { return params_; }
    // Drops every parameter's gradient (Chainer's cleargrads); call it
    // before each backward, which otherwise accumulates into them.
    void clear_grads();
    void update();
    // Updates applied so far.
    int64_t t() const { return t_; }

protected:
    // Called once per parameter as it is added (allocates its state).
    virtual void init_state(const Array& param) { (void)param; }
    // Applies the rule to parameter i.
    virtual void update_one(size_t i, const Array& param, const Array& grad) = 0;

private:
    std::vector<Array> params_;
    int64_t t_ = 0;
};

class SGD : public Optimizer {
public:
    explicit SGD(double lr = 0.01) : lr(lr) {}
    double lr;

protected:
    void update_one(size_t i, const Array& param, const Array& grad) override;
};

class MomentumSGD : public Optimizer {
public:
    explicit MomentumSGD(double lr = 0.01, double momentum = 0.9) : lr(lr), momentum(momentum) {}
    double lr, momentum;

protected:
    void init_state(const Array& param) override;
    void update_one(size_t i, const Array& param, const Array& grad) override;

private:
    std::vector<Array> v_;
};

// Chainer's defaults.
struct AdamConfig {
    double alpha = 0.001;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
    double eta = 1.0;
    double weight_decay_rate = 0.0;
    bool amsgrad = false;
};

class Adam : public Optimizer {
public:
    explicit Adam(const AdamConfig& config = AdamConfig()) : config(config) {}
    AdamConfig config;
    // The bias-corrected step size of the current step t:
    // alpha sqrt(1 - beta2^t) / (1 - beta1^t).
    double alpha_t() const;

protected:
    void init_state(const Array& param) override;
    void update_one(size_t i, const Array& param, const Array& grad) override;

private:
    std::vector<Array> m_, v_, vhat_;
};

}  // namespace cn
