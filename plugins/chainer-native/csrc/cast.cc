// Casting copies between every pair of dtypes, and the routines built on them.
#include <cmath>

#include "creation.h"
#include "graph.h"
#include "loops.h"

namespace cn {

namespace {

struct Identity {
    template <typename V> V operator()(V v) const { return v; }
};

// dst = src (broadcast through src_strides), converting element types.
void cast_into(const Array& src, const Strides& src_strides, const Array& dst) {
    dispatch(src.dtype(), [&](auto st) {
        using S = typename decltype(st)::type;
        dispatch(dst.dtype(), [&](auto dt) {
            using D = typename decltype(dt)::type;
            unary_loop<S, D>(src, src_strides, dst, Identity());
        });
    });
}

}  // namespace

void assign(const Array& dst, const Array& src) {
    dst.check_writeable("assign");
    Strides s = broadcast_strides(src, dst.shape(), "assign");
    if (src.data() == dst.data()) {
        // Overlapping buffers: go through a temporary.
        Array tmp = Array::empty(dst.shape(), src.dtype());
        cast_into(src, s, tmp);
        cast_into(tmp, tmp.strides(), dst);
        return;
    }
    cast_into(src, s, dst);
}

Array contiguous_as(const Array& a, Dtype dtype) {
    if (a.dtype() == dtype && a.is_contiguous()) return a.as_data();
    Array out = Array::empty(a.shape(), dtype);
    cast_into(a, a.strides(), out);
    return out;
}

Array contiguous(const Array& a) { return contiguous_as(a, a.dtype()); }

Array copy(const Array& a) {
    Array out = Array::empty(a.shape(), a.dtype());
    cast_into(a, a.strides(), out);
    if (needs_graph({&a})) {
        record_op("copy", {a}, {out}, [](BackwardContext& c) { c.set(0, c.gy()); });
    }
    return out;
}

Array astype(const Array& a, Dtype dtype, bool copy_) {
    if (a.dtype() == dtype && !copy_) return a;
    Array out = Array::empty(a.shape(), dtype);
    cast_into(a, a.strides(), out);
    if (is_float(dtype) && needs_graph({&a})) {
        Dtype src = a.dtype();
        record_op("astype", {a}, {out}, [src](BackwardContext& c) { c.set(0, astype(c.gy(), src, false)); });
    }
    return out;
}

}  // namespace cn
