"""FunctionNode: one differentiable op in the graph."""

import numpy

from chainer_core._runtime.host import host
from backend_api.errors import DeviceMismatchError
from chainer_core._runtime.graphs import graph_for_array as _graph_for_array
from chainer_core._runtime.graphs import graph_kernel as _graph_kernel
from chainer_core._runtime import rules as _rules
from chainer_core._runtime.graphs import checking_kernels as _checking_kernels
from chainer_core._runtime.graphs import _graphs, _splits
from chainer_core._runtime.graphs import split_for as _split_for
from chainer_core._runtime.graphs import _cache as _graph_kernel_cache
from chainer_core._runtime.graphs import cache_for as _graph_kernel_cache_for
from chainer_core._runtime.graphs import _specs as _graph_kernel_specs
from chainer_core import _backprop, _function_hooks, _variable_graphs
from chainer_core._variable_graphs import CORE as _CORE_GRAPH
from chainer_core.backend import GpuDevice
from chainer_core.configuration import config, global_config
from chainer_core.graph_optimizations.static_graph_utilities import (  # NOQA
    static_forward_optimizations)
from chainer_core.utils import type_check
from chainer_core.variable import Variable, as_variable
from chainer_core.variable import variable_from_graph

# apply() reads three keys per call: plain dict lookups in the thread's
# overrides and the global defaults cost far less than attribute fallback.
_config_local = config._local
_config_global = global_config.__dict__
_hooks_state = _function_hooks._state
_type_check_state = type_check._thread_local
_from_graph = variable_from_graph
_new_variable = object.__new__
_new_object = object.__new__


def _raise_device_mismatch(label, in_data):
    devices = []
    for x in in_data:
        if x is None:
            continue
        d = host.device_from_array(x)
        if d not in devices:
            devices.append(d)
    if len(devices) > 1:
        raise DeviceMismatchError(
            '{}: inputs live on different devices: {} and {}; move them to '
            'one device first (x.to_device(...))'.format(
                label, devices[0].name, devices[1].name))


def binary_operator(node_class, other):
    """``Variable.__<op>__`` of the op ``node_class``, a FunctionNode of
    two inputs whose graph kernel takes no parameters and is declared with
    ``checks_inputs``.

    Between two Variables of one backend's graph the graph kernel alone
    computes and records the op, with no FunctionNode made: what ``apply``
    does for them, less its bookkeeping, while no function hook, no
    ``config.debug`` and nothing but recording asks for more. Every other
    pair of Variables goes through ``apply`` (which also reports the
    operands a kernel declines), any other operand to ``other(self, rhs)``.
    """
    name = node_class.graph_kernel
    label = node_class._label
    if name not in _checking_kernels or _graph_kernel_specs[name].params:
        raise ValueError('{}: graph kernel {!r} must take no parameters and '
                         'check its inputs'.format(node_class.__name__, name))

    cached = _graph_kernel_cache_for(name)

    def operator(self, rhs):
        if not isinstance(rhs, Variable):
            return other(self, rhs)
        graph = self._graph
        if graph is not None and rhs._graph is graph:
            local = _config_local.__dict__
            if local:
                plain = local.get('enable_backprop',
                                  _config_global['enable_backprop']) and \
                    not local.get('debug', _config_global['debug'])
            else:
                plain = _config_global['enable_backprop'] and \
                    not _config_global['debug']
            t = type(self._data)
            if plain and type(rhs._data) is t and (
                    self._requires_grad or rhs._requires_grad) and \
                    not _hooks_state.__dict__.get('hooks'):
                try:
                    fn = cached[t]
                except KeyError:
                    fn = _graph_kernel(name, t)
                if fn is not None:
                    a = self._garray
                    b = rhs._garray
                    outputs = fn(label, (
                        self._graph_input() if a is None else a,
                        rhs._graph_input() if b is None else b))
                    if type(outputs) is tuple and len(outputs) == 1:
                        # variable_from_graph, inlined: this runs per op.
                        try:
                            split = _splits[graph]
                        except KeyError:
                            split = _split_for(graph)
                        v = _new_variable(Variable)
                        v._graph = graph
                        g, v._data = split(outputs[0])
                        v._garray = g
                        v._requires_grad = g is not None
                        return v
        return node_class().apply((self, rhs))[0]

    operator.__name__ = operator.__qualname__ = '__{}__'.format(name)
    return operator


