// Reductions: one strided engine (per-output loops when the reduced axes are
// innermost in memory, vector accumulation when a kept axis is), and the
// routines with their gradients.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>

#include "creation.h"
#include "elementwise.h"
#include "graph.h"
#include "loops.h"
#include "manipulation.h"
#include "reduction.h"
#include "rules.h"

namespace cn {

namespace {

struct Group {
    int nd = 0;
    int64_t sh[kMaxNdim];
    int64_t st[kMaxNdim];
    int64_t count() const {
        int64_t n = 1;
        for (int i = 0; i < nd; ++i) n *= sh[i];
        return n;
    }
};

// Dimensions of a split into kept and reduced, each coalesced.
void split_dims(const Array& a, const std::vector<int>& axes, Group& kept, Group& red) {
    std::vector<char> is_red(a.ndim(), 0);
    for (int ax : axes) is_red[ax] = 1;
    auto add = [](Group& g, int64_t s, int64_t st) {
        if (s == 1) return;
        if (g.nd > 0 && g.st[g.nd - 1] == st * s) {
            g.sh[g.nd - 1] *= s;
            g.st[g.nd - 1] = st;
            return;
        }
        g.sh[g.nd] = s;
        g.st[g.nd] = st;
        ++g.nd;
    };
    for (int i = 0; i < a.ndim(); ++i) add(is_red[i] ? red : kept, a.shape()[i], a.strides()[i]);
}

// Byte offset of the linear index i within a group (C order).
inline int64_t offset_of(const Group& g, int64_t i) {
    int64_t off = 0;
    for (int d = g.nd - 1; d >= 0; --d) {
        off += (i % g.sh[d]) * g.st[d];
        i /= g.sh[d];
    }
    return off;
}

// Visits every element of the group from base, calling f(ptr, linear index)
// with the innermost dimension as a tight loop.
template <typename T, typename F>
inline void walk(const uint8_t* base, const Group& g, F&& f) {
    if (g.nd == 0) {
        f(*reinterpret_cast<const T*>(base), int64_t(0));
        return;
    }
    int64_t inner = g.sh[g.nd - 1], ist = g.st[g.nd - 1];
    int64_t outer = 1;
    for (int d = 0; d < g.nd - 1; ++d) outer *= g.sh[d];
    int64_t idx[kMaxNdim] = {0};
    const uint8_t* p = base;
    int64_t lin = 0;
    for (int64_t o = 0; o < outer; ++o) {
        if (ist == sizeof(T)) {
            const T* q = reinterpret_cast<const T*>(p);
            for (int64_t j = 0; j < inner; ++j) f(q[j], lin + j);
        } else {
            for (int64_t j = 0; j < inner; ++j) f(*reinterpret_cast<const T*>(p + j * ist), lin + j);
        }
        lin += inner;
        for (int d = g.nd - 2; d >= 0; --d) {
            if (++idx[d] < g.sh[d]) { p += g.st[d]; break; }
            idx[d] = 0;
            p -= (g.sh[d] - 1) * g.st[d];
        }
    }
}

// out (contiguous, kept shape) = fin(fold of step over the reduced elements).
template <typename T, typename R, typename Acc, typename Step, typename Fin>
void reduce_engine(const Array& a, const std::vector<int>& axes, const Array& out, Acc init, Step step, Fin fin,
                   bool allow_vector = true) {
    Group kept, red;
    split_dims(a, axes, kept, red);
    int64_t nout = kept.count(), nred = red.count();
    R* o = out.ptr<R>();
    const uint8_t* base = a.raw();
    bool vector_path = allow_vector && kept.nd == 1 && red.nd >= 1 && kept.st[0] < red.st[red.nd - 1] && nred > 1;
    if (!vector_path) {
        int64_t grain = std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(nred, 1));
        parallel_for(nout, grain, [&](int64_t b, int64_t e) {
            for (int64_t i = b; i < e; ++i) {
                Acc acc = init;
                walk<T>(base + offset_of(kept, i), red, [&](T v, int64_t j) { step(acc, v, j); });
                o[i] = fin(acc);
            }
        });
        return;
    }
    int64_t kst = kept.st[0];
    int64_t grain = std::max<int64_t>(64, kElementwiseGrain / std::max<int64_t>(nred, 1));
    parallel_for(nout, grain, [&](int64_t b, int64_t e) {
        int64_t n = e - b;
        std::unique_ptr<Acc[]> acc(new Acc[n]);
        Acc* ac = acc.get();
        for (int64_t k = 0; k < n; ++k) ac[k] = init;
        // The reduced positions in the outer loop, the kept run as the tight one.
        for (int64_t j = 0; j < nred; ++j) {
            const uint8_t* p = base + b * kst + offset_of(red, j);
            if (kst == sizeof(T)) {
                const T* q = reinterpret_cast<const T*>(p);
                for (int64_t k = 0; k < n; ++k) step(ac[k], q[k], j);
            } else {
                for (int64_t k = 0; k < n; ++k) step(ac[k], *reinterpret_cast<const T*>(p + k * kst), j);
            }
        }
        for (int64_t k = 0; k < n; ++k) o[b + k] = fin(ac[k]);
    });
}

template <typename C> inline bool is_nan_v(C v) {
    if constexpr (std::is_floating_point<C>::value) return std::isnan(v);
    else return false;
}

Shape kept_shape(const Array& a, const std::vector<int>& axes, bool keepdims) {
    Shape s;
    std::vector<char> is_red(a.ndim(), 0);
    for (int ax : axes) is_red[ax] = 1;
    for (int i = 0; i < a.ndim(); ++i) {
        if (!is_red[i]) s.push_back(a.shape()[i]);
        else if (keepdims) s.push_back(1);
    }
    return s;
}

std::vector<int> resolve_axes(const Array& a, const Axes& axes, const char* op) {
    if (!axes) {
        std::vector<int> all(a.ndim());
        for (int i = 0; i < a.ndim(); ++i) all[i] = i;
        return all;
    }
    return normalize_axes(*axes, a.ndim(), op);
}

// gy of a reduction, broadcast back to the input's shape.
Array expand_grad(const Array& gy, const Shape& in_shape, const std::vector<int>& axes, bool keepdims) {
    Array g = gy;
    if (!keepdims) {
        Shape ks;
        std::vector<char> is_red(in_shape.size(), 0);
        for (int ax : axes) is_red[ax] = 1;
        for (int i = 0; i < in_shape.size(); ++i) ks.push_back(is_red[i] ? 1 : in_shape[i]);
        g = reshape(g, ks.to_vector());
    }
    return broadcast_to(g, in_shape);
}

enum class Kind { Sum, Prod, Max, Min, All, Any };

Array reduce_raw(Kind kind, const Array& a, const std::vector<int>& ax, bool keepdims, const char* name) {
    Shape oshape = kept_shape(a, ax, false);
    Dtype rt;
    switch (kind) {
        case Kind::Sum: case Kind::Prod: rt = is_float(a.dtype()) ? a.dtype() : Dtype::Int64; break;
        case Kind::All: case Kind::Any: rt = Dtype::Bool; break;
        default: rt = a.dtype(); break;
    }
    Array out = Array::empty(oshape, rt);
    dispatch(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = Compute<T>;
        if (kind == Kind::Sum || kind == Kind::Prod) {
            using Acc = std::conditional_t<std::is_floating_point<C>::value, double, int64_t>;
            dispatch(rt, [&](auto rtag) {
                using R = typename decltype(rtag)::type;
                if (kind == Kind::Sum)
                    reduce_engine<T, R, Acc>(a, ax, out, Acc(0), [](Acc& s, T v, int64_t) { s += static_cast<Acc>(static_cast<C>(v)); },
                                             [](Acc s) { return static_cast<R>(s); });
                else
                    reduce_engine<T, R, Acc>(a, ax, out, Acc(1), [](Acc& s, T v, int64_t) { s *= static_cast<Acc>(static_cast<C>(v)); },
                                             [](Acc s) { return static_cast<R>(s); });
            });
        } else if (kind == Kind::Max || kind == Kind::Min) {
            bool is_max = kind == Kind::Max;
            C init = is_max ? (std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::lowest())
                            : (std::numeric_limits<C>::has_infinity ? std::numeric_limits<C>::infinity() : std::numeric_limits<C>::max());
            if (is_max)
                reduce_engine<T, T, C>(a, ax, out, init, [](C& m, T v, int64_t) {
                    C x = static_cast<C>(v);
                    if (x > m || is_nan_v(x)) m = is_nan_v(m) ? m : x;
                }, [](C m) { return static_cast<T>(m); });
            else
                reduce_engine<T, T, C>(a, ax, out, init, [](C& m, T v, int64_t) {
                    C x = static_cast<C>(v);
                    if (x < m || is_nan_v(x)) m = is_nan_v(m) ? m : x;
                }, [](C m) { return static_cast<T>(m); });
        } else {
            bool is_all = kind == Kind::All;
            if (is_all)
                reduce_engine<T, bool, bool>(a, ax, out, true, [](bool& s, T v, int64_t) { s = s && (static_cast<C>(v) != C(0)); },
                                             [](bool s) { return s; });
            else
                reduce_engine<T, bool, bool>(a, ax, out, false, [](bool& s, T v, int64_t) { s = s || (static_cast<C>(v) != C(0)); },
                                             [](bool s) { return s; });
        }
    });
    if (keepdims) out = out.view(kept_shape(a, ax, true), contiguous_strides(kept_shape(a, ax, true), out.itemsize()), 0);
    return out;
}

}  // namespace

