// Indexing. Basic indices (ints, slices, None, Ellipsis) make views; integer
// and boolean arrays gather (and scatter, for assignment and gradients) one
// block per index position.
#include <cstring>

#include "creation.h"
#include "elementwise.h"
#include "graph.h"
#include "indexing.h"
#include "loops.h"
#include "manipulation.h"

namespace cn {

namespace {

int64_t slice_len(int64_t start, int64_t stop, int64_t step) {
    if (step > 0) return stop > start ? (stop - start + step - 1) / step : 0;
    return start > stop ? (start - stop + (-step) - 1) / (-step) : 0;
}

void slice_indices(const Index& ix, int64_t n, int64_t& start, int64_t& stop, int64_t& step) {
    step = ix.step ? *ix.step : 1;
    if (step == 0) throw ShapeError("slice step cannot be zero");
    if (step > 0) {
        start = ix.start ? *ix.start : 0;
        stop = ix.stop ? *ix.stop : n;
        if (start < 0) start = std::max<int64_t>(start + n, 0);
        if (stop < 0) stop = std::max<int64_t>(stop + n, 0);
        start = std::min(start, n);
        stop = std::min(stop, n);
    } else {
        start = ix.start ? *ix.start : n - 1;
        stop = ix.stop ? *ix.stop : -n - 1;
        if (start < 0) start = std::max<int64_t>(start + n, -1);
        else start = std::min(start, n - 1);
        if (stop < 0) stop = std::max<int64_t>(stop + n, -1);
        else stop = std::min(stop, n - 1);
    }
}

// Nonzero positions of a boolean array, one int64 array per dimension.
std::vector<Array> nonzero(const Array& m) {
    Array mc = contiguous(m.as_data());
    const bool* p = mc.ptr<bool>();
    int64_t n = mc.size(), cnt = 0;
    for (int64_t i = 0; i < n; ++i) cnt += p[i] ? 1 : 0;
    std::vector<Array> out;
    for (int d = 0; d < mc.ndim(); ++d) out.push_back(Array::empty(Shape{cnt}, Dtype::Int64));
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (!p[i]) continue;
        int64_t r = i;
        for (int d = mc.ndim() - 1; d >= 0; --d) {
            out[d].ptr<int64_t>()[k] = r % mc.shape()[d];
            r /= mc.shape()[d];
        }
        ++k;
    }
    return out;
}

struct Plan {
    Array v;                  // basic-indexed view; array-indexed dims kept whole
    std::vector<int> pos;     // dims of v indexed by arrays
    std::vector<Array> idx;   // int64, broadcast to shape b
    Shape b;
    bool advanced = false;
    bool front = false;       // the index dims go first (non-adjacent array indices)
    Shape rest;
    Strides rest_st;
    int insert_at = 0;
    Shape result;
};

Plan plan_index(const Array& a, const std::vector<Index>& index) {
    Plan pl;
    std::vector<Index> ix;
    bool any_array = false;
    for (const auto& e : index) {
        if (e.kind == Index::Array_) {
            if (e.arr.dtype() == Dtype::Bool) {
                for (auto& z : nonzero(e.arr)) {
                    Index n;
                    n.kind = Index::Array_;
                    n.arr = z;
                    ix.push_back(n);
                }
                any_array = true;
                continue;
            }
            if (!(dtype_kind(e.arr.dtype()) == 'i' || dtype_kind(e.arr.dtype()) == 'u'))
                throw IndexError(std::string("arrays used as indices must be of integer (or boolean) type, got ") +
                                 dtype_name(e.arr.dtype()));
            any_array = true;
        }
        ix.push_back(e);
    }
    int consumed = 0, ellipses = 0;
    for (const auto& e : ix) {
        if (e.kind == Index::Ellipsis) ++ellipses;
        else if (e.kind != Index::NewAxis) ++consumed;
    }
    if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
    if (consumed > a.ndim())
        throw IndexError("too many indices for array: array is " + std::to_string(a.ndim()) + "-dimensional, but " +
                         std::to_string(consumed) + " were indexed");
    Shape shape;
    Strides strides;
    int64_t off = 0;
    int dim = 0;
    std::vector<int> array_pos;
    std::vector<Array> arrays;
    std::vector<int> order;  // position in ix of each array, to detect adjacency
    for (size_t k = 0; k < ix.size(); ++k) {
        const Index& e = ix[k];
        switch (e.kind) {
            case Index::Ellipsis:
                for (int r = 0; r < a.ndim() - consumed; ++r, ++dim) {
                    shape.push_back(a.shape()[dim]);
                    strides.push_back(a.strides()[dim]);
                }
                break;
            case Index::NewAxis:
                shape.push_back(1);
                strides.push_back(0);
                break;
            case Index::Int: {
                int64_t n = a.shape()[dim], i = e.i;
                if (i < -n || i >= n)
                    throw IndexError("index " + std::to_string(e.i) + " is out of bounds for axis " + std::to_string(dim) +
                                     " with size " + std::to_string(n));
                if (i < 0) i += n;
                if (any_array) {
                    Array z = scalar_array_int(i, Dtype::Int64);
                    array_pos.push_back(shape.size());
                    arrays.push_back(z);
                    order.push_back(static_cast<int>(k));
                    shape.push_back(n);
                    strides.push_back(a.strides()[dim]);
                } else {
                    off += i * a.strides()[dim];
                }
                ++dim;
                break;
            }
            case Index::Slice: {
                int64_t n = a.shape()[dim], start, stop, step;
                slice_indices(e, n, start, stop, step);
                int64_t len = slice_len(start, stop, step);
                if (len > 0) off += start * a.strides()[dim];
                shape.push_back(len);
                strides.push_back(a.strides()[dim] * step);
                ++dim;
                break;
            }
            case Index::Array_:
                array_pos.push_back(shape.size());
                arrays.push_back(e.arr);
                order.push_back(static_cast<int>(k));
                shape.push_back(a.shape()[dim]);
                strides.push_back(a.strides()[dim]);
                ++dim;
                break;
        }
    }
    for (; dim < a.ndim(); ++dim) {
        shape.push_back(a.shape()[dim]);
        strides.push_back(a.strides()[dim]);
    }
    pl.v = a.as_data().view(shape, strides, off);
    if (arrays.empty()) {
        pl.result = shape;
        return pl;
    }
    pl.advanced = true;
    pl.pos = array_pos;
    Shape b = arrays[0].shape();
    for (size_t k = 1; k < arrays.size(); ++k) b = broadcast_shapes(b, arrays[k].shape(), "index");
    pl.b = b;
    for (size_t k = 0; k < arrays.size(); ++k) {
        Array ik = contiguous_as(broadcast_to(arrays[k].as_data(), b), Dtype::Int64);
        int64_t n = shape[array_pos[k]];
        int64_t* p = ik.ptr<int64_t>();
        for (int64_t j = 0; j < ik.size(); ++j) {
            if (p[j] < -n || p[j] >= n)
                throw IndexError("index " + std::to_string(p[j]) + " is out of bounds for axis " +
                                 std::to_string(array_pos[k]) + " with size " + std::to_string(n));
        }
        pl.idx.push_back(ik);
    }
    bool adjacent = true;
    for (size_t k = 1; k < order.size(); ++k)
        if (order[k] != order[k - 1] + 1) adjacent = false;
    pl.front = !adjacent;
    for (int d = 0; d < shape.size(); ++d) {
        if (std::find(array_pos.begin(), array_pos.end(), d) != array_pos.end()) continue;
        pl.rest.push_back(shape[d]);
        pl.rest_st.push_back(strides[d]);
    }
    pl.insert_at = pl.front ? 0 : array_pos[0];
    Shape r;
    for (int d = 0; d < pl.insert_at; ++d) r.push_back(pl.rest[d]);
    for (auto d : b) r.push_back(d);
    for (int d = pl.insert_at; d < pl.rest.size(); ++d) r.push_back(pl.rest[d]);
    pl.result = r;
    return pl;
}

// The result of a plan in "front" layout (b dims first), seen from an array
// laid out as pl.result: a transposed view.
Array to_front(const Array& r, const Plan& pl) {
    if (pl.insert_at == 0) return r;
    std::vector<int64_t> perm;
    int nb = pl.b.size();
    for (int d = 0; d < nb; ++d) perm.push_back(pl.insert_at + d);
    for (int d = 0; d < pl.insert_at; ++d) perm.push_back(d);
    for (int d = pl.insert_at + nb; d < r.ndim(); ++d) perm.push_back(d);
    Shape s;
    Strides st;
    for (auto p : perm) {
        s.push_back(r.shape()[p]);
        st.push_back(r.strides()[p]);
    }
    return r.view(s, st, 0);
}

int64_t base_offset(const Plan& pl, int64_t j) {
    int64_t off = 0;
    for (size_t k = 0; k < pl.idx.size(); ++k) {
        int64_t i = pl.idx[k].ptr<int64_t>()[j];
        int64_t n = pl.v.shape()[pl.pos[k]];
        if (i < 0) i += n;
        off += i * pl.v.strides()[pl.pos[k]];
    }
    return off;
}

// For each index position j: f(block of v at j, block j of `front`).
template <typename F>
void for_each_block(const Plan& pl, const Array& front, F&& f) {
    int64_t nb = total_size(pl.b);
    int nbd = pl.b.size();
    Strides fst(front.strides().begin() + nbd, front.strides().end());
    int64_t idx[kMaxNdim] = {0};
    for (int64_t j = 0; j < nb; ++j) {
        int64_t foff = 0, r = j;
        for (int d = nbd - 1; d >= 0; --d) {
            idx[d] = r % pl.b[d];
            r /= pl.b[d];
            foff += idx[d] * front.strides()[d];
        }
        Array src = pl.v.view(pl.rest, pl.rest_st, base_offset(pl, j));
        Array dst = front.view(pl.rest, fst, foff);
        f(src, dst);
    }
}

void add_block(const Array& dst, const Array& src) {
    dispatch(dst.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        using C = Compute<T>;
        Strides ss = broadcast_strides(src, dst.shape(), "index");
        binary_loop<T, T>(dst, dst.strides(), src, ss, dst, [](C x, C y) { return static_cast<C>(x + y); });
    });
}

}  // namespace

