#include <numeric>

#include "creation.h"
#include "graph.h"
#include "loops.h"
#include "manipulation.h"
#include "reduction.h"
#include "rules.h"

namespace cn {

namespace {

Shape infer_shape(const Array& a, const std::vector<int64_t>& shape) {
    Shape out;
    int unknown = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1) {
            if (unknown >= 0) throw ShapeError("reshape: can only specify one unknown dimension (-1)");
            unknown = static_cast<int>(i);
            out.push_back(1);
        } else if (shape[i] < 0) {
            throw ShapeError("reshape: negative dimension " + std::to_string(shape[i]) + " in the new shape");
        } else {
            out.push_back(shape[i]);
        }
    }
    if (unknown >= 0) {
        int64_t known = total_size(out);
        if (known == 0 || a.size() % known != 0)
            throw ShapeError("reshape: cannot reshape an array of size " + std::to_string(a.size()) + " into shape " +
                             Shape(shape).str());
        out[unknown] = a.size() / known;
    }
    if (total_size(out) != a.size())
        throw ShapeError("reshape: cannot reshape an array of size " + std::to_string(a.size()) + " (shape " +
                         a.shape().str() + ") into shape " + out.str());
    return out;
}

}  // namespace

Array reshape(const Array& a, const std::vector<int64_t>& shape) {
    Shape ns = infer_shape(a, shape);
    if (ns == a.shape()) {
        Array out = a.view(a.shape(), a.strides(), 0);
        if (needs_graph({&a})) record_rule("reshape", {a}, {out}, {ns.to_vector()});
        return out;
    }
    Array out;
    if (a.is_contiguous()) {
        out = a.view(ns, contiguous_strides(ns, a.itemsize()), 0);
    } else {
        Array c = contiguous(a.as_data());
        out = c.view(ns, contiguous_strides(ns, a.itemsize()), 0);
    }
    if (needs_graph({&a})) record_rule("reshape", {a}, {out}, {ns.to_vector()});
    return out;
}

Array ravel(const Array& a) { return reshape(a, {-1}); }

Array transpose(const Array& a, const std::optional<std::vector<int64_t>>& axes) {
    int n = a.ndim();
    std::vector<int> perm(n);
    if (!axes) {
        for (int i = 0; i < n; ++i) perm[i] = n - 1 - i;
    } else {
        if (static_cast<int>(axes->size()) != n)
            throw ShapeError("transpose: axes " + Shape(*axes).str() + " do not match an array of dimension " + std::to_string(n));
        std::vector<char> seen(n, 0);
        for (int i = 0; i < n; ++i) {
            perm[i] = normalize_axis((*axes)[i], n, "transpose");
            if (seen[perm[i]]++) throw ShapeError("transpose: repeated axis in " + Shape(*axes).str());
        }
    }
    Shape s(n);
    Strides st(n);
    for (int i = 0; i < n; ++i) {
        s[i] = a.shape()[perm[i]];
        st[i] = a.strides()[perm[i]];
    }
    Array out = a.view(s, st, 0);
    if (needs_graph({&a})) {
        Value ax;
        if (axes) ax = std::vector<int64_t>(perm.begin(), perm.end());
        record_rule("transpose", {a}, {out}, {std::move(ax)});
    }
    return out;
}

Array swapaxes(const Array& a, int64_t a1, int64_t a2) {
    int n = a.ndim();
    int i = normalize_axis(a1, n, "swapaxes"), j = normalize_axis(a2, n, "swapaxes");
    std::vector<int64_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[i], perm[j]);
    return transpose(a, perm);
}

