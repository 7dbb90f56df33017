"""Collective communication with backprop: bcast, gather, scatter,
allgather, alltoall, allreduce.

Every process of the communicator must call the function, and later run
backward through it, in the same order. ``allreduce``, ``allgather`` and
``alltoall`` write their backward with themselves, so double backprop
works through them; ``bcast``, ``gather`` and ``scatter`` (whose non-root
processes hold no real input) support first-order gradients only.
"""
from chainer_core import backend
from chainer_core.function_node import FunctionNode
from chainer_core.variable import Variable
from chainer_mn.functions import _util


def _grads_or_zeros(grad_outputs, outputs_meta, xp):
    return tuple(Variable(xp.zeros(s, d), requires_grad=False)
                 if g is None else g
                 for g, (s, d) in zip(grad_outputs, outputs_meta))


class AllReduce(FunctionNode):
    """Element-wise sum over the processes; backward: the same sum of the
    output gradients."""

    def __init__(self, comm):
        self.comm = comm

    def forward(self, inputs):
        x, = inputs
        device = backend.get_device_from_array(x)
        self._meta = (x.shape, x.dtype)
        self._xp = device.xp
        return _util.on_device(device, (self.comm.allreduce(x),))

    def backward(self, target_input_indexes, grad_outputs):
        gy, = _grads_or_zeros(grad_outputs, [self._meta], self._xp)
        return AllReduce(self.comm).apply((gy,))


class AllToAll(FunctionNode):
    """Input ``i`` goes to rank ``i``; output ``j`` came from rank ``j``.
    Backward sends each output gradient back where its output came from:
    an all-to-all again."""

    def __init__(self, comm):
        self.comm = comm

    def forward(self, inputs):
        device = backend.get_device_from_array(inputs[0])
        ys = _util.on_device(device, self.comm.alltoall(tuple(inputs)))
        self._meta = [(y.shape, y.dtype) for y in ys]
        self._xp = device.xp
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        gys = _grads_or_zeros(grad_outputs, self._meta, self._xp)
        gxs = AllToAll(self.comm).apply(gys)
        return tuple(gxs[i] for i in target_input_indexes)


class AllGather(FunctionNode):
    """Output ``j`` is the input of rank ``j``. Backward: the gradient of
    this process's input is the sum over the processes of the gradient of
    their output from here, gathered with an all-to-all."""

    def __init__(self, comm):
        self.comm = comm

    def forward(self, inputs):
        x, = inputs
        device = backend.get_device_from_array(x)
        ys = _util.on_device(device, self.comm.allgather(x))
        self._meta = [(y.shape, y.dtype) for y in ys]
        self._xp = device.xp
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        gys = _grads_or_zeros(grad_outputs, self._meta, self._xp)
        parts = AllToAll(self.comm).apply(gys)
        gx = parts[0]
        for p in parts[1:]:
            gx = gx + p
        return gx,


class Bcast(FunctionNode):
    """The root's input on every process (non-root processes pass a dummy
    input and their data is received before the node is applied).
    Backward: the output gradients are gathered on the root and summed."""

    def __init__(self, comm, root, received=None):
        self.comm = comm
        self.root = root
        self._received = received

    def forward(self, inputs):
        x, = inputs
        device = backend.get_device_from_array(x)
        self._in_meta = (x.shape, x.dtype)
        self._xp = device.xp
        if self.comm.rank == self.root:
            self.comm.bcast(x, self.root)
            y = x.copy()
        else:
            y, = _util.on_device(device, (self._received,))
            self._received = None
        self._out_meta = (y.shape, y.dtype)
        return y,

    def backward(self, target_input_indexes, grad_outputs):
        _util.check_first_order('chainer_mn.functions.bcast')
        gy, = _util.filled(grad_outputs, [self._out_meta[0]],
                           [self._out_meta[1]], self._xp)
        gys = self.comm.gather(gy, self.root)
        if self.comm.rank != self.root:
            return Variable(self._xp.zeros(*self._in_meta),
                            requires_grad=False),
        device = backend.get_device_from_array(gy)
        gys = _util.on_device(device, gys)
        gx = gys[0].copy()
        for g in gys[1:]:
            gx += g
        return Variable(gx, requires_grad=False),


class Gather(FunctionNode):
    """On the root, the inputs of every process (one output each); on the
    others, a delegate variable. Backward scatters the root's output
    gradients back to the processes."""

    def __init__(self, comm, root):
        self.comm = comm
        self.root = root

    def forward(self, inputs):
        x, = inputs
        device = backend.get_device_from_array(x)
        self._device = device
        self._in_meta = (x.shape, x.dtype)
        self._xp = device.xp
        ys = self.comm.gather(x, self.root)
        if self.comm.rank == self.root:
            ys = _util.on_device(device, ys)
            self._out_meta = [(y.shape, y.dtype) for y in ys]
            return ys
        return _util.delegate_array(device.xp),

    def backward(self, target_input_indexes, grad_outputs):
        _util.check_first_order('chainer_mn.functions.gather')
        if self.comm.rank == self.root:
            gys = _util.filled(grad_outputs,
                               [s for s, _ in self._out_meta],
                               [d for _, d in self._out_meta], self._xp)
            gx = self.comm.scatter(gys, self.root)
        else:
            gx = self.comm.scatter(None, self.root)
        gx, = _util.on_device(self._device, (gx,))
        return Variable(gx, requires_grad=False),


