// Autograd beyond the ndarray methods: grad(), and op nodes whose backward
// is a Python callable (_record, _OpHandle), through which chainer-core keeps
// the graph of native arrays in C++ while its FunctionNodes stay in Python.
#include <pybind11/numpy.h>

#include <string_view>

#include "bind_util.h"
#include "creation.h"
#include "elementwise.h"
#include "graph.h"
#include "nn.h"
#include "rules.h"

namespace cn {

namespace {

// A Python object owned by C++ (a backward callable). The op node holding it
// may die anywhere (end of a backward pass, the last output released), so
// the reference is dropped with the GIL (see decref_with_gil).
std::shared_ptr<PyObject> hold(py::object o) {
    return std::shared_ptr<PyObject>(o.release().ptr(), [](PyObject* p) { decref_with_gil(p); });
}

// The backward function of an op recorded from Python: calls
// backward(target_indexes, grad_outputs) and checks what comes back. The
// engine checks each gradient's shape and dtype against its input.
BackwardFn python_backward(py::object callable) {
    return [cb = hold(std::move(callable))](BackwardContext& c) {
        py::gil_scoped_acquire gil;
        const std::string& name = c.node->name;
        std::vector<int> idx;
        for (size_t i = 0; i < c.need.size(); ++i)
            if (c.need[i]) idx.push_back(static_cast<int>(i));
        py::tuple targets(idx.size());
        for (size_t k = 0; k < idx.size(); ++k) targets[k] = py::int_(idx[k]);
        // No zeros for outputs no gradient reached: the callable decides.
        py::tuple gys(c.gys.size());
        for (size_t i = 0; i < c.gys.size(); ++i) gys[i] = c.gys[i].defined() ? py::cast(c.gys[i]) : py::none();
        py::object r = py::reinterpret_borrow<py::object>(cb.get())(targets, gys);
        if (!PyTuple_Check(r.ptr()) && !PyList_Check(r.ptr()))
            throw GradError("backward of " + name + ": the backward callable returned a " + py_type_name(r) +
                            "; expected a tuple or list with one gradient (ndarray or None) per target index");
        auto seq = py::reinterpret_borrow<py::sequence>(r);
        if (seq.size() != idx.size())
            throw GradError("backward of " + name + ": the backward callable returned " + std::to_string(seq.size()) +
                            " gradients for " + std::to_string(idx.size()) + " target indexes " +
                            std::string(py::repr(targets)));
        for (size_t k = 0; k < idx.size(); ++k) {
            py::object g = seq[k];
            if (g.is_none()) continue;
            if (!is_ndarray(g))
                throw GradError("backward of " + name + ": gradient " + std::to_string(k) + " (for input " +
                                std::to_string(idx[k]) + ") is a " + py_type_name(g) +
                                "; expected a chainer_native.ndarray or None");
            c.set(idx[k], arr_of(g));
        }
    };
}

// A Python-side reference to an op recorded by _record. Weak: the backward
// callable usually belongs to an object that holds this handle, and a strong
// reference would close a cycle through C++ that Python's gc cannot see.
struct OpHandle {
    std::weak_ptr<OpNode> op;
    std::string name;
};

// Python's view of graph nodes, made on request (creator, graph walks):
// each call makes a new object holding the node; `key` identifies the node
// while any object holds it.
struct VarNodeRef {
    std::shared_ptr<VarNode> node;
};

struct OpNodeRef {
    std::shared_ptr<OpNode> op;
};

py::object var_ref(std::shared_ptr<VarNode> n) { return n ? py::cast(VarNodeRef{std::move(n)}) : py::none(); }

py::object op_ref(std::shared_ptr<OpNode> op) { return op ? py::cast(OpNodeRef{std::move(op)}) : py::none(); }

Array ndarray_arg(py::handle h, const char* routine, const std::string& what) {
    if (!is_ndarray(h))
        throw DtypeError(std::string(routine) + ": " + what + " must be a chainer_native.ndarray, got " + py_type_name(h));
    return arr_of(h);
}

// A sequence of ndarrays (None allowed where none_ok), or one ndarray.
std::vector<Array> arrays_arg(py::handle h, const char* routine, const char* what, bool none_ok) {
    std::vector<Array> out;
    if (is_ndarray(h)) {
        out.push_back(arr_of(h));
        return out;
    }
    if (!PyTuple_Check(h.ptr()) && !PyList_Check(h.ptr()))
        throw DtypeError(std::string(routine) + ": " + what + " must be a tuple or list of chainer_native.ndarray, got " +
                         py_type_name(h));
    auto seq = py::reinterpret_borrow<py::sequence>(h);
    out.reserve(seq.size());
    for (size_t i = 0; i < seq.size(); ++i) {
        py::object e = seq[i];
        if (none_ok && e.is_none()) out.emplace_back();
        else if (!is_ndarray(e))
            throw DtypeError(std::string(routine) + ": " + what + "[" + std::to_string(i) + "] must be a chainer_native.ndarray" +
                             (none_ok ? " or None" : "") + ", got " + py_type_name(e));
        else out.push_back(arr_of(e));
    }
    return out;
}

// A rule's literal or parameter value: None, bool, int, float or a tuple of
// ints.
Value value_from_py(py::handle h, const std::string& where) {
    if (h.is_none()) return std::monostate{};
    if (PyBool_Check(h.ptr())) return h.ptr() == Py_True;
    if (PyLong_Check(h.ptr())) return h.cast<int64_t>();
    if (PyFloat_Check(h.ptr())) return h.cast<double>();
    if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr())) return ints_from_py(h, where.c_str());
    throw DtypeError(where + ": expected None, a bool, an int, a float or a tuple of ints, got " + py_type_name(h));
}