Array sum(const Array& a, const Axes& axes, bool keepdims) {
    std::vector<int> ax = resolve_axes(a, axes, "sum");
    Array out = reduce_raw(Kind::Sum, a, ax, keepdims, "sum");
    if (needs_graph({&a})) {
        // The core's sum takes None or sorted non-negative axes.
        Value axis;
        if (axes) {
            std::vector<int64_t> sorted(ax.begin(), ax.end());
            std::sort(sorted.begin(), sorted.end());
            axis = std::move(sorted);
        }
        record_rule("sum", {a}, {out}, {std::move(axis), keepdims});
    }
    return out;
}

Array mean(const Array& a, const Axes& axes, bool keepdims) {
    std::vector<int> ax = resolve_axes(a, axes, "mean");
    int64_t n = 1;
    for (int x : ax) n *= a.shape()[x];
    Array src = is_float(a.dtype()) ? a : astype(a, Dtype::Float64, true);
    Array s = sum(src, Axes(std::vector<int64_t>(ax.begin(), ax.end())), keepdims);
    return binary(BinaryOp::Div, s, Scalar::of_float(static_cast<double>(n)));
}

Array prod(const Array& a, const Axes& axes, bool keepdims) {
    std::vector<int> ax = resolve_axes(a, axes, "prod");
    Array out = reduce_raw(Kind::Prod, a, ax, keepdims, "prod");
    if (needs_graph({&a})) {
        Array od = out.as_data();
        record_op("prod", {a}, {out}, [a, od, ax, keepdims](BackwardContext& c) {
            Array p = expand_grad(c.create_graph ? prod(a, Axes(std::vector<int64_t>(ax.begin(), ax.end())), keepdims) : od,
                                  a.shape(), ax, keepdims);
            c.set(0, divide(multiply(expand_grad(c.gy(), a.shape(), ax, keepdims), p), a));
        });
    }
    return out;
}

