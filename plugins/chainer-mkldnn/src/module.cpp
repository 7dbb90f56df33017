// Python binding of the oneDNN primitives (chainer_mkldnn._C).
//
// Arrays come in as NumPy arrays (outputs preallocated by the caller);
// each is checked for dtype, C-contiguity and, for outputs, writeability
// before the GIL is released around the oneDNN call.
#include <pybind11/pybind11.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "ops.hpp"
#include "update.hpp"

namespace py = pybind11;
using cmk::Dims;
using cmk::Tensor;

namespace {

Tensor tensor(const std::string &op, const char *name, py::handle h,
              bool output, bool int32 = false) {
    if (!py::isinstance<py::array>(h))
        throw py::type_error(op + ": " + name + " must be a NumPy array, got " +
                             std::string(py::str(py::type::of(h))));
    auto a = py::reinterpret_borrow<py::array>(h);
    bool ok = int32 ? a.dtype().equal(py::dtype::of<int32_t>())
                    : a.dtype().equal(py::dtype::of<float>());
    if (!ok)
        throw py::type_error(op + ": " + name + " must be " +
                             (int32 ? "int32" : "float32") + ", got " +
                             std::string(py::str(a.dtype())));
    if (!(a.flags() & py::array::c_style))
        throw py::value_error(op + ": " + name + " must be C-contiguous");
    if (output && !a.writeable())
        throw py::value_error(op + ": " + name + " must be writeable");
    Tensor t;
    t.ptr = output ? a.mutable_data() : const_cast<void *>(a.data());
    t.dims.assign(a.shape(), a.shape() + a.ndim());
    return t;
}

// The arrays of an optimizer update. A case the fused loops do not cover
// (a dtype, a layout) raises Unsupported, which the Python layer turns
// into the NumPy reference under use_ideep='auto'; the message names the
// argument, what was expected and what it got.
std::string dtype_name(const py::array &a) { return py::str(a.dtype()); }

std::string shape_str(const py::array &a) { return py::str(a.attr("shape")); }

[[noreturn]] void unsupported(const std::string &op, const std::string &what) {
    throw cmk::Unsupported(op + ": " + what);
}

py::array as_array(const std::string &op, const char *name, py::handle h) {
    if (!py::isinstance<py::array>(h))
        unsupported(op, std::string(name) + " is a " +
                            std::string(py::str(py::type::of(h).attr("__name__"))) +
                            ", expected a NumPy array");
    return py::reinterpret_borrow<py::array>(h);
}

// param: float32 or float64, C-contiguous and writeable (updated in place).
struct Param {
    py::array a;
    bool f64;
};

Param update_param(const std::string &op, py::handle h) {
    py::array a = as_array(op, "param", h);
    bool f64 = a.dtype().equal(py::dtype::of<double>());
    if (!f64 && !a.dtype().equal(py::dtype::of<float>()))
        unsupported(op, "param is " + dtype_name(a) +
                            ", expected float32 or float64");
    if (!(a.flags() & py::array::c_style) || !a.writeable())
        unsupported(op, "param must be C-contiguous and writeable (it is "
                        "updated in place)");
    return Param{a, f64};
}

// Another array of the update, of param's dtype and shape. The state
// arrays are written in place, so they must be C-contiguous and writeable;
// grad is only read, and a strided one is copied.
py::array update_operand(const std::string &op, const char *name, py::handle h,
                         const Param &p, bool written) {
    py::array a = as_array(op, name, h);
    if (!a.dtype().equal(p.a.dtype()))
        unsupported(op, std::string(name) + " is " + dtype_name(a) +
                            ", expected " + dtype_name(p.a) +
                            " (the dtype of param)");
    bool same_shape = a.ndim() == p.a.ndim() &&
                      std::equal(a.shape(), a.shape() + a.ndim(), p.a.shape());
    if (!same_shape)
        unsupported(op, std::string(name) + " has shape " + shape_str(a) +
                            ", expected " + shape_str(p.a) +
                            " (the shape of param)");
    if (a.flags() & py::array::c_style) {
        if (written && !a.writeable())
            unsupported(op, std::string(name) + " must be writeable (it is "
                                                "updated in place)");
        return a;
    }
    if (written)
        unsupported(op, std::string(name) + " must be C-contiguous (it is "
                                            "updated in place)");
    return py::array::ensure(a, py::array::c_style);
}

template <class T>
T *ptr(const py::array &a) {
    return static_cast<T *>(const_cast<void *>(a.data()));
}

template <class T>
T *ptr_or_null(const py::object &a) {
    return a.is_none() ? nullptr : ptr<T>(py::reinterpret_borrow<py::array>(a));
}

cmk::ConvParams conv_params(const Dims &stride, const Dims &dilate,
                            const Dims &pad_l, const Dims &pad_r,
                            int64_t groups) {
    return cmk::ConvParams{stride, dilate, pad_l, pad_r, groups};
}

}  // namespace

