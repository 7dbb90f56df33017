// Linear, softmax family, softmax cross entropy, batch normalization,
// dropout, mean squared error.
#include <cmath>
#include <random>

#include "blas.h"
#include "creation.h"
#include "elementwise.h"
#include "graph.h"
#include "linalg.h"
#include "manipulation.h"
#include "nn.h"
#include "reduction.h"
#include "rules.h"
#include "threads.h"

namespace cn {

namespace {

void need_float(const char* op, const char* name, const Array& a) {
    if (!is_float(a.dtype())) throw DtypeError(std::string(op) + ": " + name + " must be floating-point, got " + dtype_name(a.dtype()));
}

// Rows of x (as (rows, n) C-contiguous) -> softmax or log_softmax rows.
// Softmax divides exp(x - max) by its sum rather than exponentiating the log
// softmax: x - logsumexp loses the low bits of large scores, and rows would
// then sum to 1 only within about ulp(max) instead of within rounding.
template <bool Log, typename T>
void softmax_rows(const T* x, T* y, int64_t rows, int64_t n) {
    using C = std::conditional_t<std::is_same<T, double>::value, double, float>;
    parallel_for(rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) {
            const T* xr = x + r * n;
            T* yr = y + r * n;
            C m = -std::numeric_limits<C>::infinity();
            // An infinite maximum gives NaN rows (inf - inf), as the
            // reference's x - max(x) does.
            for (int64_t j = 0; j < n; ++j) m = std::max(m, static_cast<C>(xr[j]));
            C s = 0;
            for (int64_t j = 0; j < n; ++j) s += std::exp(static_cast<C>(xr[j]) - m);
            if constexpr (Log) {
                C lse = m + std::log(s);
                for (int64_t j = 0; j < n; ++j) yr[j] = static_cast<T>(static_cast<C>(xr[j]) - lse);
            } else {
                for (int64_t j = 0; j < n; ++j) yr[j] = static_cast<T>(std::exp(static_cast<C>(xr[j]) - m) / s);
            }
        }
    });
}

// x with `axis` moved last, as contiguous (rows, n) data.
Array move_last(const Array& x, int ax) {
    if (ax == x.ndim() - 1) return contiguous(x.as_data());
    return contiguous(moveaxis(x.as_data(), {ax}, {-1}));
}

Array move_back(const Array& y_last, int ax, int ndim) {
    if (ax == ndim - 1) return y_last;
    return contiguous(moveaxis(y_last, {-1}, {ax}));
}

template <bool Log>
Array softmax_data(const Array& x, int ax) {
    Array xl = move_last(x, ax);
    int64_t n = x.shape()[ax], rows = n ? xl.size() / n : 0;
    Array yl = Array::empty(xl.shape(), x.dtype());
    dispatch_float(x.dtype(), Log ? "log_softmax" : "softmax", [&](auto tag) {
        using T = typename decltype(tag)::type;
        softmax_rows<Log, T>(xl.ptr<T>(), yl.ptr<T>(), rows, n);
    });
    return move_back(yl, ax, x.ndim());
}

Array log_softmax_data(const Array& x, int ax) { return softmax_data<true>(x, ax); }

std::random_device& seed_source() {
    static std::random_device rd;
    return rd;
}

std::mt19937_64& rng() {
    thread_local std::mt19937_64 g(static_cast<uint64_t>(seed_source()()) << 32 ^ seed_source()());
    return g;
}

}  // namespace

