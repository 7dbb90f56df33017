// Conversions between Python objects and the library's types, shared by the
// binding translation units.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "array.h"
#include "indexing.h"

namespace py = pybind11;

namespace pybind11 {
namespace detail {

// cn::Array crosses into Python as the registered ArrayBody class, so one
// buffer view is one Python object.
template <>
struct type_caster<cn::Array> {
    PYBIND11_TYPE_CASTER(cn::Array, const_name("ndarray"));
    bool load(handle src, bool convert) {
        copyable_holder_caster<cn::ArrayBody, std::shared_ptr<cn::ArrayBody>> c;
        if (!c.load(src, convert)) return false;
        value = cn::Array(static_cast<std::shared_ptr<cn::ArrayBody>>(c));
        return true;
    }
    static handle cast(const cn::Array& a, return_value_policy, handle parent) {
        if (!a.defined()) return none().release();
        return type_caster<std::shared_ptr<cn::ArrayBody>>::cast(a.body(), return_value_policy::take_ownership, parent);
    }
};

}  // namespace detail
}  // namespace pybind11

namespace cn {

// numpy.dtype objects of the nine dtypes, and the reverse mapping.
py::object numpy_dtype(Dtype d);
Dtype dtype_from_py(py::handle obj);
std::optional<Dtype> optional_dtype(py::handle obj);

bool is_ndarray(py::handle obj);
// The array of an object known to be an ndarray (is_ndarray).
Array arr_of(py::handle obj);
// An array from anything array-like; numpy arrays (and our own) are shared,
// not copied, when their layout allows.
Array to_array(py::handle obj, std::optional<Dtype> dtype = std::nullopt);
// A Python number (weak scalar), if obj is one.
bool py_scalar(py::handle obj, Scalar& s);
// Borrow a numpy array's buffer (the result keeps the numpy array alive).
Array from_numpy(py::handle arr);

std::optional<std::vector<int64_t>> axes_from_py(py::handle obj);
std::vector<int64_t> ints_from_py(py::handle obj, const char* what);
Shape shape_from_py(py::handle obj);
std::vector<Index> index_from_py(py::handle obj);

py::tuple to_tuple(const Shape& s);

// The type of obj for error messages: module-qualified unless a builtin
// ("numpy.ndarray", not "ndarray", next to chainer_native.ndarray).
inline std::string py_type_name(py::handle obj) {
    py::handle t = py::type::of(obj);
    std::string mod = py::str(t.attr("__module__"));
    std::string name = py::str(t.attr("__qualname__"));
    return mod == "builtins" ? name : mod + "." + name;
}

// Drops a reference that C++ owned (a borrowed buffer's owner, a backward
// closure) from wherever its last C++ owner lets go: with the GIL taken
// (the caller may not hold it), and not at all once the interpreter is gone.
inline void decref_with_gil(PyObject* obj) {
    if (!Py_IsInitialized()) return;
    py::gil_scoped_acquire gil;
    Py_DECREF(obj);
}

// Sets the Python exception for a C++ exception: the library's errors as
// TypeError, ValueError, IndexError and RuntimeError, as pybind11 raises them.
void set_python_error(std::exception_ptr p);

void bind_array(py::module_& m);
void bind_routines(py::module_& m);
void bind_graph(py::module_& m);

}  // namespace cn
