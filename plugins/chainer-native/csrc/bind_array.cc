// The Python class chainer_native.ndarray: properties, operators, indexing,
// autograd methods, NumPy interop (__array_interface__, the buffer protocol)
// and DLPack.
#include <pybind11/numpy.h>

#include "bind_util.h"
#include "creation.h"
#include "dlpack.h"
#include "elementwise.h"
#include "graph.h"
#include "indexing.h"
#include "linalg.h"
#include "manipulation.h"
#include "reduction.h"

namespace cn {

namespace {

py::object not_implemented() { return py::reinterpret_borrow<py::object>(Py_NotImplemented); }

// The other operand of a Python operator: an ndarray, a weak Python
// scalar, or something NumPy turns into an array; empty when unsupported.
enum class Operand { Array, Scalar, None };
Operand operand(py::handle o, Array& a, Scalar& s) {
    if (is_ndarray(o)) {
        a = arr_of(o);
        return Operand::Array;
    }
    if (py_scalar(o, s)) return Operand::Scalar;
    // NumPy arrays and scalars; anything else (a Variable, say) gets
    // NotImplemented so that its own reflected operator runs.
    static PyObject* generic = py::object(py::module_::import("numpy").attr("generic")).release().ptr();
    if (py::isinstance<py::array>(o) || PyObject_IsInstance(o.ptr(), generic) == 1) {
        a = to_array(o);
        return Operand::Array;
    }
    return Operand::None;
}

py::object binop(BinaryOp op, const Array& self, py::handle other, bool reflected) {
    Array a;
    Scalar s;
    switch (operand(other, a, s)) {
        case Operand::Array: return py::cast(reflected ? binary(op, a, self) : binary(op, self, a));
        case Operand::Scalar: return py::cast(reflected ? binary(op, s, self) : binary(op, self, s));
        default: return not_implemented();
    }
}

py::object cmpop(CompareOp op, const Array& self, py::handle other) {
    Array a;
    Scalar s;
    switch (operand(other, a, s)) {
        case Operand::Array: return py::cast(compare(op, self, a));
        case Operand::Scalar: {
            Dtype d = promote_with_scalar(self.dtype(), s.kind);
            Array b = Array::empty(Shape{}, d);
            dispatch(d, [&](auto tag) {
                using T = typename decltype(tag)::type;
                *b.ptr<T>() = s.as<T>();
            });
            return py::cast(compare(op, self, b));
        }
        default: return not_implemented();
    }
}

py::object inplace(BinaryOp op, const Array& self, py::handle other) {
    Array a;
    Scalar s;
    switch (operand(other, a, s)) {
        case Operand::Array: binary_inplace(op, self, a); break;
        case Operand::Scalar: {
            Dtype d = promote_with_scalar(self.dtype(), s.kind);
            Array b = Array::empty(Shape{}, d);
            dispatch(d, [&](auto tag) {
                using T = typename decltype(tag)::type;
                *b.ptr<T>() = s.as<T>();
            });
            binary_inplace(op, self, b);
            break;
        }
        default: return not_implemented();
    }
    return py::cast(self);
}

py::object py_item(const Array& a) {
    if (a.size() != 1)
        throw ShapeError("can only convert an array of size 1 to a Python scalar, got shape " + a.shape().str());
    return dispatch(a.dtype(), [&](auto tag) -> py::object {
        using T = typename decltype(tag)::type;
        T v = *a.ptr<T>();
        if constexpr (std::is_same<T, bool>::value) return py::bool_(v);
        else if constexpr (std::is_integral<T>::value) return py::int_(static_cast<int64_t>(v));
        else return py::float_(static_cast<double>(static_cast<Compute<T>>(v)));
    });
}

const char* typestr(Dtype d) {
    static const char* t[] = {"|b1", "|i1", "<i2", "<i4", "<i8", "|u1", "<f2", "<f4", "<f8"};
    return t[static_cast<int>(d)];
}

py::dict array_interface(const Array& a) {
    py::dict d;
    d["shape"] = to_tuple(a.shape());
    d["typestr"] = typestr(a.dtype());
    d["data"] = py::make_tuple(py::int_(reinterpret_cast<uintptr_t>(a.raw())), !a.writeable());
    py::tuple st(a.ndim());
    for (int i = 0; i < a.ndim(); ++i) st[i] = py::int_(a.strides()[i]);
    d["strides"] = st;
    d["version"] = 3;
    return d;
}

// struct-module format characters, as NumPy writes them: int64 is 'l' where
// long has 8 bytes (else 'q'), so NumPy reads back numpy.int64 itself.
const char* buffer_format(Dtype d) {
    static const char* f[] = {"?", "b", "h", "i", sizeof(long) == 8 ? "l" : "q", "B", "e", "f", "d"};
    return f[static_cast<int>(d)];
}

// The buffer protocol (memoryview, numpy.frombuffer, bytes(...)): shape and
// byte strides as they are, so strided views export without a copy; a
// consumer asking for a contiguous buffer of a strided view gets BufferError.
// The exporting ndarray object keeps the buffer alive until released.
py::buffer_info buffer_of(ArrayBody& b) {
    int nd = b.shape.size();
    std::vector<py::ssize_t> shape(nd), strides(nd);
    for (int i = 0; i < nd; ++i) {
        shape[i] = b.shape[i];
        strides[i] = b.strides[i];
    }
    return py::buffer_info(b.data.get() + b.offset, itemsize(b.dtype), buffer_format(b.dtype), nd, std::move(shape),
                           std::move(strides), !b.writeable);
}

dlpack::DataType dl_dtype(Dtype d) {
    uint8_t bits = static_cast<uint8_t>(itemsize(d) * 8);
    switch (dtype_kind(d)) {
        case 'b': return {dlpack::kBool, 8, 1};
        case 'u': return {dlpack::kUInt, bits, 1};
        case 'f': return {dlpack::kFloat, bits, 1};
        default: return {dlpack::kInt, bits, 1};
    }
}

Dtype dtype_of_dl(const dlpack::DataType& t) {
    if (t.lanes != 1) throw DtypeError("from_dlpack: vector (multi-lane) element types are not supported");
    switch (t.code) {
        case dlpack::kBool: if (t.bits == 8) return Dtype::Bool; break;
        case dlpack::kUInt: if (t.bits == 8) return Dtype::UInt8; break;
        case dlpack::kInt:
            if (t.bits == 8) return Dtype::Int8;
            if (t.bits == 16) return Dtype::Int16;
            if (t.bits == 32) return Dtype::Int32;
            if (t.bits == 64) return Dtype::Int64;
            break;
        case dlpack::kFloat:
            if (t.bits == 16) return Dtype::Float16;
            if (t.bits == 32) return Dtype::Float32;
            if (t.bits == 64) return Dtype::Float64;
            break;
    }
    throw DtypeError("from_dlpack: element type (code " + std::to_string(t.code) + ", " + std::to_string(t.bits) +
                     " bits) is not supported");
}

// What a capsule we export owns: the array (keeping its buffer) and the
// shape and strides the DLTensor points to.
struct ExportCtx {
    Array array;
    std::vector<int64_t> shape, strides;
};

template <typename M>
M* make_managed(const Array& a) {
    auto* ctx = new ExportCtx{a.as_data(), a.shape().to_vector(), {}};
    for (int i = 0; i < a.ndim(); ++i) ctx->strides.push_back(a.strides()[i] / a.itemsize());
    auto* m = new M();
    m->manager_ctx = ctx;
    m->deleter = [](M* self) {
        delete static_cast<ExportCtx*>(self->manager_ctx);
        delete self;
    };
    dlpack::Tensor& t = m->dl_tensor;
    t.data = a.raw();
    t.device = {dlpack::kCPU, 0};
    t.ndim = a.ndim();
    t.dtype = dl_dtype(a.dtype());
    t.shape = ctx->shape.data();
    t.strides = ctx->strides.data();
    t.byte_offset = 0;
    return m;
}

py::object to_dlpack(const Array& a, py::object max_version, py::object dl_device, py::object copy) {
    if (!dl_device.is_none()) {
        auto dev = dl_device.cast<std::pair<int, int>>();
        if (dev.first != dlpack::kCPU)
            throw py::buffer_error("__dlpack__: chainer_native arrays live on the CPU (device type 1), asked for " +
                                   std::to_string(dev.first));
    }
    Array src = a;
    if (!copy.is_none() && copy.cast<bool>()) src = cn::copy(a.as_data());
    for (int i = 0; i < src.ndim(); ++i)
        if (src.strides()[i] % src.itemsize() != 0)
            src = contiguous(src.as_data());
    bool versioned = false;
    if (!max_version.is_none()) {
        auto v = max_version.cast<std::pair<int, int>>();
        versioned = v.first >= 1;
    }
    if (versioned) {
        auto* m = make_managed<dlpack::ManagedTensorVersioned>(src);
        m->version = {1, 0};
        m->flags = src.writeable() ? 0 : dlpack::kFlagReadOnly;
        PyObject* cap = PyCapsule_New(m, "dltensor_versioned", [](PyObject* c) {
            if (PyCapsule_IsValid(c, "dltensor_versioned")) {
                auto* mt = static_cast<dlpack::ManagedTensorVersioned*>(PyCapsule_GetPointer(c, "dltensor_versioned"));
                if (mt && mt->deleter) mt->deleter(mt);
            }
        });
        if (!cap) throw py::error_already_set();
        return py::reinterpret_steal<py::object>(cap);
    }
    auto* m = make_managed<dlpack::ManagedTensor>(src);
    PyObject* cap = PyCapsule_New(m, "dltensor", [](PyObject* c) {
        if (PyCapsule_IsValid(c, "dltensor")) {
            auto* mt = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"));
            if (mt && mt->deleter) mt->deleter(mt);
        }
    });
    if (!cap) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(cap);
}

template <typename M>
Array adopt(M* m, bool writeable) {
    const dlpack::Tensor& t = m->dl_tensor;
    if (t.device.device_type != dlpack::kCPU) {
        m->deleter(m);
        throw py::buffer_error("from_dlpack: only CPU tensors can be imported, got device type " +
                               std::to_string(t.device.device_type));
    }
    Dtype dt;
    try {
        dt = dtype_of_dl(t.dtype);
    } catch (...) {
        m->deleter(m);
        throw;
    }
    if (t.ndim > kMaxNdim) {
        m->deleter(m);
        throw ShapeError("from_dlpack: too many dimensions");
    }
    Shape shape(t.ndim);
    for (int i = 0; i < t.ndim; ++i) shape[i] = t.shape[i];
    Strides st = contiguous_strides(shape, itemsize(dt));
    if (t.strides)
        for (int i = 0; i < t.ndim; ++i) st[i] = t.strides[i] * itemsize(dt);
    auto* base = static_cast<uint8_t*>(t.data) + t.byte_offset;
    std::shared_ptr<uint8_t> data(base, [m](uint8_t*) {
        if (m->deleter) m->deleter(m);
    });
    return Array::view_of(std::move(data), 0, shape, st, dt, writeable);
}

}  // namespace

Array from_dlpack_capsule(py::object cap) {
    PyObject* c = cap.ptr();
    if (PyCapsule_IsValid(c, "dltensor_versioned")) {
        auto* m = static_cast<dlpack::ManagedTensorVersioned*>(PyCapsule_GetPointer(c, "dltensor_versioned"));
        if (m->version.major > 1) throw py::buffer_error("from_dlpack: DLPack major version " + std::to_string(m->version.major) + " is not supported");
        PyCapsule_SetName(c, "used_dltensor_versioned");
        return adopt(m, !(m->flags & dlpack::kFlagReadOnly));
    }
    if (PyCapsule_IsValid(c, "dltensor")) {
        auto* m = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"));
        PyCapsule_SetName(c, "used_dltensor");
        return adopt(m, true);
    }
    throw DtypeError("from_dlpack: expected an object with __dlpack__ or a DLPack capsule");
}

void bind_array(py::module_& m) {
    py::class_<ArrayBody, std::shared_ptr<ArrayBody>> cls(m, "ndarray", py::buffer_protocol(), R"doc(
An n-dimensional array in host memory, with autograd recorded in C++.

Views (reshape, transpose, slicing, broadcast_to) share the buffer.
``numpy.asarray(a)`` and ``chainer_native.asarray(numpy_array)`` share
memory. ``a.require_grad()`` makes the routines applied to ``a`` record the
graph; ``y.backward()`` computes gradients into ``a.grad``.
)doc");
    cls.def_buffer(&buffer_of);
    cls.def(py::init([](py::handle shape, py::handle dtype) {
            return Array::empty(shape_from_py(shape), dtype.is_none() ? Dtype::Float64 : dtype_from_py(dtype)).body();
        }), py::arg("shape"), py::arg("dtype") = py::none())
        .def_property_readonly("shape", [](const Array& a) { return to_tuple(a.shape()); })
        .def_property_readonly("strides", [](const Array& a) { return to_tuple(a.strides()); })
        .def_property_readonly("offset", [](const Array& a) { return a.offset(); })
        .def_property_readonly("dtype", [](const Array& a) { return numpy_dtype(a.dtype()); })
        .def_property_readonly("ndim", [](const Array& a) { return a.ndim(); })
        .def_property_readonly("size", [](const Array& a) { return a.size(); })
        .def_property_readonly("itemsize", [](const Array& a) { return a.itemsize(); })
        .def_property_readonly("nbytes", [](const Array& a) { return a.nbytes(); })
        .def_property_readonly("data_ptr", [](const Array& a) { return reinterpret_cast<uintptr_t>(a.raw()); })
        .def_property_readonly("is_contiguous", [](const Array& a) { return a.is_contiguous(); })
        .def_property_readonly("writeable", [](const Array& a) { return a.writeable(); })
        .def_property_readonly("T", [](const Array& a) { return transpose(a, std::nullopt); })
        .def_property_readonly("device", [](const Array&) { return py::str("native:0"); })
        .def_property_readonly("__array_interface__", &array_interface)
        .def_property_readonly_static("__array_priority__", [](py::object) { return 100; })
        .def("__dlpack__", [](const Array& a, py::object, py::object max_version, py::object dl_device, py::object copy_) {
                 return to_dlpack(a, max_version, dl_device, copy_);
             }, py::kw_only(), py::arg("stream") = py::none(), py::arg("max_version") = py::none(),
             py::arg("dl_device") = py::none(), py::arg("copy") = py::none())
        .def("__dlpack_device__", [](const Array&) { return py::make_tuple(static_cast<int>(dlpack::kCPU), 0); })
        // Autograd.
        .def("require_grad", [](Array& a) { a.require_grad(); return a; }, "Make routines on this array record the graph; returns self.")
        .def("is_grad_required", [](const Array& a) { return a.requires_grad(); })
        .def_property("grad", [](const Array& a) { return a.grad(); }, [](Array& a, py::handle g) {
            if (g.is_none()) a.clear_grad();
            else a.set_grad(to_array(g));
        })
        .def("cleargrad", [](Array& a) { a.clear_grad(); })
        .def("backward", [](const Array& a, bool retain_grad, bool enable_double_backprop, bool retain_graph) {
            a.backward(retain_grad, enable_double_backprop, retain_graph);
        }, py::arg("retain_grad") = false, py::arg("enable_double_backprop") = false, py::arg("retain_graph") = false)
        .def("as_grad_stopped", [](const Array& a, bool copy_) { return copy_ ? contiguous_as(a, a.dtype()).as_data() : a.as_data(); },
             py::arg("copy") = false, "The same data without the graph (a view unless copy).")
        .def_property_readonly("is_leaf", [](const Array& a) {
            return !a.requires_grad() || !a.body()->node->creator;
        })
        // Conversions.
        .def("item", &py_item)
        .def("tolist", [](const Array& a) { return py::module_::import("numpy").attr("asarray")(py::cast(a)).attr("tolist")(); })
        .def("__float__", [](const Array& a) { return item_as_double(a); })
        .def("__int__", [](const Array& a) { return py::int_(py_item(a)); })
        .def("__index__", [](const Array& a) {
            if (is_float(a.dtype()) || a.size() != 1 || a.ndim() != 0)
                throw DtypeError("only integer scalar arrays can be converted to a scalar index");
            return py::int_(py_item(a));
        })
        .def("__bool__", [](const Array& a) {
            if (a.size() != 1)
                throw ShapeError("the truth value of an array with more than one element is ambiguous; use any() or all()");
            return item_as_double(a) != 0.0;
        })
        .def("__len__", [](const Array& a) {
            if (a.ndim() == 0) throw DtypeError("len() of unsized object");
            return a.shape()[0];
        })
        .def("__repr__", [](const Array& a) {
            py::object np = py::module_::import("numpy");
            std::string body = py::str(np.attr("array2string")(np.attr("asarray")(py::cast(a)), py::arg("separator") = ", "));
            return "ndarray(" + body + ", shape=" + a.shape().str() + ", dtype=" + dtype_name(a.dtype()) + ")";
        })
        .def("__str__", [](const Array& a) {
            return std::string(py::str(py::module_::import("numpy").attr("asarray")(py::cast(a))));
        })
        .def("astype", [](const Array& a, py::handle dtype, bool copy_) { return astype(a, dtype_from_py(dtype), copy_); },
             py::arg("dtype"), py::arg("copy") = true)
        .def("copy", [](const Array& a) { return copy(a); })
        .def("fill", [](const Array& a, py::handle v) {
            Scalar s;
            if (!py_scalar(v, s)) s = Scalar::of_float(item_as_double(to_array(v)));
            fill(a, s);
        })
        .def("view", [](const Array& a) { return a.view(a.shape(), a.strides(), 0); })
        // Shape.
        .def("reshape", [](const Array& a, py::args args) {
            if (args.size() == 1 && !PyLong_Check(args[0].ptr())) return reshape(a, ints_from_py(args[0], "shape"));
            return reshape(a, ints_from_py(args, "shape"));
        })
        .def("transpose", [](const Array& a, py::args args) {
            if (args.size() == 0 || (args.size() == 1 && args[0].is_none())) return transpose(a, std::nullopt);
            if (args.size() == 1 && !PyLong_Check(args[0].ptr())) return transpose(a, ints_from_py(args[0], "axes"));
            return transpose(a, ints_from_py(args, "axes"));
        })
        .def("swapaxes", [](const Array& a, int64_t i, int64_t j) { return swapaxes(a, i, j); })
        .def("squeeze", [](const Array& a, py::handle axis) { return squeeze(a, axes_from_py(axis)); }, py::arg("axis") = py::none())
        .def("ravel", [](const Array& a) { return ravel(a); })
        .def("flatten", [](const Array& a) { return ravel(copy(a)); })
        // Reductions.
        .def("sum", [](const Array& a, py::handle axis, bool keepdims) { return sum(a, axes_from_py(axis), keepdims); },
             py::arg("axis") = py::none(), py::arg("keepdims") = false)
        .def("mean", [](const Array& a, py::handle axis, bool keepdims) { return mean(a, axes_from_py(axis), keepdims); },
             py::arg("axis") = py::none(), py::arg("keepdims") = false)
        .def("max", [](const Array& a, py::handle axis, bool keepdims) { return amax(a, axes_from_py(axis), keepdims); },
             py::arg("axis") = py::none(), py::arg("keepdims") = false)
        .def("min", [](const Array& a, py::handle axis, bool keepdims) { return amin(a, axes_from_py(axis), keepdims); },
             py::arg("axis") = py::none(), py::arg("keepdims") = false)
        .def("prod", [](const Array& a, py::handle axis, bool keepdims) { return prod(a, axes_from_py(axis), keepdims); },
             py::arg("axis") = py::none(), py::arg("keepdims") = false)
        .def("var", [](const Array& a, py::handle axis, int64_t ddof, bool keepdims) { return var(a, axes_from_py(axis), ddof, keepdims); },
             py::arg("axis") = py::none(), py::arg("ddof") = 0, py::arg("keepdims") = false)
        .def("std", [](const Array& a, py::handle axis, int64_t ddof, bool keepdims) { return std_(a, axes_from_py(axis), ddof, keepdims); },
             py::arg("axis") = py::none(), py::arg("ddof") = 0, py::arg("keepdims") = false)
        .def("all", [](const Array& a, py::handle axis, bool keepdims) { return all(a, axes_from_py(axis), keepdims); },
             py::arg("axis") = py::none(), py::arg("keepdims") = false)
        .def("any", [](const Array& a, py::handle axis, bool keepdims) { return any(a, axes_from_py(axis), keepdims); },
             py::arg("axis") = py::none(), py::arg("keepdims") = false)
        .def("argmax", [](const Array& a, std::optional<int64_t> axis) { return argmax(a, axis); }, py::arg("axis") = py::none())
        .def("argmin", [](const Array& a, std::optional<int64_t> axis) { return argmin(a, axis); }, py::arg("axis") = py::none())
        .def("dot", [](const Array& a, py::handle b) { return dot(a, to_array(b)); })
        .def("take", [](const Array& a, py::handle idx, std::optional<int64_t> axis) { return take(a, to_array(idx), axis); },
             py::arg("indices"), py::arg("axis") = py::none())
        // Indexing.
        .def("__getitem__", [](const Array& a, py::handle key) { return getitem(a, index_from_py(key)); })
        .def("__setitem__", [](const Array& a, py::handle key, py::handle v) {
            setitem(a, index_from_py(key), to_array(v));
        })
        // Operators.
        .def("__add__", [](const Array& a, py::handle o) { return binop(BinaryOp::Add, a, o, false); })
        .def("__radd__", [](const Array& a, py::handle o) { return binop(BinaryOp::Add, a, o, true); })
        .def("__sub__", [](const Array& a, py::handle o) { return binop(BinaryOp::Sub, a, o, false); })
        .def("__rsub__", [](const Array& a, py::handle o) { return binop(BinaryOp::Sub, a, o, true); })
        .def("__mul__", [](const Array& a, py::handle o) { return binop(BinaryOp::Mul, a, o, false); })
        .def("__rmul__", [](const Array& a, py::handle o) { return binop(BinaryOp::Mul, a, o, true); })
        .def("__truediv__", [](const Array& a, py::handle o) { return binop(BinaryOp::Div, a, o, false); })
        .def("__rtruediv__", [](const Array& a, py::handle o) { return binop(BinaryOp::Div, a, o, true); })
        .def("__floordiv__", [](const Array& a, py::handle o) { return binop(BinaryOp::FloorDiv, a, o, false); })
        .def("__rfloordiv__", [](const Array& a, py::handle o) { return binop(BinaryOp::FloorDiv, a, o, true); })
        .def("__mod__", [](const Array& a, py::handle o) { return binop(BinaryOp::Mod, a, o, false); })
        .def("__rmod__", [](const Array& a, py::handle o) { return binop(BinaryOp::Mod, a, o, true); })
        .def("__pow__", [](const Array& a, py::handle o) { return binop(BinaryOp::Pow, a, o, false); })
        .def("__rpow__", [](const Array& a, py::handle o) { return binop(BinaryOp::Pow, a, o, true); })
        .def("__matmul__", [](const Array& a, py::handle o) -> py::object {
            Array b;
            Scalar s;
            if (operand(o, b, s) != Operand::Array) return not_implemented();
            return py::cast(matmul(a, b));
        })
        .def("__rmatmul__", [](const Array& a, py::handle o) -> py::object {
            Array b;
            Scalar s;
            if (operand(o, b, s) != Operand::Array) return not_implemented();
            return py::cast(matmul(b, a));
        })
        .def("__iadd__", [](const Array& a, py::handle o) { return inplace(BinaryOp::Add, a, o); })
        .def("__isub__", [](const Array& a, py::handle o) { return inplace(BinaryOp::Sub, a, o); })
        .def("__imul__", [](const Array& a, py::handle o) { return inplace(BinaryOp::Mul, a, o); })
        .def("__itruediv__", [](const Array& a, py::handle o) { return inplace(BinaryOp::Div, a, o); })
        .def("__neg__", [](const Array& a) { return negative(a); })
        .def("__pos__", [](const Array& a) { return copy(a); })
        .def("__abs__", [](const Array& a) { return unary(UnaryOp::Abs, a); })
        .def("__invert__", [](const Array& a) {
            if (a.dtype() != Dtype::Bool) throw DtypeError("~ is supported for boolean arrays only");
            return logical_not(a);
        })
        .def("__and__", [](const Array& a, py::handle o) { return cmpop(CompareOp::And, a, o); })
        .def("__or__", [](const Array& a, py::handle o) { return cmpop(CompareOp::Or, a, o); })
        .def("__xor__", [](const Array& a, py::handle o) { return cmpop(CompareOp::Xor, a, o); })
        .def("__eq__", [](const Array& a, py::handle o) { return cmpop(CompareOp::Eq, a, o); })
        .def("__ne__", [](const Array& a, py::handle o) { return cmpop(CompareOp::Ne, a, o); })
        .def("__lt__", [](const Array& a, py::handle o) { return cmpop(CompareOp::Lt, a, o); })
        .def("__le__", [](const Array& a, py::handle o) { return cmpop(CompareOp::Le, a, o); })
        .def("__gt__", [](const Array& a, py::handle o) { return cmpop(CompareOp::Gt, a, o); })
        .def("__ge__", [](const Array& a, py::handle o) { return cmpop(CompareOp::Ge, a, o); });
    // NumPy must hand mixed operations back to these operators instead of
    // converting the ndarray itself.
    cls.attr("__array_ufunc__") = py::none();
    cls.attr("__hash__") = py::none();
}

}  // namespace cn