Array linear(const Array& x, const Array& w, const Array& b, int64_t n_batch_axes) {
    need_float("linear", "x", x);
    if (w.ndim() != 2) throw ShapeError("linear: W must be 2-dimensional (out, in), got shape " + w.shape().str());
    if (w.dtype() != x.dtype())
        throw DtypeError(std::string("linear: W has dtype ") + dtype_name(w.dtype()) + " but x has " + dtype_name(x.dtype()));
    if (n_batch_axes < 1 || n_batch_axes >= x.ndim())
        throw ShapeError("linear: n_batch_axes must be in [1, x.ndim), got " + std::to_string(n_batch_axes) + " for x of shape " + x.shape().str());
    int64_t in = w.shape()[1], out = w.shape()[0];
    int64_t rows = 1, cols = 1;
    for (int i = 0; i < n_batch_axes; ++i) rows *= x.shape()[i];
    for (int i = n_batch_axes; i < x.ndim(); ++i) cols *= x.shape()[i];
    if (cols != in)
        throw ShapeError("linear: x of shape " + x.shape().str() + " has " + std::to_string(cols) +
                         " features per sample but W of shape " + w.shape().str() + " expects " + std::to_string(in));
    if (b.defined()) {
        if (b.ndim() != 1 || b.shape()[0] != out)
            throw ShapeError("linear: b must have shape (" + std::to_string(out) + ",), got " + b.shape().str());
        if (b.dtype() != x.dtype())
            throw DtypeError(std::string("linear: b has dtype ") + dtype_name(b.dtype()) + " but x has " + dtype_name(x.dtype()));
    }
    Shape ys(x.shape().begin(), x.shape().begin() + n_batch_axes);
    ys.push_back(out);
    // The core's linear takes x of shape (N, in): other layouts reach its
    // rule through reshapes, recorded as well.
    if (x.ndim() != 2 && needs_graph({&x, &w, &b}))
        return reshape(linear(reshape(x, {rows, in}), w, b, 1), ys.to_vector());
    Array y;
    if (x.dtype() == Dtype::Float32 || x.dtype() == Dtype::Float64) {
        Array xc = contiguous(x.as_data());
        Array wc = contiguous(w.as_data());
        y = Array::empty(ys, x.dtype());
        dispatch_float(x.dtype(), "linear", [&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr (!std::is_same<T, Half>::value) {
                T* yp = y.ptr<T>();
                T beta = T(0);
                if (b.defined()) {
                    Array bc = contiguous(b.as_data());
                    const T* bp = bc.ptr<T>();
                    for (int64_t r = 0; r < rows; ++r) std::memcpy(yp + r * out, bp, sizeof(T) * out);
                    beta = T(1);
                }
                if (in == 0) {
                    if (!b.defined()) std::memset(yp, 0, sizeof(T) * rows * out);
                } else {
                    gemm_mt<T>(false, true, rows, out, in, T(1), xc.ptr<T>(), in, wc.ptr<T>(), in, beta, yp, out);
                }
            }
        });
    } else {
        Array x2 = reshape(x.as_data(), {rows, in});
        Array yy = matmul(x2, transpose(w.as_data(), std::nullopt));
        if (b.defined()) yy = add(yy, b.as_data());
        y = contiguous(reshape(yy, ys.to_vector()));
    }
    if (needs_graph({&x, &w, &b})) {
        if (b.defined()) record_rule("linear", {x, w, b}, {y}, {});
        else record_rule("linear", {x, w}, {y}, {});
    }
    return y;
}

Array log_softmax(const Array& x, int64_t axis) {
    need_float("log_softmax", "x", x);
    int ax = normalize_axis(axis, x.ndim(), "log_softmax");
    Array y = log_softmax_data(x, ax);
    if (needs_graph({&x})) record_rule("log_softmax", {x}, {y}, {int64_t{ax}});
    return y;
}

Array softmax(const Array& x, int64_t axis) {
    need_float("softmax", "x", x);
    int ax = normalize_axis(axis, x.ndim(), "softmax");
    Array y = softmax_data<false>(x, ax);
    if (needs_graph({&x})) record_rule("softmax", {x}, {y}, {int64_t{ax}});
    return y;
}

