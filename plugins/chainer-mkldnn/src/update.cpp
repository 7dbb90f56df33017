#include "update.hpp"

#include <cmath>

#include "ops.hpp"

namespace cmk {
namespace {

// NumPy's maximum and minimum: a NaN operand is the result (std::max and
// std::min would drop a NaN in their second operand).
template <class T>
inline T nan_max(T a, T b) {
    return (a >= b || a != a) ? a : b;
}

template <class T>
inline T nan_min(T a, T b) {
    return (a <= b || a != a) ? a : b;
}

// Below the plugin's threshold (counted in elements touched) waking
// OpenMP's workers costs more than the pass. The loops' `if` clauses name
// `parallel:`: unqualified, the clause of a `parallel for simd` applies to
// `simd` as well, and a false one would also switch off vectorization (a
// serial pass 3 to 6 times slower).
bool parallel(int64_t n, int arrays) { return n * arrays >= parallel_min_work(); }

template <class T, bool AMSGRAD, bool CLIP>
void adam_loop(T *param, const T *grad, T *m, T *v, T *vhat, int64_t n,
               const AdamParams &p) {
    const T c1 = static_cast<T>(1.0 - p.beta1);
    const T c2 = static_cast<T>(1.0 - p.beta2);
    const T alpha_t = static_cast<T>(p.alpha_t), eps = static_cast<T>(p.eps);
    const T eta = static_cast<T>(p.eta);
    const T decay = static_cast<T>(p.weight_decay_rate);
    const T lower = static_cast<T>(p.lower), upper = static_cast<T>(p.upper);
#pragma omp parallel for simd schedule(static) if (parallel: parallel(n, AMSGRAD ? 6 : 5))
    for (int64_t i = 0; i < n; ++i) {
        const T g = grad[i];
        const T mi = m[i] + c1 * (g - m[i]);
        const T vi = v[i] + c2 * (g * g - v[i]);
        m[i] = mi;
        v[i] = vi;
        T s = vi;
        if (AMSGRAD) {
            s = nan_max(vhat[i], vi);
            vhat[i] = s;
        }
        T step = alpha_t / (std::sqrt(s) + eps);
        if (CLIP) step = nan_min(nan_max(step, lower), upper);
        const T w = param[i];
        param[i] = w - eta * (step * mi + decay * w);
    }
}

}  // namespace

template <class T>
void sgd_update(T *param, const T *grad, int64_t n, double lr) {
    const T a = static_cast<T>(lr);
#pragma omp parallel for simd schedule(static) if (parallel: parallel(n, 3))
    for (int64_t i = 0; i < n; ++i) param[i] = param[i] - a * grad[i];
}

template <class T>
void momentum_sgd_update(T *param, const T *grad, T *v, int64_t n, double lr,
                         double momentum) {
    const T a = static_cast<T>(lr), mu = static_cast<T>(momentum);
#pragma omp parallel for simd schedule(static) if (parallel: parallel(n, 5))
    for (int64_t i = 0; i < n; ++i) {
        const T vi = v[i] * mu - a * grad[i];
        v[i] = vi;
        param[i] = param[i] + vi;
    }
}

template <class T>
void adam_update(T *param, const T *grad, T *m, T *v, T *vhat, int64_t n,
                 const AdamParams &p) {
    // Specialised per variant so that the inner loop has no branches.
    if (vhat != nullptr) {
        if (p.clip)
            adam_loop<T, true, true>(param, grad, m, v, vhat, n, p);
        else
            adam_loop<T, true, false>(param, grad, m, v, vhat, n, p);
    } else {
        if (p.clip)
            adam_loop<T, false, true>(param, grad, m, v, vhat, n, p);
        else
            adam_loop<T, false, false>(param, grad, m, v, vhat, n, p);
    }
}

template void sgd_update<float>(float *, const float *, int64_t, double);
template void sgd_update<double>(double *, const double *, int64_t, double);
template void momentum_sgd_update<float>(float *, const float *, float *,
                                         int64_t, double, double);
template void momentum_sgd_update<double>(double *, const double *, double *,
                                          int64_t, double, double);
template void adam_update<float>(float *, const float *, float *, float *,
                                 float *, int64_t, const AdamParams &);
template void adam_update<double>(double *, const double *, double *,
                                  double *, double *, int64_t,
                                  const AdamParams &);

}  // namespace cmk
