#include "optimizer.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "creation.h"
#include "denormals.h"
#include "graph.h"
#include "loops.h"

namespace cn {

namespace {

template <typename T>
inline T& at(uint8_t* p, int64_t i, int64_t stride) { return *reinterpret_cast<T*>(p + i * stride); }

// Every array the update writes must be writeable and must not be the
// output of a recorded op (its graph may still need the old values).
void check_target(const char* routine, const char* what, const Array& a) {
    if (!a.writeable())
        throw ShapeError(std::string(routine) + ": " + what +
                         " is read-only (a broadcast view or a read-only buffer); it is updated in place");
    if (a.requires_grad() && a.body()->node->creator && backprop_enabled())
        throw GradError(std::string(routine) + ": " + what +
                        " is computed by a recorded op; updating it in place would corrupt its gradient");
}

void check_shape(const char* routine, const char* what, const Array& a, const Array& param) {
    if (a.shape() != param.shape())
        throw ShapeError(std::string(routine) + ": " + what + " has shape " + a.shape().str() + ", expected " +
                         param.shape().str() + " (the shape of param)");
}

void check_dtype(const char* routine, const char* what, const Array& a, Dtype expected, const char* whose) {
    if (a.dtype() != expected)
        throw DtypeError(std::string(routine) + ": " + what + " has dtype " + dtype_name(a.dtype()) + ", expected " +
                         dtype_name(expected) + " (the dtype of " + whose + ")");
}

void check_float(const char* routine, const char* what, const Array& a) {
    if (!is_float(a.dtype()))
        throw DtypeError(std::string(routine) + ": " + what + " must be a floating-point array, got dtype " +
                         dtype_name(a.dtype()));
}

// param and grad: the checks every rule shares.
void check_param_grad(const char* routine, const Array& param, const Array& grad) {
    check_float(routine, "param", param);
    check_target(routine, "param", param);
    check_shape(routine, "grad", grad, param);
    check_dtype(routine, "grad", grad, param.dtype(), "param");
}

// Calls loop(std::true_type) when every operand of the run steps by its
// element size (the strides become constants and the loop vectorizes),
// else loop(std::false_type).
template <typename L>
inline void unit_or_strided(bool unit, L&& loop) {
    if (unit) loop(std::true_type{});
    else loop(std::false_type{});
}

template <typename P>
void sgd_kernel(const Array& param, const Array& grad, double lr) {
    using C = Compute<P>;
    const C lr_ = static_cast<C>(lr);
    for_each_run<2>(param.shape(), {param.raw(), grad.raw()}, {&param.strides(), &grad.strides()},
                    [&](uint8_t** p, const int64_t* s, int64_t n) {
        unit_or_strided(s[0] == sizeof(P) && s[1] == sizeof(P), [&](auto unit) {
            constexpr bool u = decltype(unit)::value;
            const int64_t s0 = u ? sizeof(P) : s[0], s1 = u ? sizeof(P) : s[1];
            for (int64_t i = 0; i < n; ++i) {
                P& w = at<P>(p[0], i, s0);
                w = static_cast<P>(static_cast<C>(w) - lr_ * static_cast<C>(at<P>(p[1], i, s1)));
            }
        });
    });
}

// Computed in the dtype of v; param gets the stored (rounded) v, as
// `param += v` would.
template <typename P, typename S>
void momentum_kernel(const Array& param, const Array& grad, const Array& v, double lr, double momentum) {
    using C = Compute<S>;
    const C lr_ = static_cast<C>(lr), mu = static_cast<C>(momentum);
    for_each_run<3>(param.shape(), {param.raw(), grad.raw(), v.raw()}, {&param.strides(), &grad.strides(), &v.strides()},
                    [&](uint8_t** p, const int64_t* s, int64_t n) {
        DenormalsAreZero flush;  // per worker thread: the mode is thread-local
        unit_or_strided(s[0] == sizeof(P) && s[1] == sizeof(P) && s[2] == sizeof(S), [&](auto unit) {
            constexpr bool u = decltype(unit)::value;
            const int64_t s0 = u ? sizeof(P) : s[0], s1 = u ? sizeof(P) : s[1], s2 = u ? sizeof(S) : s[2];
            for (int64_t i = 0; i < n; ++i) {
                P& w = at<P>(p[0], i, s0);
                S& vi = at<S>(p[2], i, s2);
                C g = static_cast<C>(static_cast<Compute<P>>(at<P>(p[1], i, s1)));
                vi = static_cast<S>(mu * static_cast<C>(vi) - lr_ * g);
                w = static_cast<P>(static_cast<C>(static_cast<Compute<P>>(w)) + static_cast<C>(vi));
            }
        });
    });
}

// Computed in the dtype of the state (m, v, vhat); m and v as stored (rounded
// to their dtype) feed the step, as in the array formulation.
template <typename P, typename S, bool AMSGrad, bool Bounded>
void adam_kernel(const Array& param, const Array& grad, const Array& m, const Array& v, const Array& vhat,
                 const AdamHyperparams& h) {
    using C = Compute<S>;
    const C one_b1 = static_cast<C>(1.0 - h.beta1), one_b2 = static_cast<C>(1.0 - h.beta2);
    const C alpha_t = static_cast<C>(h.alpha_t), eps = static_cast<C>(h.eps), eta = static_cast<C>(h.eta);
    const C wd = static_cast<C>(h.weight_decay_rate);
    const C lower = Bounded ? static_cast<C>(h.bounds->first) : C(0);
    const C upper = Bounded ? static_cast<C>(h.bounds->second) : C(0);
    // Without vhat its slot walks v again (never written).
    const Array& vh = AMSGrad ? vhat : v;
    for_each_run<5>(param.shape(), {param.raw(), grad.raw(), m.raw(), v.raw(), vh.raw()},
                    {&param.strides(), &grad.strides(), &m.strides(), &v.strides(), &vh.strides()},
                    [&](uint8_t** p, const int64_t* s, int64_t n) {
        DenormalsAreZero flush;  // per worker thread: the mode is thread-local
        bool unit = s[0] == sizeof(P) && s[1] == sizeof(P) && s[2] == sizeof(S) && s[3] == sizeof(S) &&
                    s[4] == sizeof(S);
        unit_or_strided(unit, [&](auto unit_) {
            constexpr bool u = decltype(unit_)::value;
            const int64_t s0 = u ? sizeof(P) : s[0], s1 = u ? sizeof(P) : s[1], s2 = u ? sizeof(S) : s[2];
            const int64_t s3 = u ? sizeof(S) : s[3], s4 = u ? sizeof(S) : s[4];
            (void)s4;  // read by AMSGrad only
            for (int64_t i = 0; i < n; ++i) {
                P& w = at<P>(p[0], i, s0);
                S& mi = at<S>(p[2], i, s2);
                S& vi = at<S>(p[3], i, s3);
                C g = static_cast<C>(static_cast<Compute<P>>(at<P>(p[1], i, s1)));
                C mc = static_cast<C>(mi);
                mi = static_cast<S>(mc + one_b1 * (g - mc));
                C vc = static_cast<C>(vi);
                vi = static_cast<S>(vc + one_b2 * (g * g - vc));
                C sc = static_cast<C>(vi);
                if constexpr (AMSGrad) {
                    S& hi = at<S>(p[4], i, s4);
                    // numpy.maximum: a NaN on either side wins.
                    C hc = static_cast<C>(hi);
                    if (hc < sc || sc != sc) hi = vi;
                    sc = static_cast<C>(hi);
                }
                C step = alpha_t / (std::sqrt(sc) + eps);
                if constexpr (Bounded) step = std::min(std::max(step, lower), upper);
                C wc = static_cast<C>(static_cast<Compute<P>>(w));
                w = static_cast<P>(wc - eta * (step * static_cast<C>(mi) + wd * wc));
            }
        });
    });
}

}  // namespace

void sgd_update(const Array& param, const Array& grad, double lr) {
    const char* routine = "_sgd_update";
    check_param_grad(routine, param, grad);
    dispatch_float(param.dtype(), routine, [&](auto tag) {
        using P = typename decltype(tag)::type;
        sgd_kernel<P>(param, grad, lr);
    });
}

void momentum_sgd_update(const Array& param, const Array& grad, const Array& v, double lr, double momentum) {
    const char* routine = "_momentum_sgd_update";
    check_param_grad(routine, param, grad);
    check_float(routine, "v", v);
    check_target(routine, "v", v);
    check_shape(routine, "v", v, param);
    dispatch_float(param.dtype(), routine, [&](auto ptag) {
        using P = typename decltype(ptag)::type;
        dispatch_float(v.dtype(), routine, [&](auto stag) {
            using S = typename decltype(stag)::type;
            momentum_kernel<P, S>(param, grad, v, lr, momentum);
        });
    });
}

void adam_update(const Array& param, const Array& grad, const Array& m, const Array& v, const Array& vhat,
                 const AdamHyperparams& h) {
    const char* routine = "_adam_update";
    check_param_grad(routine, param, grad);
    check_float(routine, "m", m);
    for (auto [what, a] : {std::pair<const char*, const Array*>{"m", &m}, {"v", &v}, {"vhat", &vhat}}) {
        if (!a->defined()) continue;
        check_target(routine, what, *a);
        check_shape(routine, what, *a, param);
        check_dtype(routine, what, *a, m.dtype(), "m");
    }
    dispatch_float(param.dtype(), routine, [&](auto ptag) {
        using P = typename decltype(ptag)::type;
        dispatch_float(m.dtype(), routine, [&](auto stag) {
            using S = typename decltype(stag)::type;
            bool ams = vhat.defined(), bounded = h.bounds.has_value();
            if (ams && bounded) adam_kernel<P, S, true, true>(param, grad, m, v, vhat, h);
            else if (ams) adam_kernel<P, S, true, false>(param, grad, m, v, vhat, h);
            else if (bounded) adam_kernel<P, S, false, true>(param, grad, m, v, vhat, h);
            else adam_kernel<P, S, false, false>(param, grad, m, v, vhat, h);
        });
    });
}

void Optimizer::add_param(const Array& param) {
    if (!param.defined()) throw ShapeError("Optimizer.add_param: the parameter is undefined");
    if (!is_float(param.dtype()))
        throw DtypeError(std::string("Optimizer.add_param: parameters must be floating-point, got ") +
                         dtype_name(param.dtype()));
    if (!param.requires_grad())
        throw GradError("Optimizer.add_param: the parameter does not require grad; call require_grad() first");
    for (const auto& p : params_)
        if (p.body() == param.body()) throw ShapeError("Optimizer.add_param: the parameter was already added");
    init_state(param);
    params_.push_back(param);
}

void Optimizer::add_params(const std::vector<Array>& params) {
    for (const auto& p : params) add_param(p);
}

void Optimizer::clear_grads() {
    for (auto& p : params_) p.clear_grad();
}

void Optimizer::update() {
    ++t_;
    for (size_t i = 0; i < params_.size(); ++i) {
        Array g = params_[i].grad();
        if (g.defined()) update_one(i, params_[i], g);
    }
}

void SGD::update_one(size_t, const Array& param, const Array& grad) { sgd_update(param, grad, lr); }

void MomentumSGD::init_state(const Array& param) { v_.push_back(zeros(param.shape(), param.dtype())); }

void MomentumSGD::update_one(size_t i, const Array& param, const Array& grad) {
    momentum_sgd_update(param, grad, v_[i], lr, momentum);
}

double Adam::alpha_t() const {
    double fix1 = 1.0 - std::pow(config.beta1, static_cast<double>(t()));
    double fix2 = 1.0 - std::pow(config.beta2, static_cast<double>(t()));
    if (fix1 == 0.0) throw GradError("Adam.alpha_t: no step taken yet (t = 0)");
    return config.alpha * std::sqrt(fix2) / fix1;
}

void Adam::init_state(const Array& param) {
    m_.push_back(zeros(param.shape(), param.dtype()));
    v_.push_back(zeros(param.shape(), param.dtype()));
    vhat_.push_back(config.amsgrad ? zeros(param.shape(), param.dtype()) : Array());
}

void Adam::update_one(size_t i, const Array& param, const Array& grad) {
    AdamHyperparams h{alpha_t(), config.beta1, config.beta2, config.eps, config.eta, config.weight_decay_rate,
                      std::nullopt};
    // A switch to AMSGrad after parameters were added needs their vhat.
    if (config.amsgrad && !vhat_[i].defined()) vhat_[i] = zeros(param.shape(), param.dtype());
    adam_update(param, grad, m_[i], v_[i], config.amsgrad ? vhat_[i] : Array(), h);
}

}  // namespace cn