std::vector<int64_t> index_list(py::handle h) {
    std::vector<int64_t> out;
    for (py::handle v : py::reinterpret_borrow<py::sequence>(h)) out.push_back(v.cast<int64_t>());
    return out;
}

Ref ref_from_py(py::handle h, const std::string& where) {
    auto t = py::reinterpret_borrow<py::sequence>(h);
    if (t.size() != 2) throw ShapeError(where + ": an operand must be a (kind, value) pair");
    int kind = t[0].cast<int>();
    if (kind < static_cast<int>(Operand::X) || kind > static_cast<int>(Operand::Const))
        throw ShapeError(where + ": unknown operand kind " + std::to_string(kind));
    Ref r;
    r.kind = static_cast<Operand>(kind);
    if (r.kind == Operand::Const) r.literal = value_from_py(t[1], where);
    else r.index = t[1].cast<int64_t>();
    return r;
}

// A program as backend_api.rules.Rule.program() gives it.
Program program_from_py(const std::string& name, py::handle params, py::handle program) {
    Program p;
    p.name = name;
    std::string where = "_install_rule(" + name + ")";
    for (py::handle n : py::reinterpret_borrow<py::sequence>(params)) p.params.push_back(n.cast<std::string>());
    auto t = py::reinterpret_borrow<py::sequence>(program);
    if (t.size() != 3) throw ShapeError(where + ": program must be (n_slots, instructions, grads)");
    p.n_slots = t[0].cast<int64_t>();
    for (py::handle ih : py::reinterpret_borrow<py::sequence>(t[1])) {
        auto it = py::reinterpret_borrow<py::sequence>(ih);
        if (it.size() != 5)
            throw ShapeError(where + ": an instruction must be (kernel, args, param_names, param_values, outs)");
        Instruction ins;
        ins.kernel = it[0].cast<std::string>();
        for (py::handle a : py::reinterpret_borrow<py::sequence>(it[1])) ins.args.push_back(ref_from_py(a, where));
        for (py::handle n : py::reinterpret_borrow<py::sequence>(it[2])) ins.param_names.push_back(n.cast<std::string>());
        for (py::handle v : py::reinterpret_borrow<py::sequence>(it[3])) ins.params.push_back(ref_from_py(v, where));
        ins.outs = index_list(it[4]);
        p.instructions.push_back(std::move(ins));
    }
    p.grads = index_list(t[2]);
    return p;
}

bool broadcastable(const Shape& a, const Shape& b) {
    if (a == b) return true;
    for (int i = 1; i <= std::min(a.size(), b.size()); ++i) {
        int64_t p = a[a.size() - i], q = b[b.size() - i];
        if (p != q && p != 1 && q != 1) return false;
    }
    return true;
}