PYBIND11_MODULE(_C, m) {
    m.doc() = "oneDNN primitives for chainer-mkldnn";

    // The exception classes are the package's own (chainer_mkldnn), so
    // that code can catch them without loading this module. Kept as new
    // references for the life of the process.
    py::module_ pkg = py::module_::import("chainer_mkldnn");
    static PyObject *op_error = py::object(pkg.attr("MkldnnError")).release().ptr();
    static PyObject *unsupported = py::object(pkg.attr("UnsupportedError")).release().ptr();
    m.attr("MkldnnError") = py::handle(op_error);
    m.attr("UnsupportedError") = py::handle(unsupported);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const cmk::Unsupported &e) {
            PyErr_SetString(unsupported, e.what());
        } catch (const cmk::OpError &e) {
            PyErr_SetString(op_error, e.what());
        }
    });

    m.def("version", &cmk::version, "The oneDNN version in use.");

    m.def("conv_forward",
          [](const std::string &op, py::handle x, py::handle w, py::handle b,
             py::handle y, const Dims &stride, const Dims &dilate,
             const Dims &pad_l, const Dims &pad_r, int64_t groups) {
              Tensor tx = tensor(op, "x", x, false), tw = tensor(op, "W", w, false);
              Tensor ty = tensor(op, "y", y, true), tb{};
              bool has_b = !b.is_none();
              if (has_b) tb = tensor(op, "b", b, false);
              auto p = conv_params(stride, dilate, pad_l, pad_r, groups);
              py::gil_scoped_release release;
              cmk::conv_forward(op.c_str(), tx, tw, has_b ? &tb : nullptr, ty, p);
          });

    m.def("conv_backward_data",
          [](const std::string &op, py::handle gy, py::handle w, py::handle gx,
             const Dims &stride, const Dims &dilate, const Dims &pad_l,
             const Dims &pad_r, int64_t groups) {
              Tensor tgy = tensor(op, "gy", gy, false), tw = tensor(op, "W", w, false);
              Tensor tgx = tensor(op, "gx", gx, true);
              auto p = conv_params(stride, dilate, pad_l, pad_r, groups);
              py::gil_scoped_release release;
              cmk::conv_backward_data(op.c_str(), tgy, tw, tgx, p);
          });

    m.def("conv_backward_weights",
          [](const std::string &op, py::handle x, py::handle gy, py::handle gw,
             const Dims &stride, const Dims &dilate, const Dims &pad_l,
             const Dims &pad_r, int64_t groups) {
              Tensor tx = tensor(op, "x", x, false), tgy = tensor(op, "gy", gy, false);
              Tensor tgw = tensor(op, "gW", gw, true);
              auto p = conv_params(stride, dilate, pad_l, pad_r, groups);
              py::gil_scoped_release release;
              cmk::conv_backward_weights(op.c_str(), tx, tgy, tgw, p);
          });

    m.def("conv_weights_roundtrip",
          [](const std::string &op, py::handle x, py::handle w, py::handle y,
             const Dims &stride, const Dims &dilate, const Dims &pad_l,
             const Dims &pad_r, int64_t groups, py::handle out) {
              Tensor tx = tensor(op, "x", x, false), tw = tensor(op, "W", w, false);
              Tensor ty = tensor(op, "y", y, false), to = tensor(op, "out", out, true);
              auto p = conv_params(stride, dilate, pad_l, pad_r, groups);
              py::gil_scoped_release release;
              return cmk::conv_weights_roundtrip(op.c_str(), tx, tw, ty, p, to);
          },
          "Reorder W to the layout a convolution prefers and back into out; "
          "returns 'blocked' or 'plain'.");

    m.def("pool_forward",
          [](const std::string &op, int alg, py::handle x, py::handle y,
             py::handle indexes, const Dims &kernel, const Dims &stride,
             const Dims &pad_l, const Dims &pad_r) {
              Tensor tx = tensor(op, "x", x, false), ty = tensor(op, "y", y, true);
              Tensor ti{};
              bool has_i = !indexes.is_none();
              if (has_i) ti = tensor(op, "indexes", indexes, true, true);
              py::gil_scoped_release release;
              cmk::pool_forward(op.c_str(), static_cast<cmk::Pool>(alg), tx, ty,
                                has_i ? &ti : nullptr, kernel, stride, pad_l, pad_r);
          });

    m.def("pool_backward",
          [](const std::string &op, int alg, py::handle gy, py::handle indexes,
             py::handle gx, const Dims &kernel, const Dims &stride,
             const Dims &pad_l, const Dims &pad_r) {
              Tensor tgy = tensor(op, "gy", gy, false), tgx = tensor(op, "gx", gx, true);
              Tensor ti{};
              bool has_i = !indexes.is_none();
              if (has_i) ti = tensor(op, "indexes", indexes, false, true);
              py::gil_scoped_release release;
              cmk::pool_backward(op.c_str(), static_cast<cmk::Pool>(alg), tgy,
                                 has_i ? &ti : nullptr, tgx, kernel, stride, pad_l,
                                 pad_r);
          });

    m.def("eltwise_forward",
          [](const std::string &op, int alg, py::handle x, py::handle y,
             float alpha, float beta) {
              Tensor tx = tensor(op, "x", x, false), ty = tensor(op, "y", y, true);
              py::gil_scoped_release release;
              cmk::eltwise_forward(op.c_str(), static_cast<cmk::Elt>(alg), tx, ty,
                                   alpha, beta);
          });

    m.def("eltwise_backward",
          [](const std::string &op, int alg, py::handle data, py::handle gy,
             py::handle gx, float alpha, float beta) {
              Tensor td = tensor(op, "x", data, false), tgy = tensor(op, "gy", gy, false);
              Tensor tgx = tensor(op, "gx", gx, true);
              py::gil_scoped_release release;
              cmk::eltwise_backward(op.c_str(), static_cast<cmk::Elt>(alg), td, tgy,
                                    tgx, alpha, beta);
          });

    m.def("softmax_forward",
          [](const std::string &op, py::handle x, py::handle y, int axis,
             bool log) {
              Tensor tx = tensor(op, "x", x, false), ty = tensor(op, "y", y, true);
              py::gil_scoped_release release;
              cmk::softmax_forward(op.c_str(), tx, ty, axis, log);
          });

    m.def("concat",
          [](const std::string &op, const py::sequence &xs, py::handle y,
             int axis) {
              std::vector<Tensor> txs;
              for (auto x : xs) txs.push_back(tensor(op, "xs", x, false));
              Tensor ty = tensor(op, "y", y, true);
              py::gil_scoped_release release;
              cmk::concat(op.c_str(), txs, ty, axis);
          });

    m.def("binary_add",
          [](const std::string &op, py::handle a, py::handle b, py::handle y) {
              Tensor ta = tensor(op, "x", a, false), tb = tensor(op, "y", b, false);
              Tensor ty = tensor(op, "out", y, true);
              py::gil_scoped_release release;
              cmk::binary_add(op.c_str(), ta, tb, ty);
          });

    m.def("linear",
          [](const std::string &op, py::handle x, py::handle w, py::handle b,
             py::handle y) {
              Tensor tx = tensor(op, "x", x, false), tw = tensor(op, "W", w, false);
              Tensor ty = tensor(op, "y", y, true), tb{};
              bool has_b = !b.is_none();
              if (has_b) tb = tensor(op, "b", b, false);
              py::gil_scoped_release release;
              cmk::linear(op.c_str(), tx, tw, has_b ? &tb : nullptr, ty);
          });

    m.def("matmul",
          [](const std::string &op, py::handle a, py::handle b, py::handle y,
             bool transa, bool transb) {
              Tensor ta = tensor(op, "a", a, false), tb = tensor(op, "b", b, false);
              Tensor ty = tensor(op, "y", y, true);
              py::gil_scoped_release release;
              cmk::matmul(op.c_str(), ta, tb, ty, transa, transb);
          });

    m.def("bn_forward_training",
          [](const std::string &op, py::handle x, py::handle gamma,
             py::handle beta, py::handle y, py::handle mean, py::handle var,
             float eps) {
              Tensor tx = tensor(op, "x", x, false), tg = tensor(op, "gamma", gamma, false);
              Tensor tb = tensor(op, "beta", beta, false), ty = tensor(op, "y", y, true);
              Tensor tm = tensor(op, "mean", mean, true), tv = tensor(op, "var", var, true);
              py::gil_scoped_release release;
              cmk::bn_forward_training(op.c_str(), tx, tg, tb, ty, tm, tv, eps);
          });

    m.def("bn_forward_inference",
          [](const std::string &op, py::handle x, py::handle gamma,
             py::handle beta, py::handle mean, py::handle var, py::handle y,
             float eps) {
              Tensor tx = tensor(op, "x", x, false), tg = tensor(op, "gamma", gamma, false);
              Tensor tb = tensor(op, "beta", beta, false), tm = tensor(op, "mean", mean, false);
              Tensor tv = tensor(op, "var", var, false), ty = tensor(op, "y", y, true);
              py::gil_scoped_release release;
              cmk::bn_forward_inference(op.c_str(), tx, tg, tb, tm, tv, ty, eps);
          });

    m.def("bn_backward",
          [](const std::string &op, py::handle x, py::handle gy,
             py::handle gamma, py::handle mean, py::handle var, py::handle gx,
             py::handle ggamma, py::handle gbeta, float eps) {
              Tensor tx = tensor(op, "x", x, false), tgy = tensor(op, "gy", gy, false);
              Tensor tg = tensor(op, "gamma", gamma, false), tm = tensor(op, "mean", mean, false);
              Tensor tv = tensor(op, "var", var, false), tgx = tensor(op, "gx", gx, true);
              Tensor tgg = tensor(op, "ggamma", ggamma, true);
              Tensor tgb = tensor(op, "gbeta", gbeta, true);
              py::gil_scoped_release release;
              cmk::bn_backward(op.c_str(), tx, tgy, tg, tm, tv, tgx, tgg, tgb, eps);
          });

    m.def("lrn_forward",
          [](const std::string &op, py::handle x, py::handle y,
             py::handle unit_scale, int64_t n, float alpha, float beta,
             float k) {
              Tensor tx = tensor(op, "x", x, false), ty = tensor(op, "y", y, true);
              Tensor tu{};
              bool has_u = !unit_scale.is_none();
              if (has_u) tu = tensor(op, "unit_scale", unit_scale, true);
              py::gil_scoped_release release;
              cmk::lrn_forward(op.c_str(), tx, ty, has_u ? &tu : nullptr, n, alpha,
                               beta, k);
          });

    m.def("lrn_backward",
          [](const std::string &op, py::handle x, py::handle gy, py::handle gx,
             int64_t n, float alpha, float beta, float k) {
              Tensor tx = tensor(op, "x", x, false), tgy = tensor(op, "gy", gy, false);
              Tensor tgx = tensor(op, "gx", gx, true);
              if (tgy.dims != tx.dims || tgx.dims != tx.dims)
                  throw py::value_error(op + ": x, gy and gx must have one shape");
              py::gil_scoped_release release;
              cmk::lrn_backward(op.c_str(), tx, tgy, tgx, n, alpha, beta, k);
          });

    m.def("sgd_update",
          [](const std::string &op, py::handle param, py::handle grad,
             double lr) {
              Param p = update_param(op, param);
              py::array g = update_operand(op, "grad", grad, p, false);
              py::ssize_t n = p.a.size();
              py::gil_scoped_release release;
              if (p.f64)
                  cmk::sgd_update(ptr<double>(p.a), ptr<double>(g), n, lr);
              else
                  cmk::sgd_update(ptr<float>(p.a), ptr<float>(g), n, lr);
          },
          "In place: param -= lr * grad.");

    m.def("momentum_sgd_update",
          [](const std::string &op, py::handle param, py::handle grad,
             py::handle v, double lr, double momentum) {
              Param p = update_param(op, param);
              py::array g = update_operand(op, "grad", grad, p, false);
              py::array pv = update_operand(op, "v", v, p, true);
              py::ssize_t n = p.a.size();
              py::gil_scoped_release release;
              if (p.f64)
                  cmk::momentum_sgd_update(ptr<double>(p.a), ptr<double>(g),
                                           ptr<double>(pv), n, lr, momentum);
              else
                  cmk::momentum_sgd_update(ptr<float>(p.a), ptr<float>(g),
                                           ptr<float>(pv), n, lr, momentum);
          },
          "In place: v = momentum * v - lr * grad; param += v.");

    m.def("adam_update",
          [](const std::string &op, py::handle param, py::handle grad,
             py::handle m_, py::handle v, py::handle vhat, double alpha_t,
             double beta1, double beta2, double eps, double eta,
             double weight_decay_rate, std::optional<double> lower,
             std::optional<double> upper) {
              Param p = update_param(op, param);
              py::array g = update_operand(op, "grad", grad, p, false);
              py::array pm = update_operand(op, "m", m_, p, true);
              py::array pv = update_operand(op, "v", v, p, true);
              py::object ph = py::none();
              if (!vhat.is_none()) ph = update_operand(op, "vhat", vhat, p, true);
              if (lower.has_value() != upper.has_value())
                  throw py::value_error(op + ": lower and upper must both be "
                                        "None or both numbers, got " +
                                        (lower ? "a number" : "None") + " and " +
                                        (upper ? "a number" : "None"));
              cmk::AdamParams a{alpha_t, beta1, beta2, eps, eta,
                                weight_decay_rate, lower.has_value(),
                                lower.value_or(0.0), upper.value_or(0.0)};
              py::ssize_t n = p.a.size();
              py::gil_scoped_release release;
              if (p.f64)
                  cmk::adam_update(ptr<double>(p.a), ptr<double>(g), ptr<double>(pm),
                                   ptr<double>(pv), ptr_or_null<double>(ph), n, a);
              else
                  cmk::adam_update(ptr<float>(p.a), ptr<float>(g), ptr<float>(pm),
                                   ptr<float>(pv), ptr_or_null<float>(ph), n, a);
          },
          "In place, Adam and its variants (AMSGrad with vhat, AdaBound with "
          "lower and upper).");

    m.def("cache_info", [] {
        auto i = cmk::cache_info();
        py::dict d;
        d["hits"] = i.hits;
        d["misses"] = i.misses;
        d["size"] = i.size;
        d["capacity"] = i.capacity;
        return d;
    }, "Hits, misses, size and capacity of the primitive cache.");
    m.def("cache_clear", &cmk::cache_clear,
          "Drop every cached primitive and reset the counters; free the "
          "calling thread's reused buffers.");
    m.def("cache_set_capacity", &cmk::cache_set_capacity,
          "Keep at most this many primitives (least recently used go first).");
}
