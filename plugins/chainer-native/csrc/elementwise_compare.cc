// Comparisons, logical ops, predicates, where and clip.
#include <cmath>
#include <type_traits>

#include "elementwise.h"
#include "elementwise_internal.h"
#include "graph.h"
#include "loops.h"

namespace cn {

namespace {

const char* op_name(CompareOp op) {
    static const char* names[] = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
                                  "logical_and", "logical_or", "logical_xor"};
    return names[static_cast<int>(op)];
}

template <typename T>
void run_compare(CompareOp op, const Array& a, const Strides& as, const Array& b, const Strides& bs, const Array& out) {
    using C = Compute<T>;
    switch (op) {
        case CompareOp::Eq: binary_loop<T, bool>(a, as, b, bs, out, [](C x, C y) { return x == y; }); break;
        case CompareOp::Ne: binary_loop<T, bool>(a, as, b, bs, out, [](C x, C y) { return x != y; }); break;
        case CompareOp::Lt: binary_loop<T, bool>(a, as, b, bs, out, [](C x, C y) { return x < y; }); break;
        case CompareOp::Le: binary_loop<T, bool>(a, as, b, bs, out, [](C x, C y) { return x <= y; }); break;
        case CompareOp::Gt: binary_loop<T, bool>(a, as, b, bs, out, [](C x, C y) { return x > y; }); break;
        case CompareOp::Ge: binary_loop<T, bool>(a, as, b, bs, out, [](C x, C y) { return x >= y; }); break;
        case CompareOp::And: binary_loop<T, bool>(a, as, b, bs, out, [](C x, C y) { return x != C(0) && y != C(0); }); break;
        case CompareOp::Or: binary_loop<T, bool>(a, as, b, bs, out, [](C x, C y) { return x != C(0) || y != C(0); }); break;
        case CompareOp::Xor: binary_loop<T, bool>(a, as, b, bs, out, [](C x, C y) { return (x != C(0)) != (y != C(0)); }); break;
    }
}

template <typename Pred>
Array predicate(const Array& a, const char* name, Pred pred) {
    Array out = Array::empty(a.shape(), Dtype::Bool);
    dispatch(a.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = Compute<T>;
        unary_loop<T, bool>(a, a.strides(), out, [&](C x) { return pred(x); });
    });
    return out;
}

}  // namespace

Array compare(CompareOp op, const Array& a, const Array& b) {
    const char* name = op_name(op);
    Dtype ct = promote_types(a.dtype(), b.dtype());
    Shape shape = a.shape() == b.shape() ? a.shape() : broadcast_shapes(a.shape(), b.shape(), name);
    Array ac = a.dtype() == ct ? a : contiguous_as(a, ct);
    Array bc = b.dtype() == ct ? b : contiguous_as(b, ct);
    Array out = Array::empty(shape, Dtype::Bool);
    Strides as = broadcast_strides(ac, shape, name), bs = broadcast_strides(bc, shape, name);
    dispatch(ct, [&](auto tag) { run_compare<typename decltype(tag)::type>(op, ac, as, bc, bs, out); });
    return out;
}

Array isnan(const Array& a) {
    return predicate(a, "isnan", [](auto x) {
        if constexpr (std::is_floating_point<decltype(x)>::value) return std::isnan(x);
        else return false;
    });
}

Array isinf(const Array& a) {
    return predicate(a, "isinf", [](auto x) {
        if constexpr (std::is_floating_point<decltype(x)>::value) return std::isinf(x);
        else return false;
    });
}

Array isfinite(const Array& a) {
    return predicate(a, "isfinite", [](auto x) {
        if constexpr (std::is_floating_point<decltype(x)>::value) return std::isfinite(x);
        else return true;
    });
}

Array logical_not(const Array& a) {
    return predicate(a, "logical_not", [](auto x) { return !(x != decltype(x)(0)); });
}

Array where(const Array& cond, const Array& x, const Array& y) {
    Dtype rt = promote_types(x.dtype(), y.dtype());
    Shape shape = broadcast_shapes(broadcast_shapes(cond.shape(), x.shape(), "where"), y.shape(), "where");
    Array cc = cond.dtype() == Dtype::Bool ? cond : contiguous_as(cond, Dtype::Bool);
    Array xc = x.dtype() == rt ? x : contiguous_as(x, rt);
    Array yc = y.dtype() == rt ? y : contiguous_as(y, rt);
    Array out = Array::empty(shape, rt);
    Strides cs = broadcast_strides(cc, shape, "where"), xs = broadcast_strides(xc, shape, "where"),
            ys = broadcast_strides(yc, shape, "where");
    dispatch(rt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_each_run<4>(shape, {out.raw(), cc.raw(), xc.raw(), yc.raw()}, {&out.strides(), &cs, &xs, &ys},
                        [&](uint8_t** p, const int64_t* s, int64_t n) {
            for (int64_t i = 0; i < n; ++i)
                *reinterpret_cast<T*>(p[0] + i * s[0]) = *reinterpret_cast<const bool*>(p[1] + i * s[1])
                    ? *reinterpret_cast<const T*>(p[2] + i * s[2]) : *reinterpret_cast<const T*>(p[3] + i * s[3]);
        });
    });
    if (is_float(rt) && needs_graph({&x, &y})) {
        Array cd = cc.as_data();
        record_op("where", {x, y}, {out}, [cd, sx = x.shape(), dx = x.dtype(), sy = y.shape(), dy = y.dtype()](BackwardContext& c) {
            Array gy = c.gy();
            Array zero = scalar_array(0.0, gy.dtype());
            if (c.needs(0)) c.set(0, grad_to(where(cd, gy, zero), sx, dx));
            if (c.needs(1)) c.set(1, grad_to(where(cd, zero, gy), sy, dy));
        });
    }
    return out;
}

Array clip(const Array& a, const Array* lo, const Array* hi) {
    Array r = a;
    if (lo) r = binary(BinaryOp::Maximum, r, *lo);
    if (hi) r = binary(BinaryOp::Minimum, r, *hi);
    if (!lo && !hi) r = copy(a);
    return r;
}

}  // namespace cn