// The graph kernels and _graph_and_data below run once per op of a
// training step, where pybind11's argument dispatch would cost as much as
// the op on small arrays: they are plain CPython functions.

template <typename F>
PyObject* guarded(F&& f) {
    try {
        return f();
    } catch (py::error_already_set& e) {
        e.restore();
    } catch (...) {
        set_python_error(std::current_exception());
    }
    return nullptr;
}

// The label of a graph kernel's call, fn(label, inputs).
std::string_view kernel_label(PyObject* const* args, Py_ssize_t nargs, const char* routine) {
    if (nargs != 2) throw DtypeError(std::string(routine) + ": expected the arguments (label, inputs), got " + std::to_string(nargs));
    Py_ssize_t size;
    const char* label = PyUnicode_AsUTF8AndSize(args[0], &size);
    if (!label) throw py::error_already_set();
    return std::string_view(label, size);
}

// The operands of a graph kernel's call into xs (room for max_n) and their
// number; -1 for more, which the kernel declines (the op's type check
// rejects them).
Py_ssize_t kernel_operands(PyObject* const* args, const char* routine, Array* xs, Py_ssize_t max_n) {
    PyObject* inputs = args[1];
    if (!PyTuple_Check(inputs) && !PyList_Check(inputs))
        throw DtypeError(std::string(routine) + ": inputs must be a tuple or list of chainer_native.ndarray, got " +
                         py_type_name(inputs));
    Py_ssize_t n = PySequence_Fast_GET_SIZE(inputs);
    if (n > max_n) return -1;
    PyObject** items = PySequence_Fast_ITEMS(inputs);
    for (Py_ssize_t i = 0; i < n; ++i) {
        if (!is_ndarray(items[i]))
            throw DtypeError(std::string(routine) + ": inputs[" + std::to_string(i) +
                             "] must be a chainer_native.ndarray, got " + py_type_name(items[i]));
        xs[i] = arr_of(items[i]);
    }
    return n;
}

PyObject* declined() { return Py_NewRef(Py_NotImplemented); }

// (y,), the op that made y named `label`: graph dumps and error messages
// name it as chainer-core does, with no second call to rename it.
PyObject* labelled(std::string_view label, const Array& y) {
    const auto& n = y.body()->node;
    if (n && n->creator) n->creator->name.assign(label.data(), label.size());
    return py::make_tuple(y).release().ptr();
}

// Graph kernels of elementwise ops, fn(label, inputs) -> (y,); `self` is a
// capsule of their GraphKernel. Each declines (NotImplemented) the inputs
// outside the domain chainer-core declares for it (binary: two arrays of one
// dtype whose shapes broadcast; unary: one float array), which the core then
// reports as it does on every device.
struct GraphKernel {
    PyMethodDef def;
    int op;  // a BinaryOp or UnaryOp
};

const GraphKernel& kernel_of(PyObject* self) {
    return *static_cast<const GraphKernel*>(PyCapsule_GetPointer(self, nullptr));
}

PyObject* graph_binary(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    return guarded([&]() -> PyObject* {
        const GraphKernel& k = kernel_of(self);
        std::string_view label = kernel_label(args, nargs, k.def.ml_name);
        Array xs[2];
        if (kernel_operands(args, k.def.ml_name, xs, 2) != 2 || xs[0].dtype() != xs[1].dtype() ||
            !broadcastable(xs[0].shape(), xs[1].shape()))
            return declined();
        return labelled(label, binary(static_cast<BinaryOp>(k.op), xs[0], xs[1]));
    });
}

PyObject* graph_unary(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    return guarded([&]() -> PyObject* {
        const GraphKernel& k = kernel_of(self);
        std::string_view label = kernel_label(args, nargs, k.def.ml_name);
        Array x;
        if (kernel_operands(args, k.def.ml_name, &x, 1) != 1 || !is_float(x.dtype())) return declined();
        return labelled(label, unary(static_cast<UnaryOp>(k.op), x));
    });
}