Array softmax_cross_entropy(const Array& x, const Array& t, int64_t ignore_label, const std::string& reduce) {
    need_float("softmax_cross_entropy", "x", x);
    if (dtype_kind(t.dtype()) != 'i' && dtype_kind(t.dtype()) != 'u')
        throw DtypeError(std::string("softmax_cross_entropy: t must be an integer array, got ") + dtype_name(t.dtype()));
    if (reduce != "mean" && reduce != "no")
        throw ShapeError("softmax_cross_entropy: reduce must be 'mean' or 'no', got '" + reduce + "'");
    if (x.ndim() < 2) throw ShapeError("softmax_cross_entropy: x must be (N, C, ...), got shape " + x.shape().str());
    Shape ts = x.shape();
    ts.erase(1);
    if (t.shape() != ts)
        throw ShapeError("softmax_cross_entropy: t has shape " + t.shape().str() + " but x of shape " + x.shape().str() +
                         " needs labels of shape " + ts.str());
    int64_t n = x.shape()[1];
    // The reference's softmax reduces over the classes with max, which has no
    // identity: no classes is an error, even for ignored labels.
    if (n == 0) throw ShapeError("softmax_cross_entropy: x of shape " + x.shape().str() + " has no classes along axis 1");
    Array logp = log_softmax_data(x, 1);
    Array lp = move_last(logp, 1);  // (rows, n)
    Array tc = contiguous_as(t, Dtype::Int64);
    const int64_t* tp = tc.ptr<int64_t>();
    int64_t rows = tc.size();
    for (int64_t r = 0; r < rows; ++r)
        if (tp[r] != ignore_label && (tp[r] < 0 || tp[r] >= n))
            throw IndexError("softmax_cross_entropy: label " + std::to_string(tp[r]) + " at position " + std::to_string(r) +
                             " is out of range for " + std::to_string(n) + " classes");
    int64_t count = 0;
    for (int64_t r = 0; r < rows; ++r) count += tp[r] != ignore_label;
    bool mean = reduce == "mean";
    Array loss = mean ? Array::empty(Shape{}, x.dtype()) : Array::empty(ts, x.dtype());
    dispatch_float(x.dtype(), "softmax_cross_entropy", [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* l = lp.ptr<T>();
        T* o = loss.ptr<T>();
        // The picked log-probabilities (0 at ignored labels) negated last, as
        // the reference does: an all-ignored loss is -0.0 as there.
        double total = 0;
        for (int64_t r = 0; r < rows; ++r) {
            double v = tp[r] == ignore_label ? 0.0 : static_cast<double>(static_cast<Compute<T>>(l[r * n + tp[r]]));
            if (mean) total += v;
            else o[r] = static_cast<T>(-v);
        }
        if (mean) o[0] = static_cast<T>(-total / static_cast<double>(std::max<int64_t>(count, 1)));
    });
    if (needs_graph({&x})) {
        Array lpd = lp;
        record_op("softmax_cross_entropy", {x}, {loss}, [lpd, tc, ignore_label, mean, count, n, xs = x.shape(), ax_n = x.ndim()](BackwardContext& c) {
            if (c.create_graph)
                throw GradError("softmax_cross_entropy does not support double backprop");
            Array gl = contiguous(c.gy());
            Array gl_last = Array::empty(lpd.shape(), lpd.dtype());
            const int64_t* tp = tc.ptr<int64_t>();
            int64_t rows = tc.size();
            dispatch_float(lpd.dtype(), "softmax_cross_entropy", [&](auto tag) {
                using T = typename decltype(tag)::type;
                using C = Compute<T>;
                const T* l = lpd.ptr<T>();
                const T* g = gl.ptr<T>();
                T* o = gl_last.ptr<T>();
                // The reference's (softmax(x) - onehot(t)) * scale, where an
                // ignored label has scale 0 and its one-hot at class 0: a
                // row of NaN or inf there stays NaN (0 * NaN), as does a
                // row under an infinite loss gradient.
                C gmean = mean ? static_cast<C>(g[0]) / static_cast<C>(std::max<int64_t>(count, 1)) : C(0);
                parallel_for(rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
                    for (int64_t r = b; r < e; ++r) {
                        T* orow = o + r * n;
                        const bool ignored = tp[r] == ignore_label;
                        const int64_t hot = ignored ? 0 : tp[r];
                        const C sc = C(ignored ? 0 : 1) * (mean ? gmean : static_cast<C>(g[r]));
                        for (int64_t j = 0; j < n; ++j)
                            orow[j] = static_cast<T>((std::exp(static_cast<C>(l[r * n + j])) - C(j == hot ? 1 : 0)) * sc);
                    }
                });
            });
            // Back from (N, *S, C) to (N, C, *S).
            Shape ls;
            ls.push_back(xs[0]);
            for (int i = 2; i < xs.size(); ++i) ls.push_back(xs[i]);
            ls.push_back(xs[1]);
            Array g3 = gl_last.view(ls, contiguous_strides(ls, gl_last.itemsize()), 0);
            c.set(0, move_back(g3, 1, ax_n));
        });
    }
    return loss;
}

std::pair<Array, Array> dropout(const Array& x, double ratio, const Array& mask_in) {
    need_float("dropout", "x", x);
    if (!(ratio >= 0.0 && ratio < 1.0)) throw ShapeError("dropout: ratio must be in [0, 1), got " + std::to_string(ratio));
    Array mask = mask_in;
    if (!mask.defined()) {
        mask = Array::empty(x.shape(), x.dtype());
        double scale = 1.0 / (1.0 - ratio);
        auto& g = rng();
        std::uniform_real_distribution<double> u(0.0, 1.0);
        dispatch_float(x.dtype(), "dropout", [&](auto tag) {
            using T = typename decltype(tag)::type;
            T* m = mask.ptr<T>();
            for (int64_t i = 0; i < mask.size(); ++i) m[i] = static_cast<T>(u(g) >= ratio ? scale : 0.0);
        });
    } else if (mask.shape() != x.shape()) {
        throw ShapeError("dropout: mask has shape " + mask.shape().str() + ", expected " + x.shape().str());
    }
    return {multiply(x, mask.as_data()), mask};
}