Array getitem(const Array& a, const std::vector<Index>& index) {
    Plan pl = plan_index(a, index);
    Array out;
    if (!pl.advanced) {
        out = pl.v;
        out.body()->writeable = a.writeable();
    } else {
        out = Array::empty(pl.result, a.dtype());
        Array front = to_front(out, pl);
        int64_t isz = a.itemsize();
        bool fast = pl.rest.size() == 0;
        for_each_block(pl, front, [&](const Array& src, const Array& dst) {
            if (fast) std::memcpy(dst.raw(), src.raw(), isz);
            else assign(dst, src);
        });
    }
    if (needs_graph({&a})) {
        record_op("getitem", {a}, {out}, [index, shape = a.shape()](BackwardContext& c) {
            c.set(0, getitem_grad(c.gy(), index, shape));
        });
    }
    return out;
}

Array getitem_grad(const Array& g, const std::vector<Index>& index, const Shape& shape) {
    Array gx = zeros(shape, g.dtype());
    Plan pl = plan_index(gx, index);
    Array gd = g.as_data();
    if (!pl.advanced) {
        Array target = pl.v;
        if (target.shape() != g.shape()) gd = reshape(gd, target.shape().to_vector());
        add_block(target, gd);
    } else {
        Array gr = gd.shape() == pl.result ? gd : broadcast_to(gd, pl.result);
        Array front = to_front(gr, pl);
        for_each_block(pl, front, [&](const Array& dst_in_x, const Array& src_in_g) { add_block(dst_in_x, src_in_g); });
    }
    if (needs_graph({&g})) {
        record_op("getitem_grad", {g}, {gx}, [index](BackwardContext& c) { c.set(0, getitem(c.gy(), index)); });
    }
    return gx;
}