namespace {
Array extreme(bool is_max, const Array& a, const Axes& axes, bool keepdims) {
    const char* name = is_max ? "max" : "min";
    std::vector<int> ax = resolve_axes(a, axes, name);
    int64_t nred = 1;
    for (int x : ax) nred *= a.shape()[x];
    if (nred == 0) throw ShapeError(std::string(name) + ": zero-size array to reduction operation which has no identity");
    Array out = reduce_raw(is_max ? Kind::Max : Kind::Min, a, ax, keepdims, name);
    if (needs_graph({&a})) {
        Array od = out.as_data();
        record_op(name, {a}, {out}, [a, od, ax, keepdims](BackwardContext& c) {
            Array m = expand_grad(od, a.shape(), ax, keepdims);
            Array mask = astype(compare(CompareOp::Eq, a.as_data(), m), c.gy().dtype(), true);
            c.set(0, multiply(expand_grad(c.gy(), a.shape(), ax, keepdims), mask));
        });
    }
    return out;
}
}  // namespace

Array amax(const Array& a, const Axes& axes, bool keepdims) { return extreme(true, a, axes, keepdims); }
Array amin(const Array& a, const Axes& axes, bool keepdims) { return extreme(false, a, axes, keepdims); }

Array all(const Array& a, const Axes& axes, bool keepdims) {
    return reduce_raw(Kind::All, a, resolve_axes(a, axes, "all"), keepdims, "all");
}