Array mean_squared_error(const Array& a, const Array& b) {
    need_float("mean_squared_error", "x0", a);
    if (a.shape() != b.shape())
        throw ShapeError("mean_squared_error: x0 has shape " + a.shape().str() + " and x1 has " + b.shape().str() + "; they must match");
    if (a.dtype() != b.dtype())
        throw DtypeError(std::string("mean_squared_error: x0 has dtype ") + dtype_name(a.dtype()) + " and x1 has " + dtype_name(b.dtype()));
    Array d = subtract(a, b);
    return mean(multiply(d, d), std::nullopt, false);
}

namespace {

std::vector<int64_t> bn_axes(const Array& x, const std::optional<std::vector<int64_t>>& axes, const char* op) {
    if (axes) {
        std::vector<int> ax = normalize_axes(*axes, x.ndim(), op);
        return std::vector<int64_t>(ax.begin(), ax.end());
    }
    if (x.ndim() < 2) throw ShapeError(std::string(op) + ": x must have at least 2 dimensions, got shape " + x.shape().str());
    std::vector<int64_t> ax{0};
    for (int i = 2; i < x.ndim(); ++i) ax.push_back(i);
    return ax;
}

// The parameter of shape x.shape without `axes`, seen in keepdims shape.
Array param_view(const Array& p, const Array& x, const std::vector<int64_t>& axes, const char* op, const char* name) {
    Shape expect, keep;
    for (int i = 0; i < x.ndim(); ++i) {
        bool red = std::find(axes.begin(), axes.end(), i) != axes.end();
        if (!red) expect.push_back(x.shape()[i]);
        keep.push_back(red ? 1 : x.shape()[i]);
    }
    if (p.shape() != expect)
        throw ShapeError(std::string(op) + ": " + name + " must have shape " + expect.str() + ", got " + p.shape().str());
    if (p.dtype() != x.dtype())
        throw DtypeError(std::string(op) + ": " + name + " has dtype " + dtype_name(p.dtype()) + " but x has " + dtype_name(x.dtype()));
    return reshape(p, keep.to_vector());
}

}  // namespace

Array batch_norm(const Array& x, const Array& gamma, const Array& beta, const Array& running_mean,
                 const Array& running_var, double eps, double decay, const std::optional<std::vector<int64_t>>& axes) {
    need_float("batch_norm", "x", x);
    if (!(eps > 0)) throw ShapeError("batch_norm: eps must be positive, got " + std::to_string(eps));
    std::vector<int64_t> ax = bn_axes(x, axes, "batch_norm");
    Array g = param_view(gamma, x, ax, "batch_norm", "gamma");
    Array bt = param_view(beta, x, ax, "batch_norm", "beta");
    int64_t m = 1;
    for (auto a : ax) m *= x.shape()[a];
    if (m == 0) throw ShapeError("batch_norm: x has no elements to normalize over");
    Axes axs(ax);
    Array y, mu, inv;
    {
        BackpropModeScope off(false);
        Dtype ct = x.dtype() == Dtype::Float16 ? Dtype::Float32 : x.dtype();
        Array xd = astype(x.as_data(), ct, false);
        mu = mean(xd, axs, true);
        Array xc = subtract(xd, mu);
        Array v = mean(multiply(xc, xc), axs, true);
        inv = unary(UnaryOp::Rsqrt, add_scalar(v, eps));
        y = astype(add(multiply(multiply(xc, inv), astype(g.as_data(), ct, false)), astype(bt.as_data(), ct, false)), x.dtype(), false);
        if (!y.is_contiguous() || y.data() == x.data()) y = contiguous(y);
        for (auto* rs : {&running_mean, &running_var}) {
            if (!rs->defined()) continue;
            Array rv = param_view(*rs, x, ax, "batch_norm", rs == &running_mean ? "running_mean" : "running_var");
            Array stat = rs == &running_mean ? mu : mul_scalar(v, m > 1 ? double(m) / double(m - 1) : 1.0);
            Array upd = add(mul_scalar(astype(rv.as_data(), ct, false), decay), mul_scalar(stat, 1.0 - decay));
            assign(rv, upd);
        }
    }
    if (needs_graph({&x, &gamma, &beta})) {
        record_op("batch_norm", {x, gamma, beta}, {y}, [x, gamma, g, mu, inv, axs, m, eps](BackwardContext& c) {
            Array gy = c.gy();
            Array gbeta, ggamma, gx;
            if (c.create_graph) {
                Array mu2 = mean(x, axs, true);
                Array xc = subtract(x, mu2);
                Array inv2 = unary(UnaryOp::Rsqrt, add_scalar(mean(multiply(xc, xc), axs, true), eps));
                Array xhat = multiply(xc, inv2);
                gbeta = sum(gy, axs, true);
                ggamma = sum(multiply(gy, xhat), axs, true);
                Array corr = add(mul_scalar(gbeta, 1.0 / m), multiply(xhat, mul_scalar(ggamma, 1.0 / m)));
                gx = multiply(multiply(g, inv2), subtract(gy, corr));
            } else {
                Dtype ct = inv.dtype();
                Array gyc = astype(gy, ct, false);
                Array xhat = multiply(subtract(astype(x.as_data(), ct, false), mu), inv);
                gbeta = sum(gyc, axs, true);
                ggamma = sum(multiply(gyc, xhat), axs, true);
                Array corr = add(mul_scalar(gbeta, 1.0 / m), multiply(xhat, mul_scalar(ggamma, 1.0 / m)));
                gx = astype(multiply(multiply(astype(g.as_data(), ct, false), inv), subtract(gyc, corr)), x.dtype(), false);
                gbeta = astype(gbeta, x.dtype(), false);
                ggamma = astype(ggamma, x.dtype(), false);
            }
            if (c.needs(0)) c.set(0, gx);
            if (c.needs(1)) c.set(1, reshape(ggamma, gamma.shape().to_vector()));
            if (c.needs(2)) c.set(2, reshape(gbeta, gamma.shape().to_vector()));
        });
    }
    return y;
}