Array moveaxis(const Array& a, const std::vector<int64_t>& src, const std::vector<int64_t>& dst) {
    int n = a.ndim();
    if (src.size() != dst.size()) throw ShapeError("moveaxis: source and destination must have the same number of elements");
    std::vector<int> s = normalize_axes(src, n, "moveaxis");
    std::vector<int> s_ordered, d_ordered;
    for (auto v : src) s_ordered.push_back(normalize_axis(v, n, "moveaxis"));
    for (auto v : dst) d_ordered.push_back(normalize_axis(v, n, "moveaxis"));
    normalize_axes(dst, n, "moveaxis");
    std::vector<int64_t> order;
    for (int i = 0; i < n; ++i)
        if (std::find(s_ordered.begin(), s_ordered.end(), i) == s_ordered.end()) order.push_back(i);
    std::vector<std::pair<int, int>> pairs;
    for (size_t k = 0; k < s_ordered.size(); ++k) pairs.emplace_back(d_ordered[k], s_ordered[k]);
    std::sort(pairs.begin(), pairs.end());
    for (auto& p : pairs) order.insert(order.begin() + p.first, p.second);
    return transpose(a, order);
}

Array squeeze(const Array& a, const std::optional<std::vector<int64_t>>& axes) {
    std::vector<int64_t> ns;
    if (!axes) {
        for (auto d : a.shape()) if (d != 1) ns.push_back(d);
    } else {
        std::vector<int> ax = normalize_axes(*axes, a.ndim(), "squeeze");
        for (int i = 0; i < a.ndim(); ++i) {
            bool drop = std::find(ax.begin(), ax.end(), i) != ax.end();
            if (drop && a.shape()[i] != 1)
                throw ShapeError("squeeze: cannot select an axis to squeeze out which has size not equal to one (axis " +
                                 std::to_string(i) + " of shape " + a.shape().str() + ")");
            if (!drop) ns.push_back(a.shape()[i]);
        }
    }
    return reshape(a, ns);
}

Array expand_dims(const Array& a, int64_t axis) {
    int ax = normalize_axis(axis, a.ndim() + 1, "expand_dims");
    std::vector<int64_t> ns = a.shape().to_vector();
    ns.insert(ns.begin() + ax, 1);
    return reshape(a, ns);
}

Array broadcast_to(const Array& a, const Shape& shape) {
    for (auto d : shape)
        if (d < 0) throw ShapeError("broadcast_to: all elements of the shape must be non-negative, got " + shape.str());
    total_size(shape);  // refuses a shape whose element count overflows
    Strides st = broadcast_strides(a, shape, "broadcast_to");
    Array out = a.view(shape, st, 0);
    if (shape != a.shape()) out.body()->writeable = false;
    if (needs_graph({&a})) {
        record_op("broadcast_to", {a}, {out}, [in = a.shape(), dt = a.dtype()](BackwardContext& c) {
            c.set(0, sum_to(c.gy(), in));
        });
    }
    return out;
}

Array concatenate(const std::vector<Array>& xs, int64_t axis) {
    if (xs.empty()) throw ShapeError("concatenate: need at least one array to concatenate");
    int nd = xs[0].ndim();
    if (nd == 0) throw ShapeError("concatenate: zero-dimensional arrays cannot be concatenated");
    int ax = normalize_axis(axis, nd, "concatenate");
    Dtype dt = xs[0].dtype();
    Shape shape = xs[0].shape();
    int64_t total = 0;
    for (size_t k = 0; k < xs.size(); ++k) {
        const Array& x = xs[k];
        if (x.ndim() != nd)
            throw ShapeError("concatenate: all the input arrays must have the same number of dimensions; array 0 has " +
                             std::to_string(nd) + " and array " + std::to_string(k) + " has " + std::to_string(x.ndim()));
        for (int i = 0; i < nd; ++i)
            if (i != ax && x.shape()[i] != shape[i])
                throw ShapeError("concatenate: the shapes " + shape.str() + " and " + x.shape().str() + " (array " +
                                 std::to_string(k) + ") differ outside axis " + std::to_string(ax));
        dt = promote_types(dt, x.dtype());
        total += x.shape()[ax];
    }
    shape[ax] = total;
    Array out = Array::empty(shape, dt);
    int64_t off = 0;
    std::vector<int64_t> points;
    for (const auto& x : xs) {
        Shape s = shape;
        s[ax] = x.shape()[ax];
        Array dst = out.view(s, out.strides(), off * out.strides()[ax]);
        assign(dst, x.as_data());
        off += x.shape()[ax];
        points.push_back(off);
    }
    points.pop_back();
    bool grad = false;
    for (const auto& x : xs) grad = grad || (x.requires_grad());
    if (grad && backprop_enabled() && is_float(dt)) {
        std::vector<Dtype> dts;
        for (const auto& x : xs) dts.push_back(x.dtype());
        record_op("concatenate", xs, {out}, [points, ax, dts](BackwardContext& c) {
            std::vector<Array> parts = split_at(c.gy(), points, ax);
            for (size_t k = 0; k < parts.size(); ++k)
                if (c.needs(static_cast<int>(k)))
                    c.set(static_cast<int>(k), parts[k].dtype() == dts[k] ? parts[k] : astype(parts[k], dts[k], false));
        });
    }
    return out;
}

