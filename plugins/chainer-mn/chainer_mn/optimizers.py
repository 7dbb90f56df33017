"""The multi-node optimizer: averages gradients before each update."""


def _backward(opt, lossfun, args, kwds):
    """The optimizer's target, after ``lossfun(*args, **kwds)``'s gradients
    (when a lossfun is given) replaced its old ones."""
    target = opt.target
    if target is None:
        raise RuntimeError('the optimizer is not set up: call '
                           'optimizer.setup(link) first')
    if lossfun is not None:
        loss = lossfun(*args, **kwds)
        if getattr(opt, '_use_cleargrads', True):
            target.cleargrads()
        else:
            target.zerograds()
        loss.backward(loss_scale=opt._loss_scale)
    return target


class _MultiNodeOptimizer:
    """Wraps an optimizer: ``update`` averages the gradients over the
    processes, then lets the wrapped optimizer update. Every other
    attribute (``lr``, ``add_hook``, ``serialize``, ``t``...) is the wrapped
    optimizer's.

    Whenever the set of initialised parameters changes (the first update,
    and after lazily initialised parameters get their shapes), the update
    instead broadcasts the parameters of rank 0 to every process, without
    updating, so that all processes start from the same model.
    """

    def __init__(self, actual_optimizer, communicator, zero_fill):
        object.__setattr__(self, 'communicator', communicator)
        object.__setattr__(self, 'actual_optimizer', actual_optimizer)
        object.__setattr__(self, 'zero_fill', zero_fill)
        object.__setattr__(self, 'target_params', [])

    def update(self, lossfun=None, *args, **kwds):
        """Compute the gradients with ``lossfun`` (if given), average them
        over the processes and update (or, when the parameters changed,
        broadcast them from rank 0)."""
        opt = self.actual_optimizer
        target = _backward(opt, lossfun, args, kwds)
        if self.is_changed(target):
            self.communicator.bcast_data(target)
        else:
            self.communicator.multi_node_mean_grad(target, self.zero_fill)
            opt.update(None, *args, **kwds)

    def is_changed(self, target):
        """Whether the initialised parameters differ from the last call
        (and remember them)."""
        current = [(name, p.array is not None)
                   for name, p in sorted(target.namedparams(),
                                         key=lambda np: np[0])]
        changed = current != self.target_params
        object.__setattr__(self, 'target_params', current)
        return changed

    def mark_synchronized(self):
        """Record the current parameters as already identical on every
        process (after all of them loaded one snapshot), so that the next
        update averages and updates instead of broadcasting."""
        target = self.actual_optimizer.target
        if target is not None:
            self.is_changed(target)

    def setup(self, link):
        self.actual_optimizer.setup(link)
        object.__setattr__(self, 'target_params', [])
        return self

    @property
    def __class__(self):
        # chainer-core's StandardUpdater accepts only Optimizer instances
        # (Chainer takes any object): isinstance() sees the wrapped class.
        return type(self.actual_optimizer)

    def __repr__(self):
        return '<multi-node {!r}>'.format(self.actual_optimizer)

    def __getattr__(self, name):
        return getattr(self.actual_optimizer, name)

    def __setattr__(self, name, value):
        setattr(self.actual_optimizer, name, value)


class _GradSlot:
    """Where the gradient of one parameter waits while it is averaged: it
    has what the communicator reads of a parameter, and its own ``grad``."""

    def __init__(self, name, param):
        self.name = name
        self.array = param.array
        self.shape = param.shape
        self.size = param.size
        self.dtype = param.dtype
        self.grad = None