void setitem(const Array& a, const std::vector<Index>& index, const Array& v) {
    a.check_writeable("setitem");
    if (a.requires_grad() && a.body()->node->creator && backprop_enabled())
        throw GradError("setitem: in-place assignment into an array computed by a recorded op would corrupt its gradient");
    Plan pl = plan_index(a, index);
    if (!pl.advanced) {
        assign(pl.v, v);
        return;
    }
    Array vb = broadcast_to(v.as_data(), pl.result);
    Array front = to_front(vb, pl);
    for_each_block(pl, front, [&](const Array& dst, const Array& src) { assign(dst, src); });
}

Array take(const Array& a, const Array& indices, std::optional<int64_t> axis) {
    std::vector<Index> ix;
    Array src = a;
    if (!axis) {
        src = reshape(a, {-1});
    } else {
        int ax = normalize_axis(*axis, a.ndim(), "take");
        for (int d = 0; d < ax; ++d) {
            Index s;
            s.kind = Index::Slice;
            ix.push_back(s);
        }
    }
    Index e;
    e.kind = Index::Array_;
    e.arr = indices;
    if (dtype_kind(indices.dtype()) != 'i' && dtype_kind(indices.dtype()) != 'u')
        throw DtypeError(std::string("take: indices must be integers, got ") + dtype_name(indices.dtype()));
    ix.push_back(e);
    return getitem(src, ix);
}

}  // namespace cn