// linear's graph kernel, fn(label, (x, W) or (x, W, b)): declines what the
// op's type check rejects (x (N, in) and W (out, in) of float dtypes, b
// (out,)) and operands of two dtypes, which the op promotes itself.
PyObject* graph_linear(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    return guarded([&]() -> PyObject* {
        const char* routine = "_graph_linear";
        std::string_view label = kernel_label(args, nargs, routine);
        Array xs[3];
        Py_ssize_t n = kernel_operands(args, routine, xs, 3);
        if (n < 2) return declined();
        const Array &x = xs[0], &w = xs[1], &b = xs[2];
        Dtype d = x.dtype();
        if (!is_float(d) || w.dtype() != d || x.ndim() != 2 || w.ndim() != 2 || x.shape()[1] != w.shape()[1] ||
            (n == 3 && (b.dtype() != d || b.ndim() != 1 || b.shape()[0] != w.shape()[0])))
            return declined();
        return labelled(label, linear(x, w, b, 1));
    });
}

PyObject* graph_and_data(PyObject*, PyObject* a) {
    return guarded([&]() -> PyObject* {
        Array x = ndarray_arg(a, "_graph_and_data", "a");
        if (!x.requires_grad()) return PyTuple_Pack(2, Py_None, a);
        py::object data = py::cast(x.as_data());
        return PyTuple_Pack(2, a, data.ptr());
    });
}

#define CN_FASTCALL(f) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(f))
#define CN_GRAPH_KERNEL(name, f, op) \
    GraphKernel { {name, CN_FASTCALL(f), METH_FASTCALL, "A graph kernel of chainer-core: fn(label, inputs) -> (y,), or NotImplemented."}, static_cast<int>(op) }

PyMethodDef graph_and_data_def = {"_graph_and_data", reinterpret_cast<PyCFunction>(graph_and_data), METH_O,
                                  "``(a, a.as_grad_stopped())`` when ``a`` requires grad, else ``(None, a)``: the "
                                  "graph view and the data view of an op's output in one call."};
PyMethodDef graph_linear_def = {"_graph_linear", CN_FASTCALL(graph_linear), METH_FASTCALL,
                                 "linear's graph kernel of chainer-core: fn(label, inputs) -> (y,), or NotImplemented."};
GraphKernel graph_kernels[] = {
    CN_GRAPH_KERNEL("_graph_add", graph_binary, BinaryOp::Add),
    CN_GRAPH_KERNEL("_graph_subtract", graph_binary, BinaryOp::Sub),
    CN_GRAPH_KERNEL("_graph_multiply", graph_binary, BinaryOp::Mul),
    CN_GRAPH_KERNEL("_graph_divide", graph_binary, BinaryOp::Div),
    CN_GRAPH_KERNEL("_graph_negative", graph_unary, UnaryOp::Neg),
    CN_GRAPH_KERNEL("_graph_exp", graph_unary, UnaryOp::Exp),
    CN_GRAPH_KERNEL("_graph_log", graph_unary, UnaryOp::Log),
    CN_GRAPH_KERNEL("_graph_relu", graph_unary, UnaryOp::Relu),
    CN_GRAPH_KERNEL("_graph_sigmoid", graph_unary, UnaryOp::Sigmoid),
    CN_GRAPH_KERNEL("_graph_tanh", graph_unary, UnaryOp::Tanh),
};

void add_function(py::module_& m, PyMethodDef* def, py::handle self) {
    PyObject* f = PyCFunction_NewEx(def, self.ptr(), m.attr("__name__").ptr());
    if (!f) throw py::error_already_set();
    m.add_object(def->ml_name, py::reinterpret_steal<py::object>(f));
}

}  // namespace