Array stack(const std::vector<Array>& xs, int64_t axis) {
    if (xs.empty()) throw ShapeError("stack: need at least one array to stack");
    for (size_t k = 1; k < xs.size(); ++k)
        if (xs[k].shape() != xs[0].shape())
            throw ShapeError("stack: all input arrays must have the same shape; array 0 has " + xs[0].shape().str() +
                             " and array " + std::to_string(k) + " has " + xs[k].shape().str());
    int ax = normalize_axis(axis, xs[0].ndim() + 1, "stack");
    std::vector<Array> ex;
    for (const auto& x : xs) ex.push_back(expand_dims(x, ax));
    return concatenate(ex, ax);
}

std::vector<Array> split_at(const Array& a, const std::vector<int64_t>& points, int64_t axis) {
    if (a.ndim() == 0) throw ShapeError("split: cannot split a zero-dimensional array");
    int ax = normalize_axis(axis, a.ndim(), "split");
    int64_t n = a.shape()[ax];
    std::vector<Array> outs;
    std::vector<int64_t> bounds;
    int64_t prev = 0;
    auto piece = [&](int64_t b, int64_t e) {
        b = std::min(std::max<int64_t>(b, 0), n);
        e = std::min(std::max<int64_t>(e, b), n);
        Shape s = a.shape();
        s[ax] = e - b;
        outs.push_back(a.view(s, a.strides(), b * a.strides()[ax]));
        bounds.push_back(e - b);
    };
    for (int64_t p : points) {
        int64_t q = p < 0 ? p + n : p;
        piece(prev, q);
        prev = std::max(prev, std::min(std::max<int64_t>(q, 0), n));
    }
    piece(prev, n);
    if (needs_graph({&a})) {
        record_op("split", {a}, outs, [ax, shape = a.shape(), dt = a.dtype()](BackwardContext& c) {
            std::vector<Array> gs;
            for (size_t k = 0; k < c.gys.size(); ++k) gs.push_back(c.gy(static_cast<int>(k)));
            Array g = concatenate(gs, ax);
            c.set(0, g);
        });
    }
    return outs;
}

std::vector<Array> split_sections(const Array& a, int64_t sections, int64_t axis) {
    if (sections <= 0) throw ShapeError("split: the number of sections must be larger than 0, got " + std::to_string(sections));
    if (a.ndim() == 0) throw ShapeError("split: cannot split a zero-dimensional array");
    int ax = normalize_axis(axis, a.ndim(), "split");
    int64_t n = a.shape()[ax];
    if (n % sections != 0)
        throw ShapeError("split: an axis of length " + std::to_string(n) + " does not divide into " +
                         std::to_string(sections) + " equal sections");
    std::vector<int64_t> points;
    for (int64_t k = 1; k < sections; ++k) points.push_back(k * (n / sections));
    return split_at(a, points, ax);
}

}  // namespace cn