Array any(const Array& a, const Axes& axes, bool keepdims) {
    return reduce_raw(Kind::Any, a, resolve_axes(a, axes, "any"), keepdims, "any");
}

Array var(const Array& a, const Axes& axes, int64_t ddof, bool keepdims) {
    std::vector<int> ax = resolve_axes(a, axes, "var");
    Axes axs = Axes(std::vector<int64_t>(ax.begin(), ax.end()));
    int64_t n = 1;
    for (int x : ax) n *= a.shape()[x];
    Array src = is_float(a.dtype()) ? a : astype(a, Dtype::Float64, true);
    Array d = subtract(src, mean(src, axs, true));
    Array s = sum(multiply(d, d), axs, keepdims);
    return binary(BinaryOp::Div, s, Scalar::of_float(static_cast<double>(std::max<int64_t>(n - ddof, 0))));
}

Array std_(const Array& a, const Axes& axes, int64_t ddof, bool keepdims) { return sqrt(var(a, axes, ddof, keepdims)); }

Array logsumexp(const Array& a, const Axes& axes, bool keepdims) {
    std::vector<int> ax = resolve_axes(a, axes, "logsumexp");
    Axes axs = Axes(std::vector<int64_t>(ax.begin(), ax.end()));
    Array src = is_float(a.dtype()) ? a : astype(a, Dtype::Float64, true);
    Array m = amax(src.as_data(), axs, true);
    // An all -inf slice would give nan from -inf - -inf.
    m = where(isfinite(m), m, scalar_array(0.0, m.dtype()));
    Array r = add(log(sum(exp(subtract(src, m)), axs, true)), m);
    if (!keepdims) {
        Shape s = kept_shape(a, ax, false);
        r = reshape(r, s.to_vector());
    }
    return r;
}

namespace {
Array arg_extreme(bool is_max, const Array& a, std::optional<int64_t> axis) {
    const char* name = is_max ? "argmax" : "argmin";
    std::vector<int> ax;
    if (axis) ax.push_back(normalize_axis(*axis, a.ndim(), name));
    else for (int i = 0; i < a.ndim(); ++i) ax.push_back(i);
    int64_t nred = 1;
    for (int x : ax) nred *= a.shape()[x];
    if (nred == 0) throw ShapeError(std::string(name) + ": attempt to get " + name + " of an empty sequence");
    Array out = Array::empty(kept_shape(a, ax, false), Dtype::Int64);
    dispatch(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = Compute<T>;
        struct Best { C v; int64_t i; bool set; };
        Best init{C(0), 0, false};
        if (is_max)
            reduce_engine<T, int64_t, Best>(a, ax, out, init, [](Best& b, T v, int64_t j) {
                C x = static_cast<C>(v);
                if (!b.set || (!is_nan_v(b.v) && (x > b.v || is_nan_v(x)))) { b.v = x; b.i = j; b.set = true; }
            }, [](const Best& b) { return b.i; }, false);
        else
            reduce_engine<T, int64_t, Best>(a, ax, out, init, [](Best& b, T v, int64_t j) {
                C x = static_cast<C>(v);
                if (!b.set || (!is_nan_v(b.v) && (x < b.v || is_nan_v(x)))) { b.v = x; b.i = j; b.set = true; }
            }, [](const Best& b) { return b.i; }, false);
    });
    return out;
}
}  // namespace

Array argmax(const Array& a, std::optional<int64_t> axis) { return arg_extreme(true, a, axis); }
Array argmin(const Array& a, std::optional<int64_t> axis) { return arg_extreme(false, a, axis); }

Array sum_to(const Array& a, const Shape& shape) {
    if (a.shape() == shape) return a;
    int lead = a.ndim() - shape.size();
    if (lead < 0) throw ShapeError("sum_to: cannot sum shape " + a.shape().str() + " to " + shape.str());
    std::vector<int64_t> axes;
    for (int i = 0; i < lead; ++i) axes.push_back(i);
    for (int i = 0; i < shape.size(); ++i) {
        if (shape[i] == 1 && a.shape()[lead + i] != 1) axes.push_back(lead + i);
        else if (shape[i] != a.shape()[lead + i])
            throw ShapeError("sum_to: cannot sum shape " + a.shape().str() + " to " + shape.str());
    }
    Array s = sum(a, Axes(axes), true);
    return reshape(s, shape.to_vector());
}

}  // namespace cn
