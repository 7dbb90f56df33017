"""Variables: arrays that remember how they were computed."""
import copy as copy_module
import warnings
import weakref

import numpy

from chainer_core._runtime.host import host
from chainer_core._runtime.graphs import graph_for_array as _graph_for_array
from chainer_core._runtime.graphs import split_for as _split_for
from chainer_core._runtime.graphs import _splits
from chainer_core import _variable_graphs
from chainer_core._variable_graphs import CORE as _CORE_GRAPH
from chainer_core.backends import _chainer
from chainer_core.configuration import get_dtype


def _check_array(data, where):
    if type(data) is numpy.ndarray or data is None:
        return
    try:
        host.backend_for_array(data)
    except TypeError:
        raise TypeError(
            '{}: expected an array of an installed backend (numpy.ndarray, '
            '...), got {}'.format(where, type(data).__name__)) from None


class VariableNode:
    """The node of a variable in the computational graph.

    The graph holds nodes, not variables: a variable can be freed while the
    graph still needs its shape and dtype. A node keeps its array only when
    asked (:meth:`retain_data`).
    """

    __slots__ = ('_variable', 'creator_node', 'data', 'name', 'requires_grad',
                 'rank', 'shape', 'dtype', '__weakref__')

    def __init__(self, variable, name, creator_node=None):
        self._variable = weakref.ref(variable)
        self.creator_node = creator_node
        self.data = None
        self.name = name
        self.requires_grad = variable._requires_grad
        self.rank = 0 if creator_node is None else creator_node.rank + 1
        array = variable._data
        if array is None:
            self.shape = self.dtype = None
        else:
            self.shape = array.shape
            self.dtype = array.dtype

    @property
    def creator(self):
        return self.creator_node

    @property
    def ndim(self):
        return None if self.shape is None else len(self.shape)

    @property
    def grad_var(self):
        """The gradient of this node's variable (None once it is freed)."""
        var = self._variable()
        return None if var is None else var.grad_var

    @property
    def grad(self):
        var = self._variable()
        return None if var is None else var.grad

    def set_creator_node(self, creator_node):
        # None makes the node a root, as ``Variable.creator_node = None``
        # does in Chainer.
        self.creator_node = creator_node
        self.rank = 0 if creator_node is None else creator_node.rank + 1

    set_creator = set_creator_node

    def get_variable(self):
        """The variable of this node, recreated from retained data if gone."""
        var = self._variable()
        if var is not None:
            return var
        var = Variable(self.data, name=self.name,
                       requires_grad=self.requires_grad)
        var._node = self
        self._variable = weakref.ref(var)
        return var

    def get_variable_or_none(self):
        return self._variable()

    def retain_data(self):
        var = self._variable()
        if var is None:
            raise RuntimeError('cannot retain the data of a freed variable')
        self.data = var._data

    def unchain(self):
        self.creator_node = None
        self.rank = 0

    @property
    def label(self):
        if self.shape == ():
            return str(self.dtype)
        return '({}), {}'.format(', '.join(map(str, self.shape)), self.dtype)


def variable_from_graph(graph, y, requires_grad=False):
    """A variable for an array of ``graph``'s backend: in the graph when
    ``y`` is a graph array, else a plain one (``requires_grad`` as given, as
    a leaf)."""
    v = _new_object(Variable)
    v._graph = graph
    try:
        split = _splits[graph]
    except KeyError:
        split = _split_for(graph)
    g, v._data = split(y)
    if g is None:
        v._requires_grad = requires_grad
    else:
        v._garray = g
        v._requires_grad = True
    return v


_new_object = object.__new__