class Scatter(FunctionNode):
    """On the root, one input per process; every process outputs its part
    (non-root processes pass a dummy input and receive before the node is
    applied). Backward gathers the output gradients on the root."""

    def __init__(self, comm, root, received=None):
        self.comm = comm
        self.root = root
        self._received = received

    def forward(self, inputs):
        device = backend.get_device_from_array(inputs[0])
        self._in_meta = [(x.shape, x.dtype) for x in inputs]
        self._xp = device.xp
        if self.comm.rank == self.root:
            y = self.comm.scatter(tuple(inputs), self.root)
        else:
            y = self._received
            self._received = None
        y, = _util.on_device(device, (y,))
        self._out_meta = (y.shape, y.dtype)
        return y,

    def backward(self, target_input_indexes, grad_outputs):
        _util.check_first_order('chainer_mn.functions.scatter')
        gy, = _util.filled(grad_outputs, [self._out_meta[0]],
                           [self._out_meta[1]], self._xp)
        gxs = self.comm.gather(gy, self.root)
        if self.comm.rank != self.root:
            return tuple(Variable(self._xp.zeros(*self._in_meta[i]),
                                  requires_grad=False)
                         for i in target_input_indexes)
        device = backend.get_device_from_array(gy)
        gxs = _util.on_device(device, gxs)
        return tuple(Variable(gxs[i], requires_grad=False)
                     for i in target_input_indexes)


def allreduce(comm, x):
    """The element-wise sum of ``x`` over the processes, with backprop
    (the gradient of ``x`` is the sum of the output gradients).

    Args:
        comm: a chainer_mn communicator.
        x (Variable): the same shape and dtype on every process.

    Returns:
        ~chainer_core.Variable: the sum.
    """
    y, = AllReduce(comm).apply((x,))
    return y


def alltoall(comm, xs):
    """Send ``xs[i]`` to rank ``i``; returns what every rank sent here,
    with backprop (gradients travel back the same way).

    Args:
        comm: a chainer_mn communicator.
        xs (tuple or list of Variable): ``comm.size`` variables.

    Returns:
        tuple of ~chainer_core.Variable: ``comm.size`` variables.
    """
    if not isinstance(xs, (tuple, list)) or len(xs) != comm.size:
        raise ValueError('chainer_mn.functions.alltoall: xs must be a tuple '
                         'or list of {} variables (the communicator size), '
                         'got {!r}'.format(comm.size, type(xs).__name__
                                           if not isinstance(xs, (tuple, list))
                                           else len(xs)))
    return AllToAll(comm).apply(tuple(xs))


def allgather(comm, x):
    """The ``x`` of every process, on every process, with backprop (the
    gradient of ``x`` sums the gradients of its copies on all processes).

    Args:
        comm: a chainer_mn communicator.
        x (Variable): this process's variable (shapes may differ).

    Returns:
        tuple of ~chainer_core.Variable: one per process, in rank order.
    """
    return AllGather(comm).apply((x,))


def bcast(comm, x, root=0):
    """The ``x`` of ``root`` on every process, with backprop (the root's
    gradient sums the gradients of all the copies).

    Args:
        comm: a chainer_mn communicator.
        x (Variable): the variable on ``root`` (ignored elsewhere; pass
            None).
        root (int): the rank broadcasting.

    Returns:
        ~chainer_core.Variable: the broadcast variable.
    """
    _util.check_root(comm, root, 'chainer_mn.functions.bcast')
    if comm.rank == root:
        y, = Bcast(comm, root).apply((x,))
        return y
    received = comm.bcast(None, root)
    dummy = _util.dummy_variable(backend.get_device_from_array(received))
    y, = Bcast(comm, root, received).apply((dummy,))
    return y


def gather(comm, x, root=0):
    """The ``x`` of every process, gathered on ``root``, with backprop.

    Args:
        comm: a chainer_mn communicator.
        x (Variable): this process's variable (shapes may differ).
        root (int): the gathering rank.

    Returns:
        On ``root``, a tuple of ~chainer_core.Variable (one per process);
        elsewhere a delegate variable, to keep in the graph (pass it to
        :func:`~chainer_mn.functions.pseudo_connect`, or call its
        ``backward()``) so that backprop sends this process's gradient
        back.
    """
    _util.check_root(comm, root, 'chainer_mn.functions.gather')
    ys = Gather(comm, root).apply((x,))
    if comm.rank == root:
        return ys
    delegate, = ys
    delegate.name = 'delegate_variable'
    return delegate


def scatter(comm, xs, root=0):
    """``xs[i]`` of ``root`` on rank ``i``, with backprop (the root's
    gradients are gathered back).

    Args:
        comm: a chainer_mn communicator.
        xs (tuple or list of Variable): on ``root``, ``comm.size``
            variables, or one variable split along its first axis
            (ignored elsewhere; pass None).
        root (int): the scattering rank.

    Returns:
        ~chainer_core.Variable: this process's part.
    """
    _util.check_root(comm, root, 'chainer_mn.functions.scatter')
    if comm.rank == root:
        if isinstance(xs, Variable):
            xs = [xs[i] for i in range(len(xs))]
        elif not isinstance(xs, (tuple, list)):
            xs = list(xs)
        if len(xs) != comm.size:
            # The communicator reports the error on every process.
            comm.scatter(list(xs), root)
        y, = Scatter(comm, root).apply(tuple(xs))
        return y
    received = comm.scatter(None, root)
    dummy = _util.dummy_variable(backend.get_device_from_array(received))
    y, = Scatter(comm, root, received).apply((dummy,))
    return y