def call_cpu_or_gpu(cpu, gpu, arrays):
    """``gpu(arrays)`` for arrays of a GPU device, otherwise ``cpu`` on
    NumPy arrays: Chainer's ``forward_cpu``/``forward_gpu`` split, which
    user code is written to.

    Arrays of a CPU backend that are not ``numpy.ndarray``s (``native:0``)
    are given to ``cpu`` as NumPy views (the device's ``to_numpy_view``,
    or a host copy), and the arrays it returns are sent back.
    """
    first = None
    for a in arrays:
        if a is not None:
            first = a
            break
    if first is None or isinstance(first, numpy.ndarray):
        return cpu(arrays)
    device = host.device_from_array(first)
    if isinstance(device, GpuDevice):
        return gpu(arrays)
    to_view = getattr(device, 'to_numpy_view', None) or numpy.asarray
    from_view = getattr(device, 'from_numpy_view', None) or device.send
    outputs = cpu(tuple([None if a is None else to_view(a) for a in arrays]))
    if not isinstance(outputs, (tuple, list)):
        return outputs
    return type(outputs)([None if y is None else from_view(numpy.asarray(y))
                          for y in outputs])


def _host_arrays_as_one_type(in_data):
    """NumPy arrays mixed with arrays of one backend whose arrays subclass
    ``numpy.ndarray`` (host memory, as ``@intel64``'s): the NumPy ones as
    zero-copy views of that subclass, as Chainer mixes NumPy and iDeep
    arrays. None for any other mix."""
    sub = None
    for x in in_data:
        if not isinstance(x, numpy.ndarray):
            return None
        t = type(x)
        if t is not numpy.ndarray:
            if sub is not None and t is not sub:
                return None
            sub = t
    return tuple([x.view(sub) if type(x) is numpy.ndarray else x
                  for x in in_data])


