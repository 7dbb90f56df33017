// The extension module: exception mapping, conversions, thread and
// backprop-mode control, .npz files.
#include <pybind11/numpy.h>

#include "bind_util.h"
#include "creation.h"
#include "graph.h"
#include "npz.h"
#include "threads.h"

namespace cn {

namespace {

py::object g_dtypes[kNumDtypes];
PyTypeObject* g_ndarray_type = nullptr;

// Releases a Python object kept alive by a buffer (the last reference may go
// from any thread).
struct PyRelease {
    PyObject* obj;
    void operator()(uint8_t*) const { decref_with_gil(obj); }
};

}  // namespace

py::object numpy_dtype(Dtype d) { return g_dtypes[static_cast<int>(d)]; }

Dtype dtype_from_py(py::handle obj) {
    for (int i = 0; i < kNumDtypes; ++i)
        if (obj.ptr() == g_dtypes[i].ptr()) return static_cast<Dtype>(i);
    py::object dt;
    try {
        dt = py::module_::import("numpy").attr("dtype")(obj);
    } catch (py::error_already_set& e) {
        throw DtypeError(std::string("cannot interpret ") + std::string(py::repr(obj)) + " as a dtype");
    }
    std::string ch = py::str(dt.attr("char"));
    std::string kind = py::str(dt.attr("kind"));
    int size = dt.attr("itemsize").cast<int>();
    if (kind == "b") return Dtype::Bool;
    if (kind == "i") {
        if (size == 1) return Dtype::Int8;
        if (size == 2) return Dtype::Int16;
        if (size == 4) return Dtype::Int32;
        if (size == 8) return Dtype::Int64;
    }
    if (kind == "u" && size == 1) return Dtype::UInt8;
    if (kind == "f") {
        if (size == 2) return Dtype::Float16;
        if (size == 4) return Dtype::Float32;
        if (size == 8) return Dtype::Float64;
    }
    throw DtypeError("dtype " + std::string(py::str(dt)) +
                     " is not supported by chainer_native (bool, int8/16/32/64, uint8, float16/32/64 are)");
}

std::optional<Dtype> optional_dtype(py::handle obj) {
    if (obj.is_none()) return std::nullopt;
    return dtype_from_py(obj);
}

namespace {
// operator.index(obj) as int64.
int64_t index_of(py::handle obj) {
    PyObject* r = PyNumber_Index(obj.ptr());
    if (!r) throw py::error_already_set();
    long long v = PyLong_AsLongLong(r);
    Py_DECREF(r);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    return v;
}
}  // namespace

bool is_ndarray(py::handle obj) { return Py_TYPE(obj.ptr()) == g_ndarray_type; }

Array arr_of(py::handle obj) {
    auto* inst = reinterpret_cast<py::detail::instance*>(obj.ptr());
    return Array(inst->get_value_and_holder().holder<std::shared_ptr<ArrayBody>>());
}

bool py_scalar(py::handle obj, Scalar& s) {
    PyObject* o = obj.ptr();
    if (PyBool_Check(o)) {
        s = Scalar::of_bool(o == Py_True);
        return true;
    }
    if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) throw ShapeError("Python integer " + std::string(py::str(obj)) + " is out of bounds for int64");
        s = Scalar::of_int(v);
        return true;
    }
    if (PyFloat_Check(o)) {
        s = Scalar::of_float(PyFloat_AS_DOUBLE(o));
        return true;
    }
    return false;
}

Array from_numpy(py::handle h) {
    auto arr = py::reinterpret_borrow<py::array>(h);
    Dtype dt = dtype_from_py(arr.dtype());
    py::object flags = arr.attr("flags");
    bool aligned = flags.attr("aligned").cast<bool>();
    bool native_order = arr.dtype().attr("isnative").cast<bool>();
    if (!aligned || !native_order) {
        py::object fixed = py::module_::import("numpy").attr("ascontiguousarray")(arr, numpy_dtype(dt));
        return from_numpy(fixed);
    }
    int nd = static_cast<int>(arr.ndim());
    if (nd > kMaxNdim) throw ShapeError("arrays have at most " + std::to_string(kMaxNdim) + " dimensions");
    Shape shape(nd);
    Strides strides(nd);
    for (int i = 0; i < nd; ++i) {
        shape[i] = arr.shape(i);
        strides[i] = arr.strides(i);
    }
    PyObject* owner = arr.ptr();
    Py_INCREF(owner);
    auto* p = static_cast<uint8_t*>(const_cast<void*>(arr.data()));
    std::shared_ptr<uint8_t> data(p, PyRelease{owner});
    return Array::view_of(std::move(data), 0, shape, strides, dt, arr.writeable());
}