Array fixed_batch_norm(const Array& x, const Array& gamma, const Array& beta, const Array& mean_, const Array& var_,
                       double eps, const std::optional<std::vector<int64_t>>& axes) {
    need_float("fixed_batch_norm", "x", x);
    if (!(eps > 0)) throw ShapeError("fixed_batch_norm: eps must be positive, got " + std::to_string(eps));
    std::vector<int64_t> ax = bn_axes(x, axes, "fixed_batch_norm");
    Array g = param_view(gamma, x, ax, "fixed_batch_norm", "gamma");
    Array b = param_view(beta, x, ax, "fixed_batch_norm", "beta");
    Array mu = param_view(mean_, x, ax, "fixed_batch_norm", "mean");
    Array v = param_view(var_, x, ax, "fixed_batch_norm", "var");
    Array scale = multiply(g, unary(UnaryOp::Rsqrt, add_scalar(v, eps)));
    bool channel_axes = x.ndim() >= 2 && ax.size() == static_cast<size_t>(x.ndim() - 1) && ax[0] == 0;
    for (size_t i = 1; channel_axes && i < ax.size(); ++i) channel_axes = ax[i] == static_cast<int64_t>(i + 1);
    // Inference on (N, C, ...) data (every BatchNormalization of a CNN in
    // test mode) in one pass instead of three over x: the same operations in
    // the same order per element, so the same results.
    if (channel_axes && x.is_contiguous() && (x.dtype() == Dtype::Float32 || x.dtype() == Dtype::Float64) &&
        !needs_graph({&x, &gamma, &beta, &mean_, &var_})) {
        int64_t n = x.shape()[0], c = x.shape()[1];
        int64_t plane = n * c ? x.size() / (n * c) : 0;
        Array mu_c = contiguous(reshape(mean_.as_data(), {c}));
        Array scale_c = contiguous(reshape(scale.as_data(), {c}));
        Array b_c = contiguous(reshape(beta.as_data(), {c}));
        Array y = Array::empty(x.shape(), x.dtype());
        dispatch_float(x.dtype(), "fixed_batch_norm", [&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr (!std::is_same<T, Half>::value) {
                const T* xp = x.ptr<T>();
                T* yp = y.ptr<T>();
                const T* mp = mu_c.ptr<T>();
                const T* sp = scale_c.ptr<T>();
                const T* bp = b_c.ptr<T>();
                parallel_for(n * c, std::max<int64_t>(1, 32768 / std::max<int64_t>(plane, 1)), [&](int64_t lo, int64_t hi) {
                    for (int64_t p = lo; p < hi; ++p) {
                        const T m = mp[p % c], sc = sp[p % c], bb = bp[p % c];
                        const T* xr = xp + p * plane;
                        T* yr = yp + p * plane;
                        for (int64_t i = 0; i < plane; ++i) yr[i] = (xr[i] - m) * sc + bb;
                    }
                });
            }
        });
        return y;
    }
    return add(multiply(subtract(x, mu), scale), b);
}

}  // namespace cn