class FunctionNode:
    """A differentiable function: the node of an op in the graph.

    Subclasses implement :meth:`forward` (arrays in, tuple of arrays out) and
    :meth:`backward` (gradients as Variables, computed with differentiable
    functions so that double backprop works). :meth:`check_type_forward`
    validates the inputs with :mod:`chainer_core.utils.type_check`.
    """

    inputs = None
    outputs = None
    rank = 0
    stack = None
    lazy_grad_sum = False
    _input_indexes_to_retain = None
    _output_indexes_to_retain = None
    _retained_input_data = None
    _retained_output_data = None
    _released = False
    _local_function_hooks = None
    # The graph this node was recorded in (chainer_core._variable_graphs);
    # for a backend's graph also its Graph and its handle of the op.
    _variable_graph = _CORE_GRAPH
    _graph = None
    _graph_handle = None
    # The name of the graph kernel (``_runtime.graphs.declare``) that
    # computes this op and records its backward on a backend with its own
    # graph; its parameters come from :meth:`graph_kernel_params`.
    graph_kernel = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # A subclass that computes differently from the op it extends must
        # not inherit that op's graph kernel unless it names one itself.
        if 'graph_kernel' not in cls.__dict__ and any(
                m in cls.__dict__ for m in (
                    'forward', 'forward_cpu', 'forward_gpu', 'backward')):
            cls.graph_kernel = None
        elif cls.__dict__.get('graph_kernel') is not None:
            _take_derivative_rule(cls)

    def graph_kernel_params(self, inputs):
        """The parameters of :attr:`graph_kernel` for a call on ``inputs``
        (arrays): a dict of its declared parameters, or None where this call
        must run :meth:`forward` instead. Inputs that :meth:`forward` would
        reject are rejected here, with its errors; for a graph kernel that
        checks its inputs this runs before the type check, and inputs that
        check may reject give None."""
        return {}

    @property
    def label(self):
        """The name of the op, for messages (the class name by default)."""
        return type(self).__name__

    @property
    def local_function_hooks(self):
        if self._local_function_hooks is None:
            import collections
            self._local_function_hooks = collections.OrderedDict()
        return self._local_function_hooks

    @property
    def output_data(self):
        """The outputs' arrays, from :meth:`retain_outputs`."""
        if self._retained_output_data is None:
            raise RuntimeError('{}: output data is not retained'.format(
                self.label))
        out = [None] * len(self.outputs)
        for i, d in zip(self._output_indexes_to_retain,
                        self._retained_output_data):
            out[i] = d
        return tuple(out)

    # -- forward ---------------------------------------------------------

    def apply(self, inputs):
        """Compute the outputs and, if needed, record this node in the graph.

        Args:
            inputs: Variables or arrays.

        Returns:
            A tuple of Variables.
        """
        input_vars = []
        in_data = []
        requires_grad = False
        for x in inputs:
            if not isinstance(x, Variable):
                x = self._as_input_variable(len(input_vars), x)
            if x._requires_grad:
                requires_grad = True
            input_vars.append(x)
            in_data.append(x._data)
        in_data = tuple(in_data)
        t0 = type(in_data[0]) if in_data else None
        # Whether every input is an array of the type t0: only such calls
        # may go to a graph kernel.
        uniform = True
        for x in in_data:
            if type(x) is not t0:
                unified = _host_arrays_as_one_type(in_data)
                if unified is None:
                    _raise_device_mismatch(self.label, in_data)
                    uniform = False
                else:
                    in_data = unified
                    t0 = type(in_data[0])
                break

        # The thread's overrides are read once, and only when there are any.
        local = _config_local.__dict__
        if local:
            type_check = local.get('type_check', _config_global['type_check'])
            debug = local.get('debug', _config_global['debug'])
            enable_backprop = local.get('enable_backprop',
                                        _config_global['enable_backprop'])
        else:
            type_check = _config_global['type_check']
            debug = _config_global['debug']
            enable_backprop = _config_global['enable_backprop']
        hooks = _hooks_state.__dict__.get('hooks')
        if self._local_function_hooks:
            hooks = dict(hooks or ())
            hooks.update(self._local_function_hooks)
        record = requires_grad and enable_backprop

        try:
            graph = _graphs[t0]
        except KeyError:
            graph = _graph_for_array(in_data[0]) if in_data else None
        if graph is not None and record and uniform and not hooks and \
                self.graph_kernel is not None:
            outputs, type_check = self._apply_graph_kernel(
                graph, input_vars, in_data, type_check, debug)
            if outputs is not None:
                return outputs

        if type_check:
            self._check_data_type_forward(in_data)
        if hooks:
            for hook in hooks.values():
                hook.forward_preprocess(self, in_data)

        outputs = self.forward(in_data)
        if type(outputs) is not tuple:
            raise TypeError('{}.forward must return a tuple of arrays, got {}'
                            .format(self.label, type(outputs).__name__))
        for y in outputs:
            if type(y) is not t0:
                outputs = self._fix_outputs(outputs, in_data)
                break

        if hooks:
            for hook in hooks.values():
                hook.forward_postprocess(self, in_data)

        if debug:
            self._check_nan_in_outputs(outputs, 'forward')

        if not in_data:
            # No input whose type the outputs were checked against.
            ret = tuple([Variable(y, requires_grad=False) for y in outputs])
        else:
            vgraph = _CORE_GRAPH if graph is None else graph._variable_graph
            if not record:
                # No graph: drop what forward asked to keep for backward.
                self._input_indexes_to_retain = None
                self._output_indexes_to_retain = None
                ret = vgraph.outputs(outputs, requires_grad)
            else:
                ret = vgraph.record(self, input_vars, in_data, outputs)
        if hooks:
            for hook in hooks.values():
                # Hooks written for Chainer may lack this extension.
                result = getattr(hook, 'forward_result', None)
                if result is not None:
                    result(self, tuple(input_vars), ret)
        return ret

    def _apply_graph_kernel(self, graph, input_vars, in_data, type_check,
                            debug):
        """Offer the call to the graph kernel of this op that ``graph``'s
        backend implements, which computes the outputs and records their
        backward (the op's derivative rule) itself.

        Returns ``(outputs, type_check)``: outputs None where the backend
        has no such kernel or it declined the call, and whether the type
        check still has to run. A kernel declared to check its inputs
        declines the calls the type check would reject, so the check runs
        only when it declines.
        """
        name = self.graph_kernel
        t = type(in_data[0])
        try:
            fn = _graph_kernel_cache[name, t]
        except KeyError:
            fn = _graph_kernel(name, t)
        if type_check and (fn is None or name not in _checking_kernels):
            self._check_data_type_forward(in_data)
            type_check = False
        if fn is None:
            return None, type_check
        params = self.graph_kernel_params(in_data)
        if params is None:
            return None, type_check
        g_in = []
        for x in input_vars:
            g = x._garray
            g_in.append(x._graph_input() if g is None else g)
        outputs = fn(self.label, g_in, **params) if params else \
            fn(self.label, g_in)
        if outputs is NotImplemented:
            return None, type_check
        if type(outputs) is not tuple:
            self._bad_graph_kernel_result(graph, outputs)
        if debug:
            self._check_nan_in_outputs(outputs, 'forward')
        if len(outputs) == 1:
            return (_from_graph(graph, outputs[0]),), type_check
        return tuple([_from_graph(graph, y) for y in outputs]), type_check

    def _bad_graph_kernel_result(self, graph, outputs):
        raise TypeError(
            '{}: graph kernel {!r} of backend {!r} returned {}; expected a '
            'tuple of arrays, or NotImplemented to decline'.format(
                self.label, self.graph_kernel, graph.backend_name,
                type(outputs).__name__))

    def _backward_in_graph(self, target_input_indexes, grad_outputs):
        """The backward the backend's graph calls: arrays in and out."""
        graph = self._graph
        gys = tuple([None if g is None else Variable._from_graph(graph, g)
                     for g in grad_outputs])
        hooks = _function_hooks.get_function_hooks()
        if self._local_function_hooks:
            hooks = dict(hooks)
            hooks.update(self._local_function_hooks)
        if hooks:
            in_data = tuple([None] * len(self.inputs))
            if self._retained_input_data is not None:
                in_data = list(in_data)
                for i, d in zip(self._input_indexes_to_retain,
                                self._retained_input_data):
                    in_data[i] = d
                in_data = tuple(in_data)
            out_grad = tuple([None if g is None else g._data for g in gys])
            for hook in hooks.values():
                hook.backward_preprocess(self, in_data, out_grad)
        gxs = self.backward(target_input_indexes, gys)
        if hooks:
            for hook in hooks.values():
                hook.backward_postprocess(self, in_data, out_grad)
        if not isinstance(gxs, (tuple, list)):
            raise TypeError('{}.backward must return a tuple, got {}'.format(
                self.label, type(gxs).__name__))
        if len(gxs) != len(target_input_indexes):
            if len(gxs) == len(self.inputs):
                gxs = [gxs[i] for i in target_input_indexes]
            else:
                raise ValueError(
                    '{}.backward returned {} gradients for {} targets'.format(
                        self.label, len(gxs), len(target_input_indexes)))
        out = []
        for i, gx in zip(target_input_indexes, gxs):
            if gx is None:
                out.append(None)
                continue
            _backprop._check_grad(self, i, self.inputs[i], gx)
            out.append(gx._data if gx._garray is None else gx._garray)
        if _config_local.__dict__.get('debug', _config_global['debug']):
            _backprop._check_nan(self, gxs)
        return out

    def _as_input_variable(self, i, x):
        try:
            return as_variable(x)
        except TypeError:
            raise TypeError(
                '{}: input {} must be a Variable or an array of an installed '
                'backend, got {}'.format(self.label, i, type(x).__name__)
            ) from None

    def _fix_outputs(self, outputs, in_data):
        """Outputs on the inputs' device, or a clear error.

        NumPy reductions return scalars, and a reference kernel run on a
        backend whose arrays subclass ``numpy.ndarray`` returns plain
        ndarrays: both are brought back to the input's array type. Anything
        else on another device is the kernel's bug, reported as such.
        """
        t0 = type(in_data[0]) if in_data else None
        fixed = []
        for y in outputs:
            if type(y) is not t0 and isinstance(y, numpy.generic):
                y = numpy.asarray(y)
            if t0 is not None and type(y) is not t0:
                if type(y) is numpy.ndarray and \
                        issubclass(t0, numpy.ndarray):
                    y = y.view(t0)
                else:
                    try:
                        backend = host.backend_for_array(y)
                    except TypeError:
                        raise TypeError(
                            '{}.forward returned {} where an array was '
                            'expected'.format(self.label, type(y).__name__)
                        ) from None
                    expected = host.backend_for_array(in_data[0])
                    if backend is not expected:
                        raise TypeError(
                            '{}.forward returned an array of backend {!r} '
                            'for inputs of backend {!r}'.format(
                                self.label, backend.name, expected.name))
            fixed.append(y)
        return tuple(fixed)

    def _check_nan_in_outputs(self, outputs, where):
        for i, y in enumerate(outputs):
            if y is None or y.dtype.kind != 'f':
                continue
            xp = host.device_from_array(y).xp
            if not bool(xp.isfinite(y).all()):
                what = 'NaN' if bool(xp.isnan(y).any()) else 'Inf'
                raise RuntimeError(
                    '{} is detected on {} computation of {} (output {}); '
                    'config.debug is on'.format(what, where, self.label, i))

    def _check_data_type_forward(self, in_data):
        if type(self).check_type_forward is FunctionNode.check_type_forward:
            return
        state = _type_check_state
        prev = getattr(state, 'light', False)
        state.light = True
        try:
            self.check_type_forward(type_check.get_types(
                in_data, 'in_types', False, light=True))
            return
        except type_check._LightFailure:
            pass
        except (AttributeError, IndexError, TypeError, ValueError):
            # A malformed input (e.g. None) is reported by the full check.
            pass
        finally:
            state.light = prev
        try:
            # Inside the try: a None input is reported as naming the op too.
            in_types = type_check.get_types(in_data, 'in_types', False)
            self.check_type_forward(in_types)
        except type_check.InvalidType as e:
            msg = 'Invalid operation is performed in: {} (Forward)\n\n{}'\
                .format(self.label, e)
            raise type_check.InvalidType(e.expect, e.actual, msg=msg) \
                from None

    def check_type_forward(self, in_types):
        """Check the input types (override; default checks nothing)."""

    def forward(self, inputs):
        """Compute the outputs from input arrays (override).

        The default runs :meth:`forward_gpu` for arrays of a GPU device and
        :meth:`forward_cpu` otherwise, as Chainer does; arrays of a CPU
        backend that are not NumPy arrays reach ``forward_cpu`` as NumPy
        views and its outputs go back to that backend.

        Returns:
            A tuple of arrays.
        """
        return call_cpu_or_gpu(self.forward_cpu, self.forward_gpu, inputs)

    def forward_cpu(self, inputs):
        """:meth:`forward` on CPU arrays (override this or forward)."""
        raise NotImplementedError(
            '{} implements neither forward nor forward_cpu'.format(
                self.label))

    def forward_gpu(self, inputs):
        """:meth:`forward` on GPU arrays (override this or forward)."""
        raise NotImplementedError(
            '{} implements neither forward nor forward_gpu'.format(
                self.label))

    def retain_inputs(self, indexes):
        """Keep the inputs at ``indexes`` for :meth:`backward`."""
        self._input_indexes_to_retain = tuple(indexes)

    def retain_outputs(self, indexes):
        """Keep the outputs at ``indexes`` for :meth:`backward`."""
        self._output_indexes_to_retain = tuple(indexes)

    # -- backward --------------------------------------------------------

    def backward(self, target_input_indexes, grad_outputs):
        """Gradients of the inputs at ``target_input_indexes``.

        Args:
            target_input_indexes (tuple of int): the inputs that need a grad.
            grad_outputs (tuple of Variable or None): output gradients.

        Returns:
            A tuple of Variables (or None), one per target index (or one per
            input).
        """
        return (None,) * len(target_input_indexes)

    def backward_accumulate(self, target_input_indexes, grad_outputs,
                            grad_inputs):
        """:meth:`backward`, with the gradients so far added in."""
        gxs = self.backward(target_input_indexes, grad_outputs)
        if len(gxs) == len(self.inputs) and \
                len(self.inputs) != len(target_input_indexes):
            gxs = tuple(gxs[i] for i in target_input_indexes)
        out = []
        for gx, g in zip(gxs, grad_inputs):
            if gx is None:
                out.append(g)
            elif g is None:
                out.append(gx)
            else:
                out.append(gx + g)
        return tuple(out)

    def _released_error(self):
        return RuntimeError(
            '{}: the arrays it kept for backward were freed after the first '
            'backward pass through this graph; run the forward pass again, '
            'or pass retain_graph=True to the first backward()'.format(
                self.label))

    def get_retained_inputs(self):
        """The retained inputs as Variables (graph-connected)."""
        if self._input_indexes_to_retain is None:
            return ()
        if self._released:
            raise self._released_error()
        return self._variable_graph.retained_inputs(self)

    def get_retained_outputs(self):
        """The retained outputs as Variables (graph-connected)."""
        if self._output_indexes_to_retain is None:
            return ()
        if self._released:
            raise self._released_error()
        return self._variable_graph.retained_outputs(self)

    def _release(self):
        if self._retained_input_data is not None or \
                self._retained_output_data is not None:
            self._retained_input_data = None
            self._retained_output_data = None
            self._released = True

    def unchain(self):
        """Remove this node from the graph."""
        for ref in self.outputs or ():
            node = ref()
            if node is not None:
                node.unchain()
        self.inputs = None

    def add_hook(self, hook, name=None):
        if name is None:
            name = hook.name
        if name in self.local_function_hooks:
            raise KeyError('hook {} already exists'.format(name))
        self.local_function_hooks[name] = hook
        hook.added(self)

    def delete_hook(self, name):
        if name not in self.local_function_hooks:
            raise KeyError('no hook named {}'.format(name))
        self.local_function_hooks[name].deleted(self)
        del self.local_function_hooks[name]