Array to_array(py::handle obj, std::optional<Dtype> dtype) {
    if (is_ndarray(obj)) {
        Array a = arr_of(obj);
        if (dtype && *dtype != a.dtype()) return astype(a, *dtype, true);
        return a;
    }
    py::module_ np = py::module_::import("numpy");
    if (py::isinstance<py::array>(obj)) {
        if (dtype) {
            py::object conv = np.attr("asarray")(obj, numpy_dtype(*dtype));
            return from_numpy(conv);
        }
        return from_numpy(obj);
    }
    Scalar s;
    if (!dtype && py_scalar(obj, s)) {
        Dtype d = s.kind == ScalarKind::Float ? Dtype::Float64 : (s.kind == ScalarKind::Int ? Dtype::Int64 : Dtype::Bool);
        Array a = Array::empty(Shape{}, d);
        dispatch(d, [&](auto tag) {
            using T = typename decltype(tag)::type;
            *a.ptr<T>() = s.as<T>();
        });
        return a;
    }
    if (py::hasattr(obj, "__dlpack__") && !py::hasattr(obj, "__array_interface__") && !py::hasattr(obj, "__array__")) {
        Array a = py::module_::import("chainer_native._core").attr("from_dlpack")(obj).cast<Array>();
        return dtype ? astype(a, *dtype, true) : a;
    }
    py::object conv = dtype ? np.attr("asarray")(obj, numpy_dtype(*dtype)) : np.attr("asarray")(obj);
    py::array carr = conv;
    if (!dtype) {
        // NumPy's default integer is int64 here; anything unsupported fails in dtype_from_py.
        dtype_from_py(carr.dtype());
    }
    return from_numpy(carr);
}

std::vector<int64_t> ints_from_py(py::handle obj, const char* what) {
    std::vector<int64_t> v;
    if (PyLong_Check(obj.ptr()) || py::hasattr(obj, "__index__")) {
        if (!PySequence_Check(obj.ptr()) || py::isinstance<py::int_>(obj)) {
            v.push_back(index_of(obj));
            return v;
        }
    }
    if (!PySequence_Check(obj.ptr()) || py::isinstance<py::str>(obj))
        throw DtypeError(std::string(what) + " must be an int or a sequence of ints, got " + std::string(py::str(py::type::of(obj).attr("__name__"))));
    for (auto item : py::reinterpret_borrow<py::sequence>(obj)) {
        if (PyFloat_Check(item.ptr()) || PyBool_Check(item.ptr()))
            throw DtypeError(std::string(what) + " must contain ints, got " + std::string(py::repr(item)));
        try {
            v.push_back(index_of(item));
        } catch (py::error_already_set&) {
            throw DtypeError(std::string(what) + " must contain ints, got " + std::string(py::repr(item)));
        }
    }
    return v;
}

std::optional<std::vector<int64_t>> axes_from_py(py::handle obj) {
    if (obj.is_none()) return std::nullopt;
    if (PyFloat_Check(obj.ptr())) throw DtypeError("axis must be an int, a tuple of ints or None, got a float");
    return ints_from_py(obj, "axis");
}

Shape shape_from_py(py::handle obj) {
    std::vector<int64_t> v = ints_from_py(obj, "shape");
    for (auto d : v)
        if (d < 0) throw ShapeError("negative dimensions are not allowed, got shape " + Shape(v).str());
    return Shape(v);
}

