// Module-level routines of chainer_native: creation, elementwise math,
// reductions, linear algebra, manipulation and the neural-network routines.
#include <pybind11/numpy.h>

#include "bind_util.h"
#include "creation.h"
#include "elementwise.h"
#include "graph.h"
#include "indexing.h"
#include "linalg.h"
#include "manipulation.h"
#include "nn.h"
#include "optimizer.h"
#include "reduction.h"

namespace cn {

Array from_dlpack_capsule(py::object cap);

namespace {

Array A(py::handle h) { return to_array(h); }

// A routine's two operands, with Python numbers kept weak (NEP 50).
Array binary_any(BinaryOp op, py::handle a, py::handle b) {
    Scalar s;
    if (!is_ndarray(a) && py_scalar(a, s) && !py_scalar(b, s)) {
        py_scalar(a, s);
        return binary(op, s, A(b));
    }
    if (!is_ndarray(b) && py_scalar(b, s) && !is_ndarray(a) && py_scalar(a, s)) return binary(op, A(a), A(b));
    if (!is_ndarray(b) && py_scalar(b, s)) return binary(op, A(a), s);
    return binary(op, A(a), A(b));
}

Array compare_any(CompareOp op, py::handle a, py::handle b) {
    Array x = A(a), y;
    Scalar s;
    if (!is_ndarray(b) && py_scalar(b, s)) {
        Dtype d = promote_with_scalar(x.dtype(), s.kind);
        y = Array::empty(Shape{}, d);
        dispatch(d, [&](auto tag) {
            using T = typename decltype(tag)::type;
            *y.ptr<T>() = s.as<T>();
        });
    } else {
        y = A(b);
    }
    return compare(op, x, y);
}

// An array updated in place: a chainer_native.ndarray itself (a conversion
// would update a copy).
Array inplace_arg(py::handle h, const char* routine, const char* what) {
    if (!is_ndarray(h))
        throw DtypeError(std::string(routine) + ": " + what + " must be a chainer_native.ndarray, got " + py_type_name(h));
    return arr_of(h);
}

Scalar scalar_of(py::handle v) {
    Scalar s;
    if (py_scalar(v, s)) return s;
    Array a = A(v);
    if (a.size() != 1) throw ShapeError("fill value must be a scalar, got shape " + a.shape().str());
    if (is_float(a.dtype())) return Scalar::of_float(item_as_double(a));
    if (a.dtype() == Dtype::Bool) return Scalar::of_bool(item_as_double(a) != 0);
    return Scalar::of_int(static_cast<int64_t>(item_as_double(a)));
}

Dtype dtype_or(py::handle d, Dtype dflt) { return d.is_none() ? dflt : dtype_from_py(d); }

std::vector<int64_t> ints_or_empty(py::handle h, const char* what) {
    if (h.is_none()) return {};
    return ints_from_py(h, what);
}

std::vector<Array> arrays_of(py::handle seq) {
    std::vector<Array> xs;
    if (is_ndarray(seq)) {
        Array a = arr_of(seq);
        if (a.ndim() == 0) throw ShapeError("expected a sequence of arrays, got a 0-dimensional array");
        for (int64_t i = 0; i < a.shape()[0]; ++i) {
            Index ix;
            ix.kind = Index::Int;
            ix.i = i;
            xs.push_back(getitem(a, {ix}));
        }
        return xs;
    }
    for (auto item : py::reinterpret_borrow<py::iterable>(seq)) xs.push_back(A(item));
    return xs;
}

py::tuple tuple_of(const std::vector<Array>& xs) {
    py::tuple t(xs.size());
    for (size_t i = 0; i < xs.size(); ++i) t[i] = py::cast(xs[i]);
    return t;
}

Array opt_array(py::handle h) { return h.is_none() ? Array() : A(h); }

}  // namespace

void bind_routines(py::module_& m) {
    using py::arg;
    auto none = py::none();

    // Creation.
    m.def("array", [](py::handle obj, py::handle dtype, bool copy_) {
        Array a = to_array(obj, optional_dtype(dtype));
        if (copy_ && (is_ndarray(obj) || py::isinstance<py::array>(obj) || a.data() == A(obj).data()))
            return contiguous_as(a, a.dtype()).data() == a.data() ? cn::copy(a.as_data()) : contiguous_as(a, a.dtype());
        return a;
    }, arg("object"), arg("dtype") = none, arg("copy") = true, "A new array (a copy unless copy=False allows sharing).");
    m.def("asarray", [](py::handle obj, py::handle dtype) { return to_array(obj, optional_dtype(dtype)); },
          arg("a"), arg("dtype") = none, "An array sharing memory with a when its dtype and layout allow.");
    m.def("ascontiguousarray", [](py::handle obj, py::handle dtype) {
        Array a = to_array(obj, optional_dtype(dtype));
        return a.is_contiguous() ? a : contiguous(a.as_data());
    }, arg("a"), arg("dtype") = none);
    m.def("from_dlpack", [](py::object obj) {
        if (PyCapsule_CheckExact(obj.ptr())) return from_dlpack_capsule(obj);
        if (!py::hasattr(obj, "__dlpack__")) throw DtypeError("from_dlpack: the object has no __dlpack__ method");
        if (py::hasattr(obj, "__dlpack_device__")) {
            auto dev = obj.attr("__dlpack_device__")().cast<std::pair<int, int>>();
            if (dev.first != 1)
                throw py::buffer_error("from_dlpack: only CPU arrays can be imported, got device type " + std::to_string(dev.first));
        }
        py::object cap;
        try {
            cap = obj.attr("__dlpack__")(py::arg("max_version") = py::make_tuple(1, 0));
        } catch (py::error_already_set& e) {
            if (!e.matches(PyExc_TypeError)) throw;
            cap = obj.attr("__dlpack__")();
        }
        return from_dlpack_capsule(cap);
    }, arg("x"), "An array sharing memory with a DLPack producer (CPU).");
    m.def("empty", [](py::handle shape, py::handle dtype) { return Array::empty(shape_from_py(shape), dtype_or(dtype, Dtype::Float64)); },
          arg("shape"), arg("dtype") = none);
    m.def("zeros", [](py::handle shape, py::handle dtype) { return zeros(shape_from_py(shape), dtype_or(dtype, Dtype::Float64)); },
          arg("shape"), arg("dtype") = none);
    m.def("ones", [](py::handle shape, py::handle dtype) { return ones(shape_from_py(shape), dtype_or(dtype, Dtype::Float64)); },
          arg("shape"), arg("dtype") = none);
    m.def("full", [](py::handle shape, py::handle v, py::handle dtype) {
        Scalar s = scalar_of(v);
        Dtype d = dtype.is_none() ? (s.kind == ScalarKind::Float ? Dtype::Float64 : s.kind == ScalarKind::Int ? Dtype::Int64 : Dtype::Bool)
                                  : dtype_from_py(dtype);
        return full(shape_from_py(shape), s, d);
    }, arg("shape"), arg("fill_value"), arg("dtype") = none);
    m.def("empty_like", [](py::handle a, py::handle dtype) { Array x = A(a); return Array::empty(x.shape(), dtype_or(dtype, x.dtype())); },
          arg("a"), arg("dtype") = none);
    m.def("zeros_like", [](py::handle a, py::handle dtype) { Array x = A(a); return zeros(x.shape(), dtype_or(dtype, x.dtype())); },
          arg("a"), arg("dtype") = none);
    m.def("ones_like", [](py::handle a, py::handle dtype) { Array x = A(a); return ones(x.shape(), dtype_or(dtype, x.dtype())); },
          arg("a"), arg("dtype") = none);
    m.def("full_like", [](py::handle a, py::handle v, py::handle dtype) {
        Array x = A(a);
        return full(x.shape(), scalar_of(v), dtype_or(dtype, x.dtype()));
    }, arg("a"), arg("fill_value"), arg("dtype") = none);
    m.def("arange", [](py::handle start, py::handle stop, py::handle step, py::handle dtype) {
        Scalar b = scalar_of(start), e, st = Scalar::of_int(1);
        if (stop.is_none()) {
            e = b;
            b = Scalar::of_int(0);
        } else {
            e = scalar_of(stop);
        }
        if (!step.is_none()) st = scalar_of(step);
        bool fl = b.kind == ScalarKind::Float || e.kind == ScalarKind::Float || st.kind == ScalarKind::Float;
        return arange(b, e, st, dtype_or(dtype, fl ? Dtype::Float64 : Dtype::Int64));
    }, arg("start"), arg("stop") = none, arg("step") = none, arg("dtype") = none);
    m.def("linspace", [](double start, double stop, int64_t num, bool endpoint, py::handle dtype) {
        return linspace(start, stop, num, endpoint, dtype_or(dtype, Dtype::Float64));
    }, arg("start"), arg("stop"), arg("num") = 50, arg("endpoint") = true, arg("dtype") = none);
    m.def("eye", [](int64_t n, std::optional<int64_t> mm, int64_t k, py::handle dtype) {
        return eye(n, mm ? *mm : n, k, dtype_or(dtype, Dtype::Float64));
    }, arg("N"), arg("M") = none, arg("k") = 0, arg("dtype") = none);
    m.def("identity", [](int64_t n, py::handle dtype) { return eye(n, n, 0, dtype_or(dtype, Dtype::Float64)); },
          arg("n"), arg("dtype") = none);
    m.def("copy", [](py::handle a) { return copy(A(a)); }, arg("a"));

    // Elementwise.
    struct B { const char* name; BinaryOp op; };
    for (B b : {B{"add", BinaryOp::Add}, B{"subtract", BinaryOp::Sub}, B{"multiply", BinaryOp::Mul},
                B{"divide", BinaryOp::Div}, B{"true_divide", BinaryOp::Div}, B{"power", BinaryOp::Pow},
                B{"maximum", BinaryOp::Maximum}, B{"minimum", BinaryOp::Minimum},
                B{"floor_divide", BinaryOp::FloorDiv}, B{"remainder", BinaryOp::Mod}, B{"mod", BinaryOp::Mod}}) {
        BinaryOp op = b.op;
        m.def(b.name, [op](py::handle x, py::handle y) { return binary_any(op, x, y); }, arg("x1"), arg("x2"));
    }
    struct U { const char* name; UnaryOp op; };
    for (U u : {U{"negative", UnaryOp::Neg}, U{"absolute", UnaryOp::Abs}, U{"abs", UnaryOp::Abs}, U{"sign", UnaryOp::Sign},
                U{"square", UnaryOp::Square}, U{"sqrt", UnaryOp::Sqrt}, U{"exp", UnaryOp::Exp}, U{"log", UnaryOp::Log},
                U{"log2", UnaryOp::Log2}, U{"log10", UnaryOp::Log10}, U{"log1p", UnaryOp::Log1p}, U{"expm1", UnaryOp::Expm1},
                U{"sin", UnaryOp::Sin}, U{"cos", UnaryOp::Cos}, U{"tan", UnaryOp::Tan}, U{"tanh", UnaryOp::Tanh},
                U{"sigmoid", UnaryOp::Sigmoid}, U{"relu", UnaryOp::Relu}, U{"reciprocal", UnaryOp::Reciprocal},
                U{"floor", UnaryOp::Floor}, U{"ceil", UnaryOp::Ceil}, U{"arcsin", UnaryOp::Arcsin},
                U{"arccos", UnaryOp::Arccos}, U{"arctan", UnaryOp::Arctan}, U{"sinh", UnaryOp::Sinh},
                U{"cosh", UnaryOp::Cosh}, U{"rsqrt", UnaryOp::Rsqrt}}) {
        UnaryOp op = u.op;
        m.def(u.name, [op](py::handle x) { return unary(op, A(x)); }, arg("x"));
    }
    struct Cm { const char* name; CompareOp op; };
    for (Cm c : {Cm{"equal", CompareOp::Eq}, Cm{"not_equal", CompareOp::Ne}, Cm{"less", CompareOp::Lt},
                 Cm{"less_equal", CompareOp::Le}, Cm{"greater", CompareOp::Gt}, Cm{"greater_equal", CompareOp::Ge},
                 Cm{"logical_and", CompareOp::And}, Cm{"logical_or", CompareOp::Or}, Cm{"logical_xor", CompareOp::Xor}}) {
        CompareOp op = c.op;
        m.def(c.name, [op](py::handle x, py::handle y) { return compare_any(op, x, y); }, arg("x1"), arg("x2"));
    }
    m.def("logical_not", [](py::handle x) { return logical_not(A(x)); }, arg("x"));
    m.def("isnan", [](py::handle x) { return isnan(A(x)); }, arg("x"));
    m.def("isinf", [](py::handle x) { return isinf(A(x)); }, arg("x"));
    m.def("isfinite", [](py::handle x) { return isfinite(A(x)); }, arg("x"));
    m.def("where", [](py::handle c, py::handle x, py::handle y) {
        Array xa = A(x), ya;
        Scalar s;
        if (!is_ndarray(y) && py_scalar(y, s)) ya = binary(BinaryOp::Add, zeros(Shape{}, promote_with_scalar(xa.dtype(), s.kind)), s);
        else ya = A(y);
        return where(A(c), xa, ya);
    }, arg("condition"), arg("x"), arg("y"));
    m.def("clip", [](py::handle a, py::handle lo, py::handle hi) {
        Array x = A(a);
        Array l, h;
        Scalar s;
        auto conv = [&](py::handle v) {
            if (py_scalar(v, s)) return binary(BinaryOp::Add, zeros(Shape{}, promote_with_scalar(x.dtype(), s.kind)), s);
            return A(v);
        };
        if (!lo.is_none()) l = conv(lo);
        if (!hi.is_none()) h = conv(hi);
        return clip(x, l.defined() ? &l : nullptr, h.defined() ? &h : nullptr);
    }, arg("a"), arg("a_min"), arg("a_max"));

    // Reductions.
    auto red = [&](const char* name, Array (*fn)(const Array&, const Axes&, bool)) {
        m.def(name, [fn](py::handle a, py::handle axis, bool keepdims) { return fn(A(a), axes_from_py(axis), keepdims); },
              arg("a"), arg("axis") = py::none(), arg("keepdims") = false);
    };
    red("sum", &sum);
    red("mean", &mean);
    red("max", &amax);
    red("amax", &amax);
    red("min", &amin);
    red("amin", &amin);
    red("prod", &prod);
    red("logsumexp", &logsumexp);
    red("all", &all);
    red("any", &any);
    m.def("var", [](py::handle a, py::handle axis, int64_t ddof, bool keepdims) { return var(A(a), axes_from_py(axis), ddof, keepdims); },
          arg("a"), arg("axis") = none, arg("ddof") = 0, arg("keepdims") = false);
    m.def("std", [](py::handle a, py::handle axis, int64_t ddof, bool keepdims) { return std_(A(a), axes_from_py(axis), ddof, keepdims); },
          arg("a"), arg("axis") = none, arg("ddof") = 0, arg("keepdims") = false);
    m.def("argmax", [](py::handle a, std::optional<int64_t> axis) { return argmax(A(a), axis); }, arg("a"), arg("axis") = none);
    m.def("argmin", [](py::handle a, std::optional<int64_t> axis) { return argmin(A(a), axis); }, arg("a"), arg("axis") = none);

    // Linear algebra.
    m.def("matmul", [](py::handle a, py::handle b) { return matmul(A(a), A(b)); }, arg("x1"), arg("x2"));
    m.def("dot", [](py::handle a, py::handle b) { return dot(A(a), A(b)); }, arg("a"), arg("b"));

    // Manipulation.
    m.def("reshape", [](py::handle a, py::handle shape) { return reshape(A(a), ints_from_py(shape, "shape")); },
          arg("a"), arg("newshape"));
    m.def("transpose", [](py::handle a, py::handle axes) { return transpose(A(a), axes_from_py(axes)); },
          arg("a"), arg("axes") = none);
    m.def("swapaxes", [](py::handle a, int64_t i, int64_t j) { return swapaxes(A(a), i, j); }, arg("a"), arg("axis1"), arg("axis2"));
    m.def("moveaxis", [](py::handle a, py::handle s, py::handle d) {
        return moveaxis(A(a), ints_from_py(s, "source"), ints_from_py(d, "destination"));
    }, arg("a"), arg("source"), arg("destination"));
    m.def("squeeze", [](py::handle a, py::handle axis) { return squeeze(A(a), axes_from_py(axis)); }, arg("a"), arg("axis") = none);
    m.def("expand_dims", [](py::handle a, int64_t axis) { return expand_dims(A(a), axis); }, arg("a"), arg("axis"));
    m.def("broadcast_to", [](py::handle a, py::handle shape) { return broadcast_to(A(a), shape_from_py(shape)); },
          arg("array"), arg("shape"));
    m.def("ravel", [](py::handle a) { return ravel(A(a)); }, arg("a"));
    m.def("concatenate", [](py::handle xs, std::optional<int64_t> axis) {
        std::vector<Array> v = arrays_of(xs);
        if (!axis) {
            for (auto& x : v) x = ravel(x);
            return concatenate(v, 0);
        }
        return concatenate(v, *axis);
    }, arg("arrays"), arg("axis") = 0);
    m.def("stack", [](py::handle xs, int64_t axis) { return stack(arrays_of(xs), axis); }, arg("arrays"), arg("axis") = 0);
    m.def("split", [](py::handle a, py::handle sections, int64_t axis) {
        Array x = A(a);
        if (PyLong_Check(sections.ptr())) return tuple_of(split_sections(x, sections.cast<int64_t>(), axis));
        return tuple_of(split_at(x, ints_from_py(sections, "indices_or_sections"), axis));
    }, arg("ary"), arg("indices_or_sections"), arg("axis") = 0);
    m.def("take", [](py::handle a, py::handle idx, std::optional<int64_t> axis) { return take(A(a), A(idx), axis); },
          arg("a"), arg("indices"), arg("axis") = none);
    m.def("astype", [](py::handle a, py::handle dtype, bool copy_) { return astype(A(a), dtype_from_py(dtype), copy_); },
          arg("a"), arg("dtype"), arg("copy") = true);

    // Neural networks.
    m.def("conv", [](py::handle x, py::handle w, py::handle b, py::handle stride, py::handle pad, py::handle dilation,
                     int64_t groups, bool cover_all) {
        return conv(A(x), A(w), opt_array(b), ints_from_py(stride, "stride"), ints_from_py(pad, "pad"),
                    ints_from_py(dilation, "dilation"), groups, cover_all);
    }, arg("x"), arg("w"), arg("b") = none, arg("stride") = 1, arg("pad") = 0, arg("dilation") = 1, arg("groups") = 1,
       arg("cover_all") = false,
       "N-d convolution: x (N, C, *in), w (O, C / groups, *k), b (O,) or None.");
    m.def("conv_transpose", [](py::handle x, py::handle w, py::handle b, py::handle stride, py::handle pad,
                               py::handle dilation, int64_t groups, py::handle outsize) {
        return conv_transpose(A(x), A(w), opt_array(b), ints_from_py(stride, "stride"), ints_from_py(pad, "pad"),
                              ints_from_py(dilation, "dilation"), groups, ints_or_empty(outsize, "outsize"));
    }, arg("x"), arg("w"), arg("b") = none, arg("stride") = 1, arg("pad") = 0, arg("dilation") = 1, arg("groups") = 1,
       arg("outsize") = none,
       "N-d transposed convolution: x (N, C, *in), w (C, O / groups, *k), b (O,) or None.");
    m.def("conv_grad_weight", [](py::handle x, py::handle gy, py::handle ksize, py::handle stride, py::handle pad,
                                 py::handle dilation, int64_t groups) {
        return conv_grad_weight(A(x), A(gy), ints_from_py(ksize, "ksize"), ints_from_py(stride, "stride"),
                                ints_from_py(pad, "pad"), ints_from_py(dilation, "dilation"), groups);
    }, arg("x"), arg("gy"), arg("ksize"), arg("stride") = 1, arg("pad") = 0, arg("dilation") = 1, arg("groups") = 1);
    m.def("max_pool", [](py::handle x, py::handle ksize, py::handle stride, py::handle pad, bool cover_all, bool return_indexes) -> py::object {
        auto r = max_pool_with_indexes(A(x), ints_from_py(ksize, "ksize"), ints_or_empty(stride, "stride"),
                                       ints_from_py(pad, "pad"), cover_all);
        if (return_indexes) return py::make_tuple(r.first, r.second);
        return py::cast(r.first);
    }, arg("x"), arg("ksize"), arg("stride") = none, arg("pad") = 0, arg("cover_all") = false, arg("return_indexes") = false);
    m.def("average_pool", [](py::handle x, py::handle ksize, py::handle stride, py::handle pad, const std::string& pad_mode) {
        if (pad_mode != "ignore" && pad_mode != "zero")
            throw ShapeError("average_pool: pad_mode must be 'ignore' or 'zero', got '" + pad_mode + "'");
        return average_pool(A(x), ints_from_py(ksize, "ksize"), ints_or_empty(stride, "stride"), ints_from_py(pad, "pad"),
                            pad_mode == "zero");
    }, arg("x"), arg("ksize"), arg("stride") = none, arg("pad") = 0, arg("pad_mode") = "ignore");
    m.def("roi_max_bins", [](py::handle x, py::handle batch, py::handle h_ranges, py::handle w_ranges, double empty_value) {
        auto r = roi_max_bins(A(x), A(batch), A(h_ranges), A(w_ranges), empty_value);
        return py::make_tuple(r.first, r.second);
    }, arg("x"), arg("batch"), arg("h_ranges"), arg("w_ranges"), arg("empty_value") = 0.0,
       "RoI max pooling over bins given as int64 pixel ranges: (y, argmax) of x (N, C, H, W) over rows "
       "h_ranges (R, outh, 2) by columns w_ranges (R, outw, 2) of samples batch (R,).");
    m.def("batch_norm", [](py::handle x, py::handle gamma, py::handle beta, py::handle rm, py::handle rv, double eps,
                           double decay, py::handle axis) {
        return batch_norm(A(x), A(gamma), A(beta), opt_array(rm), opt_array(rv), eps, decay, axes_from_py(axis));
    }, arg("x"), arg("gamma"), arg("beta"), arg("running_mean") = none, arg("running_var") = none, arg("eps") = 2e-5,
       arg("decay") = 0.9, arg("axis") = none);
    m.def("fixed_batch_norm", [](py::handle x, py::handle gamma, py::handle beta, py::handle mean_, py::handle var_,
                                 double eps, py::handle axis) {
        return fixed_batch_norm(A(x), A(gamma), A(beta), A(mean_), A(var_), eps, axes_from_py(axis));
    }, arg("x"), arg("gamma"), arg("beta"), arg("mean"), arg("var"), arg("eps") = 2e-5, arg("axis") = none);
    m.def("linear", [](py::handle x, py::handle w, py::handle b, int64_t n_batch_axes) {
        return linear(A(x), A(w), opt_array(b), n_batch_axes);
    }, arg("x"), arg("W"), arg("b") = none, arg("n_batch_axes") = 1, "y = x W^T + b.");
    m.def("log_softmax", [](py::handle x, int64_t axis) { return log_softmax(A(x), axis); }, arg("x"), arg("axis") = 1);
    m.def("softmax", [](py::handle x, int64_t axis) { return softmax(A(x), axis); }, arg("x"), arg("axis") = 1);
    m.def("softmax_cross_entropy", [](py::handle x, py::handle t, int64_t ignore_label, const std::string& reduce) {
        return softmax_cross_entropy(A(x), A(t), ignore_label, reduce);
    }, arg("x"), arg("t"), arg("ignore_label") = -1, arg("reduce") = "mean");
    m.def("dropout", [](py::handle x, double ratio, py::handle mask, bool return_mask) -> py::object {
        auto r = dropout(A(x), ratio, opt_array(mask));
        if (return_mask) return py::make_tuple(r.first, r.second);
        return py::cast(r.first);
    }, arg("x"), arg("ratio") = 0.5, arg("mask") = none, arg("return_mask") = false);
    m.def("mean_squared_error", [](py::handle a, py::handle b) { return mean_squared_error(A(a), A(b)); }, arg("x0"), arg("x1"));

    // Optimizer update rules: every array argument is updated in place.
    m.def("_sgd_update", [](py::handle param, py::handle grad, double lr) {
        const char* r = "_sgd_update";
        Array p = inplace_arg(param, r, "param"), g = inplace_arg(grad, r, "grad");
        sgd_update(p, g, lr);
    }, arg("param"), arg("grad"), arg("lr"), "param -= lr * grad, in place.");
    m.def("_momentum_sgd_update", [](py::handle param, py::handle grad, py::handle v, double lr, double momentum) {
        const char* r = "_momentum_sgd_update";
        Array p = inplace_arg(param, r, "param"), g = inplace_arg(grad, r, "grad"), v_ = inplace_arg(v, r, "v");
        momentum_sgd_update(p, g, v_, lr, momentum);
    }, arg("param"), arg("grad"), arg("v"), arg("lr"), arg("momentum"),
       "v = momentum * v - lr * grad; param += v, in place (computed in v's dtype).");
    m.def("_adam_update", [](py::handle param, py::handle grad, py::handle m_, py::handle v, py::handle vhat,
                             double alpha_t, double beta1, double beta2, double eps, double eta, double weight_decay_rate,
                             std::optional<double> lower, std::optional<double> upper) {
        const char* r = "_adam_update";
        if (lower.has_value() != upper.has_value())
            throw ShapeError("_adam_update: lower and upper are both given (AdaBound) or both None, got " +
                             std::string(lower ? "lower only" : "upper only"));
        AdamHyperparams h{alpha_t, beta1, beta2, eps, eta, weight_decay_rate, std::nullopt};
        if (lower) h.bounds = std::make_pair(*lower, *upper);
        Array p = inplace_arg(param, r, "param"), g = inplace_arg(grad, r, "grad"), m = inplace_arg(m_, r, "m");
        Array v_ = inplace_arg(v, r, "v"), vh = vhat.is_none() ? Array() : inplace_arg(vhat, r, "vhat");
        adam_update(p, g, m, v_, vh, h);
    }, arg("param"), arg("grad"), arg("m"), arg("v"), arg("vhat"), arg("alpha_t"), arg("beta1"), arg("beta2"),
       arg("eps"), arg("eta"), arg("weight_decay_rate"), arg("lower"), arg("upper"), R"doc(
Adam's update, in place: m += (1 - beta1) (grad - m); v += (1 - beta2)
(grad^2 - v); with vhat (AMSGrad) vhat = max(vhat, v) and s = vhat, else
s = v; step = alpha_t / (sqrt(s) + eps), clipped to [lower, upper] when
given (AdaBound); param -= eta (step m + weight_decay_rate param). The state
(m, v, vhat) may be float32 for float16 param and grad: computed in its dtype.
)doc");
}

}  // namespace cn