def _take_derivative_rule(cls):
    """Give ``cls`` the backward and the retained arrays of its graph
    kernel's derivative rule, which is the op's only definition of them."""
    spec = _graph_kernel_specs[cls.graph_kernel]
    rule = spec.derivative
    if rule is None or rule.fused:
        return
    if 'backward' in cls.__dict__:
        raise TypeError(
            '{}: graph kernel {!r} declares a derivative rule, so the class '
            'must not define backward as well'.format(
                cls.__name__, cls.graph_kernel))
    cls._input_indexes_to_retain = rule.retain_inputs or None
    cls._output_indexes_to_retain = rule.retain_outputs or None
    evaluate = _rules.evaluator(rule, spec.params)

    def backward(self, target_input_indexes, grad_outputs):
        for g in grad_outputs:
            if g is None:
                grad_outputs = _zero_filled(self, grad_outputs)
                break
        return evaluate(self, target_input_indexes, grad_outputs)

    backward.__doc__ = 'The derivative rule of {!r}:\n\n{}'.format(
        cls.graph_kernel, rule.text)
    cls.backward = backward


def _zero_filled(node, grad_outputs):
    """The output gradients with zeros where none reached an output, as a
    derivative rule reads them."""
    xp = host.device_from_array(next(
        g for g in grad_outputs if g is not None)._data).xp
    out = []
    for i, g in enumerate(grad_outputs):
        if g is None:
            ref = node.outputs[i]()
            if ref is None:
                raise RuntimeError(
                    '{}: output {} got no gradient and is gone, so its '
                    'shape for a zero gradient is unknown; keep the output '
                    'variable alive until backward'.format(node.label, i))
            g = Variable(xp.zeros(ref.shape, ref.dtype), requires_grad=False)
        out.append(g)
    return tuple(out)