class _DoubleBufferingOptimizer(_MultiNodeOptimizer):
    """A multi-node optimizer whose averaging overlaps the next step.

    Each ``update`` hands this step's gradients to the communicator, which
    averages them on a stream of their own while the forward and backward
    passes of the next step run, and updates with the previous step's
    averaged gradients: the update of step ``k`` uses the mean gradient
    computed at step ``k - 1``. After the broadcast that synchronises the
    parameters, the first step only starts an averaging, so the parameters
    change from the second step on, as in ChainerMN.

    Only :class:`~chainer_mn.communicators.pure_nccl_communicator.
    PureNcclCommunicator` can average on another stream.
    """

    def __init__(self, actual_optimizer, communicator, zero_fill):
        super().__init__(actual_optimizer, communicator, zero_fill)
        object.__setattr__(self, 'slots', None)
        object.__setattr__(self, 'needs_update', False)
        object.__setattr__(self, 'stream', communicator._new_stream())

    def update(self, lossfun=None, *args, **kwds):
        """Compute the gradients with ``lossfun`` (if given), start their
        averaging and update with the previous step's averages (or, when
        the parameters changed, broadcast them from rank 0)."""
        opt = self.actual_optimizer
        target = _backward(opt, lossfun, args, kwds)
        comm = self.communicator
        # The gradients of the averaging in flight become the parameters'
        # below: wait for it on the current stream before touching them.
        comm._wait_for(self.stream)
        if self.is_changed(target):
            comm.bcast_data(target)
            self._reset_slots(target)
            return
        if self.slots is None:
            self._reset_slots(target)
        params = self._initialised(target)
        for (_, p), slot in zip(params, self.slots):
            p.grad, slot.grad = slot.grad, p.grad
        comm._multi_node_mean_grad_async(self.slots, self.zero_fill,
                                         self.stream)
        if self.needs_update:
            opt.update(None, *args, **kwds)
        else:
            object.__setattr__(self, 'needs_update', True)

    def _initialised(self, target):
        return [(name, p) for name, p in sorted(target.namedparams(),
                                                key=lambda np: np[0])
                if p.array is not None]

    def _reset_slots(self, target):
        object.__setattr__(self, 'slots', [
            _GradSlot(name, p) for name, p in self._initialised(target)])
        object.__setattr__(self, 'needs_update', False)

    def setup(self, link):
        super().setup(link)
        object.__setattr__(self, 'slots', None)
        object.__setattr__(self, 'needs_update', False)
        return self


def create_multi_node_optimizer(actual_optimizer, communicator,
                                double_buffering=False, zero_fill=True):
    """Wrap an optimizer so that it averages gradients over the processes
    of ``communicator`` before every update.

    Args:
        actual_optimizer: a chainer_core optimizer (``Adam()``, ...), set
            up before or after wrapping.
        communicator: a chainer_mn communicator.
        double_buffering (bool): overlap the averaging with the next
            forward and backward pass: each update uses the previous
            step's averaged gradients (which may affect the accuracy), and
            the parameters change from the second step after a broadcast
            on. As in ChainerMN, only the 'pure_nccl' communicator
            supports it: with the others it raises ValueError.
        zero_fill (bool): parameters without a gradient count as zeros in
            the average (so that processes may leave different parameters
            unused).

    Returns:
        The multi-node optimizer.
    """
    from chainer_mn.communicators.communicator_base import CommunicatorBase
    if not isinstance(communicator, CommunicatorBase):
        raise TypeError('create_multi_node_optimizer: communicator must be '
                        'a chainer_mn communicator, got {}'.format(
                            type(communicator).__name__))
    if double_buffering:
        from chainer_mn.communicators.pure_nccl_communicator import (
            PureNcclCommunicator)
        if not isinstance(communicator, PureNcclCommunicator):
            raise ValueError(
                'create_multi_node_optimizer: double_buffering=True needs '
                "the 'pure_nccl' communicator (PureNcclCommunicator), as in "
                'ChainerMN; {} does not support double buffering'.format(
                    type(communicator).__name__))
        return _DoubleBufferingOptimizer(actual_optimizer, communicator,
                                         zero_fill)
    return _MultiNodeOptimizer(actual_optimizer, communicator, zero_fill)
