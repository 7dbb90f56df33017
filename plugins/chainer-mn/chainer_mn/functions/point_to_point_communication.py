"""send and recv: model parallelism with backprop across processes."""
from chainer_core import backend
from chainer_core.function_node import FunctionNode
from chainer_core.variable import Variable
from chainer_mn.functions import _util


class Send(FunctionNode):
    """Sends its inputs (all but the last, a dummy) to ``peer_rank``; its
    one output is the delegate variable. Backward receives the gradients
    of the sent arrays from the peer."""

    def __init__(self, comm, peer_rank, peer_tag):
        self.comm = comm
        self.peer_rank = peer_rank
        self.peer_tag = peer_tag

    @property
    def label(self):
        return 'Send (peer_rank: {})'.format(self.peer_rank)

    def forward(self, inputs):
        xs = inputs[:-1]
        self._n_sent = len(xs)
        self._device = backend.get_device_from_array(inputs[-1])
        self._dummy_dtype = inputs[-1].dtype
        self.comm.send(xs[0] if len(xs) == 1 else tuple(xs), self.peer_rank,
                       self.peer_tag)
        return _util.delegate_array(self._device.xp),

    def backward(self, target_input_indexes, grad_outputs):
        _util.check_first_order('chainer_mn.functions.send')
        grads = self.comm.recv(self.peer_rank, self.peer_tag)
        if not isinstance(grads, tuple):
            grads = (grads,)
        if len(grads) != self._n_sent:
            raise RuntimeError(
                '{}: received {} gradients for {} sent arrays; the send and '
                'recv calls of the two processes do not match'.format(
                    self.label, len(grads), self._n_sent))
        device = self._device
        grads = _util.on_device(device, grads)
        out = [Variable(g, requires_grad=False) for g in grads]
        out.append(Variable(device.xp.zeros((), self._dummy_dtype),
                            requires_grad=False))
        return tuple(out[i] for i in target_input_indexes)


class Recv(FunctionNode):
    """Outputs the arrays received from ``peer_rank`` (received before the
    node is applied, so that they can be placed on the input's device);
    its input is a delegate or dummy variable that keeps it in the graph.
    Backward sends the outputs' gradients back to the peer."""

    def __init__(self, comm, peer_rank, peer_tag, received):
        self.comm = comm
        self.peer_rank = peer_rank
        self.peer_tag = peer_tag
        self._received = received

    @property
    def label(self):
        return 'Recv (peer_rank: {})'.format(self.peer_rank)

    def forward(self, inputs):
        device = backend.get_device_from_array(inputs[0])
        ys = _util.on_device(device, self._received)
        self._received = None
        self._out_meta = [(y.shape, y.dtype) for y in ys]
        self._in_meta = [(x.shape, x.dtype) for x in inputs]
        self._xp = device.xp
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        _util.check_first_order('chainer_mn.functions.recv')
        xp = self._xp
        gys = _util.filled(grad_outputs, [s for s, _ in self._out_meta],
                           [d for _, d in self._out_meta], xp)
        self.comm.send(gys[0] if len(gys) == 1 else gys, self.peer_rank,
                       self.peer_tag)
        return tuple(Variable(xp.zeros(*self._in_meta[i]),
                              requires_grad=False)
                     for i in target_input_indexes)


def send(x, communicator, rank, tag=0):
    """Send a variable (or a tuple or list of them) to another process,
    keeping the graph: backprop reaching the returned delegate variable
    receives the gradients from ``rank`` and passes them on to ``x``.

    The returned delegate variable holds no data (a single zero) and only
    carries the graph: call ``delegate.backward()`` when it ends the
    computation of this process, or pass it to the next
    :func:`recv` (``delegate_variable=``) or to :func:`pseudo_connect`, so
    that backprop reaches this send after what follows it.

    Args:
        x (Variable or tuple/list of Variable): what to send.
        communicator: a chainer_mn communicator.
        rank (int): the destination (not this process).
        tag (int): the MPI tag.

    Returns:
        ~chainer_core.Variable: the delegate variable.
    """
    _util.check_peer(communicator, rank, 'chainer_mn.functions.send')
    xs = list(x) if isinstance(x, (tuple, list)) else [x]
    if not xs:
        raise ValueError('chainer_mn.functions.send: nothing to send')
    # The dummy makes the send part of the graph even when x needs no
    # gradient, so that the peer's recv always gets its gradient back.
    dummy = _util.dummy_variable(_util.device_of(xs[0]))
    delegate, = Send(communicator, rank, tag).apply(tuple(xs) + (dummy,))
    delegate.name = 'delegate_variable'
    return delegate


def recv(communicator, rank, delegate_variable=None, tag=0,
         force_tuple=False):
    """Receive what :func:`send` sent from ``rank``, as variables whose
    backprop sends their gradients back.

    Args:
        communicator: a chainer_mn communicator.
        rank (int): the source (not this process).
        delegate_variable (Variable): the delegate of an earlier
            :func:`send` of this process (or any variable of the graph so
            far): backprop then reaches that earlier part after this one,
            in the order the peer expects.
        tag (int): the MPI tag.
        force_tuple (bool): return a tuple even for one variable.

    Returns:
        ~chainer_core.Variable, or a tuple of them if a tuple was sent.
    """
    _util.check_peer(communicator, rank, 'chainer_mn.functions.recv')
    received = communicator.recv(rank, tag)
    is_tuple = isinstance(received, tuple)
    if not is_tuple:
        received = (received,)
    if delegate_variable is None:
        anchor = _util.dummy_variable(
            backend.get_device_from_array(received[0]))
    else:
        anchor = delegate_variable
        if isinstance(anchor, Variable):
            anchor.name = 'delegate_variable'
    ys = Recv(communicator, rank, tag, received).apply((anchor,))
    if is_tuple or force_tuple:
        return ys
    return ys[0]