class Variable:
    """An array with a gradient, recording the ops applied to it.

    Args:
        data: an array of an installed backend, or None.
        name (str): a name for messages and graph dumps.
        grad: the initial gradient array.
        requires_grad (bool): whether gradients flow to this variable.
    """

    # Makes numpy defer ``ndarray <op> Variable`` to Variable's operators.
    __array_priority__ = 200

    # Set on leaves by backward(loss_scale=...); optimizers divide it out.
    _loss_scale = None

    # For arrays of a backend that records autograd itself (backend_api
    # .graph): its Graph, and the view of the data that carries this
    # variable's place in that graph. A leaf joins the graph lazily, when an
    # op records it (``_graph_input``); until then its gradient stays in
    # ``_grad_var``. ``_data`` is always outside the graph, so kernels and
    # user code never record by accident.
    _graph = None
    _garray = None
    # Set by __init__; class defaults let variable_from_graph, which runs
    # per op, skip them.
    _node = None
    _name = None
    _grad_var = None

    def __init__(self, data=None, *, name=None, grad=None, requires_grad=True,
                 **kwargs):
        if kwargs:
            raise TypeError('Variable: unexpected keyword arguments {}'.format(
                ', '.join(sorted(kwargs))))
        if type(data) is not numpy.ndarray and data is not None:
            _check_array(data, 'Variable(data=...)')
            graph = _graph_for_array(data)
            if graph is not None:
                self._graph = graph
                if graph.requires_grad(data):
                    if requires_grad:
                        self._garray = data
                    data = graph.detach(data)
        self._data = data
        self._requires_grad = requires_grad
        self._node = None
        self._name = name
        self._grad_var = None
        if grad is not None:
            self.grad = grad

    _from_graph = staticmethod(variable_from_graph)

    def _graph_input(self):
        """What an op recorded in the backend's graph takes for this
        variable: its graph array (a leaf joins the graph here, taking
        along a gradient set before), or the plain data."""
        g = self._garray
        if g is not None:
            return g
        data = self._data
        if not self._requires_grad or data is None or data.dtype.kind != 'f':
            return data
        graph = self._graph
        g = self._garray = graph.leaf(data)
        gv = self._grad_var
        if gv is not None:
            self._grad_var = None
            graph.set_grad(g, gv._garray if gv._garray is not None
                           else gv._data)
        if isinstance(self, Parameter):
            _variable_graphs.graph_parameters[id(self)] = self
        return g

    def _graph_of(self):
        """The graph holding this variable's place (see
        :mod:`chainer_core._variable_graphs`): a backend's, once an op
        recorded the variable there, else the core's."""
        if self._garray is None:
            return _CORE_GRAPH
        return self._graph._variable_graph

    def _grad_array(self, keep_graph=False):
        """The gradient array (with its graph if ``keep_graph``), or None."""
        return self._graph_of().grad(self, keep_graph)

    def _leave_graph(self):
        """Become a leaf outside the backend's graph, keeping the
        gradient."""
        if self._garray is not None:
            g = self._grad_array(keep_graph=True)
            self._garray = None
            self._grad_var = None if g is None else Variable(
                g, requires_grad=False)

    # -- identity and repr -------------------------------------------------

    def _display_prefix(self):
        return 'variable {}'.format(self.name) if self.name else 'variable'

    def __repr__(self):
        prefix = self._display_prefix()
        if self._data is None:
            body = 'None'
        else:
            arr = _to_numpy_for_display(self._data)
            if arr.size > 0 or arr.shape == (0,):
                # prefix: continuation lines align under the first element.
                body = numpy.array2string(arr, separator=', ',
                                          prefix=prefix + '(')
            else:
                # '[]' alone would hide shapes such as (2, 0).
                body = '[], shape={!r}'.format(arr.shape)
        return '{}({})'.format(prefix, body)

    def __str__(self):
        prefix = self._display_prefix()
        if self._data is None:
            body = 'None'
        else:
            body = numpy.array2string(_to_numpy_for_display(self._data),
                                      separator=' ', prefix=prefix + '(')
        return '{}({})'.format(prefix, body)

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, n):
        self._name = n
        if self._node is not None:
            self._node.name = n

    @property
    def label(self):
        return self.node.label

    # -- graph -------------------------------------------------------------

    @property
    def node(self):
        return self._graph_of().node(self)

    @property
    def creator_node(self):
        return self._graph_of().creator_node(self)

    @creator_node.setter
    def creator_node(self, func):
        self.node.set_creator_node(func)

    @property
    def creator(self):
        return self.creator_node

    @creator.setter
    def creator(self, func):
        self.creator_node = func

    def set_creator_node(self, fnode):
        self.node.set_creator_node(fnode)

    set_creator = set_creator_node

    @property
    def rank(self):
        return self._graph_of().rank(self)

    @property
    def requires_grad(self):
        return self._requires_grad

    def retain_data(self):
        self.node.data = self._data

    # -- data --------------------------------------------------------------

    @property
    def array(self):
        return self._data

    @array.setter
    def array(self, d):
        if type(d) is not numpy.ndarray:
            _check_array(d, 'Variable.array')
        if self._graph is not None or (
                type(d) is not numpy.ndarray and d is not None):
            self._leave_graph()
            graph = self._graph = None if d is None else \
                _graph_for_array(d)
            if graph is not None and graph.requires_grad(d):
                d = graph.detach(d)
        self._data = d
        node = self._node
        if node is not None:
            if node.data is not None:
                node.data = d
            if d is not None:
                node.shape, node.dtype = d.shape, d.dtype

    data = array

    @property
    def grad_var(self):
        return self._graph_of().grad_var(self)

    @grad_var.setter
    def grad_var(self, g):
        if g is not None:
            if not isinstance(g, Variable):
                raise TypeError('grad_var must be a Variable or None, got {}'
                                .format(type(g).__name__))
            self._check_grad(g._data, 'Variable.grad_var')
        self._graph_of().set_grad_var(self, g)

    @property
    def grad(self):
        return self._graph_of().grad(self)

    @grad.setter
    def grad(self, g):
        if g is not None:
            self._check_grad(g, 'Variable.grad')
        self._graph_of().set_grad(self, g)

    def _check_grad(self, g, where):
        """A gradient must be an array like the data (Chainer's errors)."""
        _check_array(g, where)
        data = self._data
        if data is None or g is None:
            return
        if type(g) is not type(data):
            raise TypeError('{}: the gradient is a {} but the data is a {}'
                            .format(where, type(g).__name__,
                                    type(data).__name__))
        if g.dtype != data.dtype:
            raise TypeError('{}: dtype of data and grad mismatch: grad {} '
                            '!= data {}'.format(where, g.dtype, data.dtype))
        if g.shape != data.shape:
            raise ValueError('{}: shape of data and grad mismatch: grad {} '
                             '!= data {}'.format(where, g.shape, data.shape))

    @property
    def shape(self):
        return self._data.shape

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def size(self):
        return self._data.size

    @property
    def dtype(self):
        return self._data.dtype

    def __len__(self):
        return len(self._data)

    @property
    def T(self):
        from chainer_core.functions.array.transpose import transpose
        return transpose(self)

    def reshape(self, *shape):
        from chainer_core.functions.array.reshape import reshape
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return reshape(self, shape)

    def transpose(self, *axes):
        from chainer_core.functions.array.transpose import transpose
        if len(axes) == 1 and (axes[0] is None
                               or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        return transpose(self, axes or None)

    def mean(self, axis=None, *, weights=None, keepdims=False):
        """The (weighted) mean over ``axis`` (see
        :func:`chainer_core.functions.average`)."""
        from chainer_core.functions.math.average import average
        return average(self, axis, weights, keepdims)

    def item(self):
        return self._data.item()

    @property
    def layout(self):
        """The memory layout of the array: None, the standard layout (the
        only one this project's devices use)."""
        return None

    @property
    def raw_array(self):
        """The array as stored, which with the standard layout is
        :attr:`array`."""
        return self.array

    def as_layout(self, layout):
        """This variable in the memory ``layout``; only the standard layout
        (None) exists, so this is the variable itself."""
        if layout is not None:
            raise ValueError('as_layout: unknown memory layout {!r}; only '
                             'the standard layout (None) is supported'
                             .format(layout))
        return self

    @property
    def xp(self):
        return self.device.xp

    @property
    def device(self):
        if self._data is None:
            return getattr(self, '_initial_device', None) or \
                host.parse_spec('@numpy')
        return host.device_from_array(self._data)

    def to_device(self, device):
        """Move the data and the gradient to ``device`` (in place)."""
        from chainer_core._runtime.host import get_device
        device = get_device(device)
        if self._data is not None:
            self.array = device.send(self._data)
        else:
            self._initial_device = device
        gv = self._grad_var
        if gv is not None:
            gv.array = device.send(gv._data)

    def to_cpu(self):
        self.to_device('@numpy')

    def to_intel64(self):
        """Move to the ``@intel64`` device (the chainer-mkldnn plugin)."""
        self.to_device(_chainer.INTEL64)

    def to_chx(self):
        """Move to ``native:0``, this project's counterpart of ChainerX
        (the chainer-native plugin)."""
        self.to_device(_chainer.CHAINERX)

    def from_chx(self):
        """Move back from ``native:0`` to the CPU (NumPy)."""
        if self._data is not None and _chainer.is_chainerx(self.device):
            self.to_device('@numpy')

    @property
    def chx_array(self):
        """The array on ``native:0`` (ChainerX's place in this project)."""
        if self._data is None or not _chainer.is_chainerx(self.device):
            raise ValueError('chx_array: the variable is not on native:0 '
                             '(call to_chx() first)')
        return self.array

    def to_gpu(self, device=None):
        self.to_device(_chainer.gpu(device))

    def copydata(self, var):
        """Copy the array of ``var`` into this variable's array.

        An uninitialized parameter on either side is first initialized with
        the shape of the other; if both are uninitialized nothing happens.
        """
        src = var._data if isinstance(var, Variable) else var
        dst = self._data
        if src is None:
            if dst is None:
                return
            var.initialize(dst.shape)
            src = var._data
        elif dst is None:
            if not isinstance(self, Parameter):
                self.array = host.device_from_array(src).xp.array(
                    src, copy=True)
                return
            self.initialize(src.shape)
            dst = self._data
        if src.shape != dst.shape:
            raise ValueError('copydata: shapes differ: {} vs {}'.format(
                dst.shape, src.shape))
        dst[...] = self.device.send(src)

    # -- gradients ---------------------------------------------------------

    def cleargrad(self):
        """Set the gradient to None."""
        self._graph_of().set_grad(self, None)

    def zerograd(self):
        """Set the gradient to zeros (an existing gradient array is reused).

        .. deprecated:: Chainer v1.15
           Use :meth:`cleargrad`, which is cheaper.
        """
        warnings.warn('Variable.zerograd is deprecated. Use '
                      'Variable.cleargrad instead.', DeprecationWarning,
                      stacklevel=2)
        if self._data is None:
            return
        self._graph_of().zero_grad(self)

    def addgrad(self, var):
        """Add the gradient of ``var`` to this variable's gradient."""
        if not isinstance(var, Variable):
            raise TypeError('addgrad takes a Variable, got {}'.format(
                type(var).__name__))
        src = var._grad_array()
        if src is None:
            return
        if self._data is None:
            if not isinstance(self, Parameter):
                raise RuntimeError('addgrad: this variable has no data')
            self.initialize(var.shape)
        g = self.device.send(src)
        mine = self._grad_array()
        self.grad = g.copy() if mine is None else mine + g

    def backward(self, retain_grad=False, enable_double_backprop=False,
                 loss_scale=None, retain_graph=None):
        """Compute gradients of this variable with respect to the graph.

        Leaf variables that require gradients get (accumulated) ``grad``.
        A variable of more than one element needs its ``grad`` set first.

        Args:
            retain_grad (bool): keep the gradients of intermediate variables.
            enable_double_backprop (bool): record the graph of the gradient
                computation, so gradients can be differentiated again.
            loss_scale (float): scale the initial gradient by this factor
                (optimizers divide it out again).
            retain_graph (bool): keep the arrays retained for backward so
                the graph can be backpropagated again (None:
                ``config.retain_graph``, True unless set, as in Chainer);
                False frees them during the pass.
        """
        graph = self._graph_of()
        gv = graph.grad_var(self)
        if gv is None:
            if self._data.size != 1:
                raise ValueError(
                    'backward: the variable {}has shape {}; backward() '
                    'without a gradient needs a single element. Set '
                    '`.grad` to an array of shape {} first, or reduce it '
                    '(F.sum).'.format(
                        '' if self.name is None else repr(self.name) + ' ',
                        self._data.shape, self._data.shape))
            if self._data.ndim != 0:
                warnings.warn(
                    'Treating a variable with only one element as a scalar '
                    'in Variable.backward is deprecated; a scalar variable '
                    'must be 0-dimensional (apply F.squeeze, or set grad).',
                    DeprecationWarning, stacklevel=2)
            ones = host.device_from_array(self._data).xp.ones_like(self._data)
            gv = Variable(ones, requires_grad=False)
        if loss_scale is not None:
            gv = gv * loss_scale
        graph.backward(self, gv, retain_grad, enable_double_backprop,
                       retain_graph, loss_scale)

    def unchain(self):
        """Cut the link to the creator: this becomes a leaf."""
        self._graph_of().unchain(self)

    def unchain_backward(self):
        """Cut every link of the graph behind this variable."""
        self._graph_of().unchain_backward(self)

    # -- misc ---------------------------------------------------------------

    def summary(self):
        if self.name:
            return '<variable {}>'.format(self.name)
        return '<variable at 0x{:x}>'.format(id(self))

    def debug_print(self):
        return '{}\n- device: {}\n- shape: {}\n- dtype: {}\n- grad: {}'.format(
            self.summary(), self.device, self.shape, self.dtype,
            'None' if self.grad is None else 'shape {}'.format(
                self.grad.shape))

    def _state_outside_graph(self):
        """``__dict__`` with the backend's graph left out: the gradient as
        ``_grad_var``, no graph array and no Graph object."""
        state = self.__dict__.copy()
        state['_node'] = None
        if '_graph' in state:
            del state['_graph']
            ga = state.pop('_garray', None)
            if ga is not None:
                g = self._grad_array()
                state['_grad_var'] = None if g is None else Variable(
                    g, requires_grad=False)
        return state

    def _restore_graph(self):
        data = self._data
        if data is not None and type(data) is not numpy.ndarray:
            graph = _graph_for_array(data)
            if graph is not None:
                self._graph = graph

    def __copy__(self):
        new = type(self).__new__(type(self))
        new.__dict__.update(self._state_outside_graph())
        new._restore_graph()
        return new

    def __deepcopy__(self, memo):
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        for k, v in self._state_outside_graph().items():
            new.__dict__[k] = None if k == '_node' else \
                copy_module.deepcopy(v, memo)
        new._restore_graph()
        return new

    def __getstate__(self):
        return self._state_outside_graph()

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._restore_graph()

    def _comparison_error(self, op):
        # A TypeError, as in Chainer: comparisons are not differentiable.
        raise TypeError('Variables do not support the {} operator; compare '
                        'the arrays instead (x.array {} y.array)'.format(
                            op, op))

    def __eq__(self, other):
        self._comparison_error('==')

    def __ne__(self, other):
        self._comparison_error('!=')

    def __lt__(self, other):
        self._comparison_error('<')

    def __le__(self, other):
        self._comparison_error('<=')

    def __gt__(self, other):
        self._comparison_error('>')

    def __ge__(self, other):
        self._comparison_error('>=')

    def __bool__(self):
        raise TypeError('Variables cannot be evaluated as Python bool; use '
                        'the array (x.array)')

    __hash__ = object.__hash__


# Parameters in a backend's graph, for backward(loss_scale=...): their
# gradients are accumulated by the backend, so they are marked afterwards.
# Keyed by id: a WeakSet compares members with ==, which Variables refuse.


def _to_numpy_for_display(array):
    if isinstance(array, numpy.ndarray):
        return array
    return host.parse_spec('@numpy').send(array)


def variable_repr(var):
    """``repr(var)``: Chainer's display of a Variable (comma-separated)."""
    return Variable.__repr__(var)


def variable_str(var):
    """``str(var)``: Chainer's display of a Variable (space-separated)."""
    return Variable.__str__(var)


def as_variable(obj):
    """``obj`` if it is a Variable, else a Variable wrapping the array.

    A wrapped array does not require gradients.
    """
    if isinstance(obj, Variable):
        return obj
    return Variable(obj, requires_grad=False)


def as_array(obj):
    """The array of a Variable, or ``obj`` itself if it is an array."""
    if isinstance(obj, Variable):
        return obj._data
    return obj


class Parameter(Variable):
    """A variable holding a trainable parameter of a link.

    As in Chainer, a parameter has two initializers: one for the data and
    one for the gradient. A parameter made with a shape (or initialized
    later) gets a gradient of NaN until :meth:`cleargrad` (or a backward
    pass after it): forgetting ``cleargrads()`` shows up as NaN instead of
    a silently accumulated gradient. A parameter made from an array has no
    gradient.

    Args:
        initializer: an initializer (callable filling an array), a scalar,
            an array (used as the data, or broadcast into ``shape``), or None
            (NaN).
        shape (int or tuple): the shape; without it the data is allocated
            on the first :meth:`initialize` (lazy shape).
        name (str): the name.
        layout: the memory layout; only the standard one (None) exists.
    """

    _initial_device = None
    _update_rule = None
    _grad_initializer = None

    def __init__(self, initializer=None, shape=None, name=None, *,
                 layout=None):
        from chainer_core import initializers
        if layout is not None:
            raise ValueError('Parameter: unknown memory layout {!r}; only '
                             'the standard layout (None) is supported'
                             .format(layout))
        if initializer is None:
            initializer = initializers.NaN()
        elif numpy.isscalar(initializer):
            initializer = initializers.Constant(initializer)
        if not callable(initializer) and hasattr(initializer, 'shape'):
            if shape is None:
                # The array is the data.
                super().__init__(initializer, name=name)
                self.initializer = initializers.Constant(initializer)
                self.update_rule = None
                return
            initializer = initializers.Constant(initializer)
        super().__init__(None, name=name)
        self.initializer = initializer
        self._grad_initializer = initializers.NaN(
            getattr(initializer, 'dtype', None))
        if shape is not None:
            self.initialize(shape)
        self.update_rule = None

    @property
    def dtype(self):
        if self._data is not None:
            return self._data.dtype
        dtype = getattr(self.initializer, 'dtype', None)
        # An initializer without a dtype fills arrays of config.dtype.
        return get_dtype(dtype)

    @property
    def is_initialized(self):
        return self._data is not None

    def initialize(self, shape):
        """Allocate the data of ``shape`` and fill it with the initializer.

        The gradient is made by the gradient initializer: NaN, zeros after
        :meth:`zerograd`, or none after :meth:`cleargrad`.
        """
        from chainer_core import initializers
        device = self._initial_device or host.parse_spec('@numpy')
        data = initializers.generate_array(self.initializer, shape,
                                           device.xp, device=device)
        # A device whose xp is NumPy but whose arrays are its own type
        # (an ndarray subclass) gets plain ndarrays from xp: send them.
        if not device.is_array_supported(data):
            data = device.send(data)
        grad = None
        if self._grad_initializer is not None:
            grad = initializers.generate_array(
                self._grad_initializer, shape, device.xp, dtype=data.dtype,
                device=device)
            if not device.is_array_supported(grad):
                grad = device.send(grad)
        self.array = data
        self._grad_var = None if grad is None else Variable(
            grad, requires_grad=False)

    @property
    def update_rule(self):
        return self._update_rule

    @update_rule.setter
    def update_rule(self, rule):
        self._update_rule = rule

    def update(self):
        """Update the data with the update rule (optimizers set it)."""
        if self._update_rule is not None:
            self._update_rule.update(self)

    def cleargrad(self):
        self._graph_of().set_grad(self, None)
        if self._data is None:
            self._grad_initializer = None

    def zerograd(self):
        super().zerograd()
        if self._data is None:
            from chainer_core import initializers
            self._grad_initializer = initializers.Zero(
                getattr(self.initializer, 'dtype', None))

    def to_device(self, device):
        from chainer_core._runtime.host import get_device
        device = get_device(device)
        if self._data is None:
            self._initial_device = device
        super().to_device(device)
        rule = self._update_rule
        if rule is not None and hasattr(rule, 'state') and rule.state:
            for k, v in list(rule.state.items()):
                rule.state[k] = device.send(v)

    def __reduce__(self):
        # The device goes by name: device objects of plugins need not be
        # picklable.
        device = self._initial_device
        return _recover_parameter, (
            self._data, self.name, self.grad, self.initializer,
            self.update_rule, None if device is None else device.name,
            self._grad_initializer)


def _recover_parameter(data, name, grad, initializer, update_rule,
                       device=None, grad_initializer=None):
    p = Parameter(initializer=initializer, name=name)
    p._data = data
    p._restore_graph()
    p._grad_var = None if grad is None else Variable(grad,
                                                     requires_grad=False)
    p._grad_initializer = grad_initializer
    p.update_rule = update_rule
    if device is not None:
        from chainer_core._runtime.host import get_device
        p._initial_device = get_device(device)
    return p