def grad(outputs, inputs, grad_outputs=None, grad_inputs=None, set_grad=False,
         retain_grad=False, enable_double_backprop=False, loss_scale=None,
         retain_graph=None):
    """Gradients of ``outputs`` with respect to ``inputs``.

    Unlike :meth:`Variable.backward` this does not touch the ``grad`` of any
    variable (unless ``set_grad``) and returns the gradients instead. Only
    the part of the graph between ``inputs`` and ``outputs`` is walked.

    Args:
        outputs (tuple or list of Variable): the variables to differentiate.
        inputs (tuple or list of Variable): the variables to differentiate
            by.
        grad_outputs (tuple or list): gradients of the outputs (None, or a
            None entry: ones of the output's shape).
        grad_inputs (tuple or list): initial gradients of the inputs; the
            results are accumulated onto them.
        set_grad (bool): also store the results in the inputs' ``grad_var``.
        retain_grad (bool): keep intermediate gradients.
        enable_double_backprop (bool): make the results differentiable.
        loss_scale (float): scale the output gradients by this factor.
        retain_graph (bool): keep the arrays retained for backward so the
            graph can be walked again (None: ``config.retain_graph``, True
            unless set, as in Chainer).

    Returns:
        list of Variable (or None where an input does not affect the outputs).
    """
    for name, seq in (('outputs', outputs), ('inputs', inputs)):
        if not isinstance(seq, (tuple, list)):
            raise TypeError('grad: {} must be a tuple or list of Variables, '
                            'got {}'.format(name, type(seq).__name__))
        for v in seq:
            if not isinstance(v, Variable):
                raise TypeError('grad: every element of {} must be a '
                                'Variable, got {}'.format(
                                    name, type(v).__name__))
    for name, seq, ref in (('grad_outputs', grad_outputs, outputs),
                           ('grad_inputs', grad_inputs, inputs)):
        if seq is None:
            continue
        if not isinstance(seq, (tuple, list)):
            raise TypeError('grad: {} must be None, a tuple or a list, got {}'
                            .format(name, type(seq).__name__))
        if len(seq) != len(ref):
            raise ValueError('grad: {} {} but {} {}'.format(
                len(ref), 'outputs' if ref is outputs else 'inputs',
                len(seq), name))
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    gys = []
    for y, gy in zip(outputs, grad_outputs):
        if gy is None:
            gy = Variable(host.device_from_array(y._data).xp.ones_like(
                y._data), requires_grad=False)
        elif not isinstance(gy, Variable):
            gy = Variable(gy, requires_grad=False)
        if loss_scale is not None:
            gy = gy * loss_scale
        gys.append(gy)
    gis = None
    if grad_inputs is not None:
        gis = [gi if gi is None or isinstance(gi, Variable)
               else Variable(gi, requires_grad=False) for gi in grad_inputs]
    result = _variable_graphs.of_variables(outputs).gradients(
        outputs, inputs, gys, gis, retain_grad, enable_double_backprop,
        retain_graph, loss_scale)
    if set_grad:
        for x, gx in zip(inputs, result):
            x.grad_var = gx
    return result