std::vector<Index> index_from_py(py::handle obj) {
    std::vector<Index> out;
    auto one = [&](py::handle e) {
        Index ix;
        PyObject* o = e.ptr();
        if (o == Py_None) {
            ix.kind = Index::NewAxis;
        } else if (o == Py_Ellipsis) {
            ix.kind = Index::Ellipsis;
        } else if (PySlice_Check(o)) {
            ix.kind = Index::Slice;
            auto get = [&](const char* n) -> std::optional<int64_t> {
                py::object v = e.attr(n);
                if (v.is_none()) return std::nullopt;
                try {
                    return index_of(v);
                } catch (py::error_already_set&) {
                    throw IndexError("slice indices must be integers or None");
                }
            };
            ix.start = get("start");
            ix.stop = get("stop");
            ix.step = get("step");
        } else if (PyBool_Check(o)) {
            throw IndexError("boolean scalar indices are not supported; use a boolean array");
        } else if (PyLong_Check(o)) {
            ix.kind = Index::Int;
            ix.i = py::cast<int64_t>(e);
        } else if (is_ndarray(e) || PySequence_Check(o) || py::isinstance<py::array>(e)) {
            ix.kind = Index::Array_;
            ix.arr = to_array(e);
            if (is_float(ix.arr.dtype()))
                throw IndexError("arrays used as indices must be of integer (or boolean) type");
            if (ix.arr.ndim() == 0) {
                if (ix.arr.dtype() == Dtype::Bool)
                    throw IndexError("boolean scalar indices are not supported; use a boolean array");
                ix.kind = Index::Int;
                ix.i = static_cast<int64_t>(item_as_double(ix.arr));
            }
        } else if (py::hasattr(e, "__index__")) {
            ix.kind = Index::Int;
            ix.i = index_of(e);
        } else {
            throw IndexError("only integers, slices (`:`), ellipsis (`...`), None and integer or boolean arrays are valid "
                             "indices, got " + std::string(py::str(py::type::of(e).attr("__name__"))));
        }
        out.push_back(ix);
    };
    if (PyTuple_Check(obj.ptr())) {
        for (auto e : py::reinterpret_borrow<py::tuple>(obj)) one(e);
    } else {
        one(obj);
    }
    return out;
}

py::tuple to_tuple(const Shape& s) {
    py::tuple t(s.size());
    for (int i = 0; i < s.size(); ++i) t[i] = py::int_(s[i]);
    return t;
}

namespace {

// Sets the Python exception of one of the library's errors; false for any
// other exception.
bool set_library_error(std::exception_ptr p) {
    try {
        std::rethrow_exception(p);
    } catch (const DtypeError& e) {
        PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const ShapeError& e) {
        PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const cn::IndexError& e) {
        PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const GradError& e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const cn::IOError& e) {
        PyErr_SetString(PyExc_OSError, e.what());
    } catch (const FormatError& e) {
        PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const cn::KeyError& e) {
        PyErr_SetString(PyExc_KeyError, e.what());
    } catch (...) {
        return false;
    }
    return true;
}

void init_types(py::module_& m) {
    py::module_ np = py::module_::import("numpy");
    for (int i = 0; i < kNumDtypes; ++i) g_dtypes[i] = np.attr("dtype")(dtype_name(static_cast<Dtype>(i)));
    g_ndarray_type = reinterpret_cast<PyTypeObject*>(m.attr("ndarray").ptr());
}
}  // namespace

void set_python_error(std::exception_ptr p) {
    if (set_library_error(p)) return;
    try {
        std::rethrow_exception(p);
    } catch (const std::bad_alloc&) {
        PyErr_NoMemory();
    } catch (const std::exception& e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (...) {
        PyErr_SetString(PyExc_RuntimeError, "unknown C++ exception");
    }
}

}  // namespace cn

PYBIND11_MODULE(_core, m) {
    using namespace cn;
    m.doc() = "chainer_native's C++ core: ndarray, routines and autograd";
    py::register_exception_translator([](std::exception_ptr p) {
        if (!set_library_error(p)) std::rethrow_exception(p);
    });
    bind_array(m);
    init_types(m);
    bind_routines(m);
    bind_graph(m);
    m.def("_set_backprop_mode", [](bool on) { return set_backprop_enabled(on); });
    m.def("is_backprop_required", &backprop_enabled, "Whether ops record the graph on this thread.");
    m.def("get_num_threads", &num_threads, "Threads the kernels (and OpenBLAS) use.");
    m.def("set_num_threads", [](int n) {
        if (n < 1) throw ShapeError("set_num_threads: n must be positive, got " + std::to_string(n));
        set_num_threads(n);
    }, py::arg("n"), "Set the threads of the kernels and of OpenBLAS.");
    // The C++ API's .npz reader and writer, reachable from Python for tests
    // and tools (chainer_core.serializers remains the way to load models).
    m.def("_read_npz", [](const std::string& path) {
        NpzFile f(path);
        py::dict out;
        for (const auto& k : f.keys()) out[py::str(k)] = py::cast(f.get(k));
        return out;
    }, py::arg("path"), "Every array of an .npz file, read by the library's own reader (no NumPy).");
    m.def("_write_npz", [](const std::string& path, py::dict arrays) {
        NamedArrays named;
        for (auto kv : arrays) named.emplace_back(kv.first.cast<std::string>(), to_array(kv.second));
        save_npz(path, named);
    }, py::arg("path"), py::arg("arrays"), "Writes {name: array} as an .npz file with the library's writer.");
}