void bind_graph(py::module_& m) {
    using py::arg;

    py::class_<OpHandle>(m, "_OpHandle", R"doc(
An op node recorded by ``_record``, held weakly: ``alive`` is False once the
node is gone (every output released, or nothing left to differentiate).
)doc")
        .def_property_readonly("alive", [](const OpHandle& h) { return !h.op.expired(); })
        .def_property_readonly("name", [](const OpHandle& h) { return h.name; })
        .def("output", [](const OpHandle& h, int64_t i, py::handle data) {
            auto op = h.op.lock();
            if (!op)
                throw GradError("_OpHandle.output: the op node of " + h.name +
                                " is gone (all its outputs were released)");
            int64_t n = static_cast<int64_t>(op->outputs.size());
            if (i < 0 || i >= n)
                throw cn::IndexError("_OpHandle.output: index " + std::to_string(i) + " is out of range for " + h.name +
                                     ", which has " + std::to_string(n) + " outputs");
            Array d = ndarray_arg(data, "_OpHandle.output", "data");
            const auto& meta = op->output_meta[i];
            std::string which = " (output " + std::to_string(i) + " of " + h.name + ")";
            if (d.shape() != meta.first)
                throw ShapeError("_OpHandle.output: data has shape " + d.shape().str() + ", expected " + meta.first.str() + which);
            if (d.dtype() != meta.second)
                throw DtypeError(std::string("_OpHandle.output: data has dtype ") + dtype_name(d.dtype()) + ", expected " +
                                 dtype_name(meta.second) + which);
            Array v = d.as_data();
            v.body()->node = output_node(op, static_cast<size_t>(i));
            return v;
        }, arg("i"), arg("data"), R"doc(
A new view of ``data`` (output ``i``'s shape and dtype) connected to output
``i`` of the op: to its node if still alive, else to a new one created by the
op, so that gradients flowing into the view (double backprop) reach the op.
Outputs of non-float dtype give a plain view.
)doc")
        .def("__repr__", [](const OpHandle& h) {
            return "<chainer_native._OpHandle " + h.name + (h.op.expired() ? " (gone)>" : ">");
        });

    py::class_<VarNodeRef>(m, "_VarNode", R"doc(
The autograd node of an array that requires grad (``_node``). Arrays sharing
the node are one variable of the graph.
)doc")
        .def_property_readonly("key", [](const VarNodeRef& r) { return reinterpret_cast<uintptr_t>(r.node.get()); })
        .def_property_readonly("creator", [](const VarNodeRef& r) { return op_ref(r.node->creator); })
        .def_property_readonly("rank", [](const VarNodeRef& r) { return r.node->rank; })
        .def_property_readonly("shape", [](const VarNodeRef& r) { return to_tuple(r.node->shape); })
        .def_property_readonly("dtype", [](const VarNodeRef& r) { return numpy_dtype(r.node->dtype); })
        .def("unchain", [](const VarNodeRef& r) { unchain(*r.node); },
             "Make the node a leaf: backprop stops here and fills its grad.")
        .def("unchain_backward", [](const VarNodeRef& r) { unchain_backward(*r.node); },
             "Cut the graph behind the node: every op it depends on is released and its outputs become leaves.");

    py::class_<OpNodeRef>(m, "_OpNode", R"doc(
An op of the graph (``_VarNode.creator``): ``inputs`` holds the input nodes
(None where no gradient flows), ``outputs`` the output nodes (None where the
output is gone or has no node).
)doc")
        .def_property_readonly("key", [](const OpNodeRef& r) { return reinterpret_cast<uintptr_t>(r.op.get()); })
        .def_property("name", [](const OpNodeRef& r) { return r.op->name; },
                      [](const OpNodeRef& r, std::string name) { r.op->name = std::move(name); })
        .def_property_readonly("rank", [](const OpNodeRef& r) { return r.op->rank; })
        .def_property_readonly("inputs", [](const OpNodeRef& r) {
            py::tuple t(r.op->inputs.size());
            for (size_t i = 0; i < r.op->inputs.size(); ++i) t[i] = var_ref(r.op->inputs[i]);
            return t;
        })
        .def_property_readonly("outputs", [](const OpNodeRef& r) {
            py::tuple t(r.op->outputs.size());
            for (size_t i = 0; i < r.op->outputs.size(); ++i) t[i] = var_ref(r.op->outputs[i].lock());
            return t;
        })
        .def("unchain", [](const OpNodeRef& r) { unchain_op(*r.op); },
             "Release the op's inputs and backward function; its live outputs become leaves.");

    m.def("_node", [](py::handle a) {
        return var_ref(ndarray_arg(a, "_node", "a").body()->node);
    }, arg("a"), "The autograd node of ``a`` (a ``_VarNode``), or None when ``a`` does not require grad.");

    m.def("_name_creator", [](py::handle a, std::string name) {
        const auto& n = ndarray_arg(a, "_name_creator", "a").body()->node;
        if (n && n->creator) n->creator->name = std::move(name);
    }, arg("a"), arg("name"), "Rename the op that computed ``a`` (no effect on a leaf or an array outside the graph).");

    m.def("_record", [](const std::string& name, py::handle inputs, py::handle outputs, py::object backward) {
        if (!PyCallable_Check(backward.ptr()))
            throw DtypeError("_record: backward must be callable, got " + py_type_name(backward));
        std::vector<Array> xs = arrays_arg(inputs, "_record", "inputs", true);
        std::vector<Array> ys = arrays_arg(outputs, "_record", "outputs", false);
        // New array objects: the outputs may be the inputs themselves or
        // views of them, whose nodes must stay as they are.
        py::tuple views(ys.size());
        std::vector<Array> vs;
        vs.reserve(ys.size());
        for (const auto& y : ys) vs.push_back(y.as_data());
        bool record = false;
        for (const auto& x : xs) record = record || (x.defined() && x.requires_grad());
        py::object handle = py::none();
        if (record && backprop_enabled()) {
            auto op = record_op(name, xs, vs, python_backward(std::move(backward)));
            handle = py::cast(OpHandle{op, name});
        }
        for (size_t i = 0; i < vs.size(); ++i) views[i] = py::cast(vs[i]);
        return py::make_tuple(handle, views);
    }, arg("name"), arg("inputs"), arg("outputs"), arg("backward"), R"doc(
Records an op computed in Python: returns ``(handle, graph_outputs)``.

``inputs``: ndarrays (or None); those that require grad become the op's
inputs. ``outputs``: the arrays the op computed, left untouched;
``graph_outputs`` holds a new view of each, carrying a new node created by
the op (outputs of non-float dtype get none). When no input requires grad or
backprop is off, nothing is recorded: ``handle`` is None and the views carry
no node.

Backward calls ``backward(target_indexes, grad_outputs)``: the indexes of the
inputs whose gradient is needed, and one gradient per output (None where
none reached it). It returns a tuple or list with one ndarray or None per
target index. With ``enable_double_backprop`` it runs with backprop on, so
what it computes from the arrays it gets is recorded. ``backward`` must not
hold the graph outputs (they would keep the op alive through C++); see
``_OpHandle.output``.
)doc");

    m.def("_install_rule", [](const std::string& name, py::handle params, py::handle program) {
        install_program(program_from_py(name, params, program));
    }, arg("name"), arg("params"), arg("program"), R"doc(
Installs chainer-core's derivative rule of the graph kernel ``name``:
``params`` its parameter names in order, ``program`` as
``backend_api.rules.Rule.program()`` gives it. The ops of that graph kernel
record it and evaluate it in C++ on backward.
)doc");

    m.def("_set_rule_source", [](py::object source) {
        if (!PyCallable_Check(source.ptr()))
            throw DtypeError("_set_rule_source: source must be callable, got " + py_type_name(source));
        set_rule_source([cb = hold(std::move(source))]() {
            py::gil_scoped_acquire gil;
            py::reinterpret_borrow<py::object>(cb.get())();
        });
    }, arg("source"), R"doc(
Sets the callable that installs the derivative rules (with ``_install_rule``)
the first time an op finds none.
)doc");

    m.def("grad", [](py::handle outputs, py::handle inputs, py::handle grad_outputs, bool retain_grad,
                     bool enable_double_backprop, bool retain_graph) {
        std::vector<Array> ys = arrays_arg(outputs, "grad", "outputs", false);
        std::vector<Array> xs = arrays_arg(inputs, "grad", "inputs", true);
        std::vector<Array> gys(ys.size());
        if (!grad_outputs.is_none()) {
            py::object seq = py::reinterpret_borrow<py::object>(grad_outputs);
            if (is_ndarray(grad_outputs) || py::isinstance<py::array>(grad_outputs)) seq = py::make_tuple(grad_outputs);
            if (!PyTuple_Check(seq.ptr()) && !PyList_Check(seq.ptr()))
                throw DtypeError("grad: grad_outputs must be None or a tuple or list with one entry per output, got " +
                                 py_type_name(grad_outputs));
            auto s = py::reinterpret_borrow<py::sequence>(seq);
            if (s.size() != ys.size())
                throw ShapeError("grad: grad_outputs has " + std::to_string(s.size()) + " entries for " +
                                 std::to_string(ys.size()) + " outputs (one per output, None for the default)");
            for (size_t i = 0; i < ys.size(); ++i) {
                py::object g = s[i];
                if (!g.is_none()) gys[i] = to_array(g);
            }
        }
        std::vector<Array> gxs = grad(ys, xs, gys, retain_grad, enable_double_backprop, retain_graph);
        py::list out;
        for (const auto& g : gxs) out.append(g.defined() ? py::cast(g) : py::none());
        return out;
    }, arg("outputs"), arg("inputs"), arg("grad_outputs") = py::none(), arg("retain_grad") = false,
       arg("enable_double_backprop") = false, arg("retain_graph") = false, R"doc(
The gradients of ``outputs`` with respect to ``inputs``, as a list.

``outputs`` and ``inputs``: ndarrays (a sequence, or one array).
``grad_outputs``: one gradient per output, None for ones (one-element
outputs only). Returns one gradient per input, None where no path leads
from the outputs (or the input does not require grad); an input computed
from another input gets its total gradient, and the other input too. No
``.grad`` of a leaf is touched; ``retain_grad`` keeps the gradients of
intermediate arrays in their ``.grad`` as backward does. With
``enable_double_backprop`` the results carry graph. ``retain_graph`` (or
double backprop) keeps the graph for another pass. The results share no
buffer with each other or with ``grad_outputs``.
)doc");

    m.def("_get_grad", [](py::handle a, bool keep_graph) -> py::object {
        Array g = ndarray_arg(a, "_get_grad", "a").grad();
        if (!g.defined()) return py::none();
        return py::cast(keep_graph || !g.requires_grad() ? g : g.as_data());
    }, arg("a"), arg("keep_graph"), R"doc(
``a.grad``, outside the graph unless ``keep_graph`` (None when unset).
)doc");

    m.def("_set_grad", [](py::handle a, py::handle grad) {
        Array x = ndarray_arg(a, "_set_grad", "a");
        if (grad.is_none()) x.clear_grad();
        else x.set_grad(to_array(grad));
    }, arg("a"), arg("grad"), "``a.grad = grad`` (None clears it).");

    m.def("_graph_softmax_cross_entropy", [](std::string_view label, py::handle inputs, py::handle class_weight,
                                             int64_t ignore_label, bool normalize, const std::string& reduce) {
        // Declines what the op's type check and label check reject (x (N, C)
        // of a float dtype, signed integer labels t (N,) in [0, C) or equal
        // to ignore_label) and what the routine does not compute (class
        // weights, more axes, a mean over all labels).
        std::vector<Array> xs = arrays_arg(inputs, "_graph_softmax_cross_entropy", "inputs", false);
        if (xs.size() != 2 || !class_weight.is_none() || (reduce != "mean" && reduce != "no") ||
            (reduce == "mean" && !normalize))
            return py::reinterpret_steal<py::object>(declined());
        const Array &x = xs[0], &t = xs[1];
        if (!is_float(x.dtype()) || dtype_kind(t.dtype()) != 'i' || x.ndim() != 2 || t.ndim() != 1 ||
            t.shape()[0] != x.shape()[0] || x.shape()[1] == 0)
            return py::reinterpret_steal<py::object>(declined());
        Array labels = contiguous_as(t, Dtype::Int64);
        const int64_t* l = labels.ptr<int64_t>();
        for (int64_t i = 0, n = labels.size(), c = x.shape()[1]; i < n; ++i)
            if (l[i] != ignore_label && (l[i] < 0 || l[i] >= c)) return py::reinterpret_steal<py::object>(declined());
        return py::reinterpret_steal<py::object>(labelled(label, softmax_cross_entropy(x, t, ignore_label, reduce)));
    }, arg("label"), arg("inputs"), arg("class_weight"), arg("ignore_label"), arg("normalize"), arg("reduce"),
       "softmax cross entropy's graph kernel of chainer-core: fn(label, (x, t), ...) -> (loss,), or NotImplemented.");

    add_function(m, &graph_and_data_def, py::none());
    add_function(m, &graph_linear_def, py::none());
    for (GraphKernel& k : graph_kernels) add_function(m, &k.def, py::capsule(static_cast<void*>(&k)));
}

}  // namespace cn
