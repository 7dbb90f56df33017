"""Whole training steps captured once as CUDA graphs and replayed:
:func:`graph_step`.

A step is ``loss = lossfun(*batch)``, ``model.cleargrads()``,
``loss.backward()`` and ``optimizer.update()``, as
``optimizer.update(lossfun, *batch)`` runs it. The first ``warmup`` calls
run it eagerly on a side stream (optimizer state and lazily initialised
parameters are made, CuPy compiles its kernels); the next one runs it once
more with the stream capturing (CuPy's ``Stream.begin_capture`` /
``end_capture``), into a ``cupy.cuda.Graph`` launched then and on every
later call, after the batch is copied into the static input buffers the
graph reads.

What a replay cannot repeat is the Python of the step. Two parts of it
change from step to step and are kept up here:

* the optimizer's counters and scalars: before each replay the optimizer's
  update runs on the host only (its update kernels, told by
  :mod:`chainer_cuda._capture`, launch nothing), which advances ``t`` as an
  eager step does and gives the scalars its kernels take (the learning
  rate, Adam's bias-corrected step size from ``t``); the captured kernels
  read them from device memory, copied there before the launch;
* the arrays: every one the captured step made comes from a memory pool of
  the step's own, which nothing else allocates from, so that no block the
  graph reads or writes is handed out again while it can be replayed.

Anything else the step does in Python each time (a counter in the forward
pass, random numbers drawn on the host, an optimizer hook) is done once, at
the capture; steps that synchronise with the host cannot be captured at all
and raise :class:`GraphCaptureError`.
"""
import numpy

from chainer_core.link import Link
from chainer_core.optimizer import GradientMethod
from chainer_core.variable import Variable

from chainer_cuda import _capture, _probe
from chainer_cuda._capture import GraphCaptureError

# cudaError_t values of stream capture (CUDA runtime API, cudaError): an
# operation a capture cannot record, such as a synchronisation (900), a
# capture invalidated by one (901), and the other ways an operation can
# cross a capture's bounds (902 to 908).
_CAPTURE_STATUSES = range(900, 909)

_EAGER = ('the same step runs eagerly: optimizer.update(lossfun, *batch), '
          'or the step without graph_step')


def graph_step(model, optimizer, lossfun, warmup=3):
    """A training step of ``model`` captured as a CUDA graph and replayed.

    ``step = graph_step(model, optimizer, lossfun)`` then ``loss =
    step(x, t)`` trains as ``optimizer.update(lossfun, x, t)`` does: the
    first ``warmup`` calls run eagerly, the next captures the step, every
    later one replays it. See :class:`GraphStep`.

    Args:
        model (chainer.Link): the model, on a CUDA device (``@cupy:N``).
        optimizer (chainer.GradientMethod): set up on ``model``; its update
            rules must be chainer-core's (SGD, MomentumSGD, Adam, ...) on
            float32 or float64 parameters, without hooks or dynamic loss
            scaling.
        lossfun (callable): ``lossfun(*batch)`` returns the loss Variable;
            it must not synchronise with the host (no ``.item()``, no
            ``float(loss.array)``).
        warmup (int): the number of eager calls before the capture (at
            least 1).

    Returns:
        GraphStep: the step, to call with the batch's arrays.

    Raises:
        TypeError, ValueError: on arguments of the wrong kind.
        RuntimeError: where CUDA is not usable (the backend's reason).
        GraphCaptureError: for an optimizer the graph cannot replay.
    """
    _check_arguments(model, optimizer, lossfun, warmup)
    state = _probe.state()
    if not state.available:
        raise RuntimeError(
            'chainer_cuda.graph_step: CUDA is not available here: {}; {}'
            .format(state.reason, _EAGER))
    from chainer_cuda.device import CudaDevice
    device = model.device
    if not isinstance(device, CudaDevice):
        raise ValueError(
            'chainer_cuda.graph_step: model must be on a CUDA device '
            "(@cupy:N), got {}: call model.to_device('@cupy:0') first"
            .format(device))
    return GraphStep(model, optimizer, lossfun, warmup, device)


def _check_arguments(model, optimizer, lossfun, warmup):
    if not isinstance(model, Link):
        raise TypeError('chainer_cuda.graph_step: model must be a '
                        'chainer.Link, got {}'.format(type(model).__name__))
    if not isinstance(optimizer, GradientMethod):
        raise TypeError(
            'chainer_cuda.graph_step: optimizer must be a '
            'chainer.GradientMethod (SGD, MomentumSGD, Adam, ...), got {}'
            .format(type(optimizer).__name__))
    if optimizer.target is not model:
        raise ValueError(
            'chainer_cuda.graph_step: optimizer must be set up on model '
            '(optimizer.setup(model)); its target is {}'.format(
                None if optimizer.target is None
                else type(optimizer.target).__name__))
    if not callable(lossfun):
        raise TypeError('chainer_cuda.graph_step: lossfun must be callable, '
                        'got {}'.format(type(lossfun).__name__))
    if type(warmup) is not int or warmup < 1:
        raise ValueError('chainer_cuda.graph_step: warmup must be an int '
                         '>= 1, got {!r}'.format(warmup))
    _check_optimizer(optimizer)


def _check_optimizer(optimizer):
    """Refuse what a replay would not repeat: Python run on every step."""
    hooks = list(optimizer._pre_update_hooks or ()) + \
        list(optimizer._post_update_hooks or ())
    if hooks:
        raise GraphCaptureError(
            'chainer_cuda.graph_step: the optimizer has hooks ({}): a replay '
            'repeats the kernels they launched at the capture, not the '
            'hooks; {}'.format(', '.join(map(str, hooks)), _EAGER))
    if optimizer._loss_scaling_is_dynamic:
        raise GraphCaptureError(
            'chainer_cuda.graph_step: dynamic loss scaling looks for inf and '
            'NaN in the gradients on the host every step, which a CUDA graph '
            'cannot; a fixed scale (loss_scaling(scale=...)) can be '
            'captured; {}'.format(_EAGER))
    for name, param in optimizer.target.namedparams():
        rule = param.update_rule
        if rule is None:
            continue
        if rule._pre_update_hooks or rule._post_update_hooks:
            raise GraphCaptureError(
                'chainer_cuda.graph_step: the update rule of {} has hooks '
                '({}): a replay would not run them; {}'.format(
                    name, ', '.join(list(rule._pre_update_hooks)
                                    + list(rule._post_update_hooks)),
                    _EAGER))
        if rule._use_fp32_update and param.array is not None and \
                param.array.dtype == numpy.float16:
            raise GraphCaptureError(
                'chainer_cuda.graph_step: {} is float16 with '
                'use_fp32_update, whose copies to and from the float32 '
                'master run in Python every step; {}'.format(name, _EAGER))


def _refusal(e):
    """Why the capture could not record the step, when ``e`` says so
    (rather than being an error the eager step has as well), else None."""
    if getattr(e, 'status', None) in _CAPTURE_STATUSES:
        return ('something synchronises with the host (.item(), float() or '
                'bool() of an array, a copy to the host, a hook reading '
                'values), which CUDA forbids while a stream captures')
    text = str(e)
    if isinstance(e, NotImplementedError) and 'stream capture' in text:
        return ('it calls a CUDA library CuPy does not let a capture call '
                '(cuBLAS outside linear and two-dimensional matmul, '
                'cuSOLVER, cuRAND, cuSPARSE)')
    if 'capturing' in text:
        return ('it makes a synchronous copy, which CUDA forbids while a '
                'stream captures')
    return None


def _refuse_allocation(size):
    raise GraphCaptureError(
        'chainer_cuda.graph_step: preparing a replay, the optimizer update '
        'allocated {} bytes on the GPU: something besides its update '
        'kernels (a hook, a custom update rule) works on the GPU every '
        'step, which a replay would not repeat; {}'.format(size, _EAGER))


class GraphStep:
    """A training step captured once as a CUDA graph and replayed
    (made by :func:`graph_step`).

    ``step(*batch)`` takes the batch as NumPy or CuPy arrays of the
    device's, copies them into static input buffers of the first batch's
    shapes and dtypes, and runs the step: eagerly for the first ``warmup``
    calls, then captured, then replayed. A batch of another shape or dtype
    raises ValueError (the graph is not captured again: make another
    ``graph_step`` for it, or pad the batch). The step runs on a stream of
    its own, ordered after the work queued on the caller's current stream
    and before what is queued there after it.

    A replay returns the same Variable every time, the static loss: its
    array is overwritten by the next replay (copy it to keep it). The
    parameters' gradients are the static ones the graph writes, and the
    optimizer's ``t`` counts every step.

    Attributes:
        inputs (tuple): the static input buffers (None before the first
            call).
        warmup (int): the number of eager calls before the capture.
    """

    def __init__(self, model, optimizer, lossfun, warmup, device):
        cupy = device.xp
        self.model = model
        self.optimizer = optimizer
        self.lossfun = lossfun
        self.warmup = warmup
        self.device = device
        self.inputs = None
        self._cupy = cupy
        self._stream = device.stream(non_blocking=True)
        self._pool = cupy.cuda.MemoryPool()
        self._scalars = _Scalars(cupy)
        self._calls = 0
        self._graph = None
        self._loss = None
        self._held = ()
        self._failure = None
        self._phase = None

    @property
    def captured(self):
        """Whether the step is captured (later calls replay it)."""
        return self._graph is not None

    def __call__(self, *batch):
        """Run one training step on ``batch``.

        Args:
            batch: the arrays ``lossfun`` takes (NumPy or CuPy).

        Returns:
            chainer.Variable: the loss (the static loss once captured).
        """
        if self._failure is not None:
            raise GraphCaptureError(self._failure)
        self._check_batch(batch)
        _check_optimizer(self.optimizer)
        self._calls += 1
        cupy = self._cupy
        with self.device:
            caller = cupy.cuda.get_current_stream()
            self._stream.wait_event(caller.record())
            try:
                if self._graph is not None:
                    return self._replay(batch)
                if self._calls <= self.warmup:
                    return self._eager(batch)
                return self._capture(batch)
            finally:
                caller.wait_event(self._stream.record())

    # -- the three kinds of call ------------------------------------------

    def _eager(self, batch):
        self._copy_inputs(batch)
        self._scalars.start('eager')
        loss = self._run()
        self._check_update_count()
        return loss

    def _capture(self, batch):
        self._copy_inputs(batch)
        with self._stream, \
                self._cupy.cuda.using_allocator(self._pool.malloc):
            self._scalars.prepare_capture()
        self._scalars.start('capture')
        counters = self._counters()
        self._stream.begin_capture()
        try:
            loss = self._run()
        except BaseException as e:
            self._abandon_capture()
            self._restore(counters)
            reason = _refusal(e)
            if reason is None and not isinstance(e, GraphCaptureError):
                raise
            self._failure = str(e) if reason is None else (
                'chainer_cuda.graph_step: the step cannot be captured as a '
                'CUDA graph: in {}, {} ({}: {}); {}'.format(
                    self._phase, reason, type(e).__name__, e, _EAGER))
            raise GraphCaptureError(self._failure) from e
        try:
            graph = self._stream.end_capture()
        except Exception as e:
            self._restore(counters)
            self._failure = (
                'chainer_cuda.graph_step: the capture of the step failed to '
                'end ({}: {}), as when the step forks work to another '
                'stream and does not join it; {}'.format(
                    type(e).__name__, e, _EAGER))
            raise GraphCaptureError(self._failure) from e
        try:
            self._scalars.finish_capture()
            self._check_update_count()
        except GraphCaptureError as e:
            self._restore(counters)
            self._failure = str(e)
            raise
        self._graph = graph
        self._loss = loss
        self._held = self._holdings()
        self._launch(graph)
        return loss

    def _replay(self, batch):
        self._check_holdings()
        counters = self._counters()
        self._scalars.start('record')
        try:
            with self._cupy.cuda.using_allocator(_refuse_allocation), \
                    _capture.use(self._scalars):
                self.optimizer.update()
            self._scalars.check_signature()
        except BaseException:
            self._restore(counters)
            raise
        self._copy_inputs(batch)
        self._launch(self._graph)
        return self._loss

    # -- parts -------------------------------------------------------------

    def _run(self):
        """The step, on the side stream, allocating from the step's pool,
        the update kernels going through the recorder."""
        cupy = self._cupy
        with self._stream, cupy.cuda.using_allocator(self._pool.malloc), \
                _capture.use(self._scalars):
            self._phase = 'lossfun'
            loss = self.lossfun(*self.inputs)
            if not isinstance(loss, Variable):
                raise TypeError(
                    'chainer_cuda.graph_step: lossfun must return the loss '
                    'Variable, got {}'.format(type(loss).__name__))
            self._phase = 'the backward pass'
            self.model.cleargrads()
            loss.backward(loss_scale=self.optimizer._loss_scale)
            self._phase = 'the optimizer update'
            self.optimizer.update()
        return loss

    def _launch(self, graph):
        self._scalars.upload(self._stream)
        graph.launch(self._stream)

    def _check_batch(self, batch):
        cupy = self._cupy
        for i, a in enumerate(batch):
            if not isinstance(a, (numpy.ndarray, cupy.ndarray)):
                raise TypeError(
                    'chainer_cuda.graph_step: input {} must be a NumPy or '
                    'CuPy array, got {}'.format(i, type(a).__name__))
            if isinstance(a, cupy.ndarray) and \
                    a.device.id != self.device.device_id:
                raise ValueError(
                    'chainer_cuda.graph_step: input {} is on GPU {}, the '
                    'model on {}'.format(i, a.device.id, self.device.name))
        if self.inputs is None:
            return
        expected = [(s.shape, s.dtype) for s in self.inputs]
        got = [(a.shape, a.dtype) for a in batch]
        if got != expected:
            raise ValueError(
                'chainer_cuda.graph_step: the batch has the shapes and dtypes '
                '{}, but the step was made for {} (its first batch): the '
                'static input buffers and the graph keep them; make another '
                'graph_step for this batch, or pad it'.format(
                    _describe(got), _describe(expected)))

    def _copy_inputs(self, batch):
        cupy = self._cupy
        if self.inputs is None:
            with self._stream, cupy.cuda.using_allocator(self._pool.malloc):
                self.inputs = tuple(cupy.empty(a.shape, a.dtype)
                                    for a in batch)
        for static, a in zip(self.inputs, batch):
            if isinstance(a, numpy.ndarray):
                static.set(a, stream=self._stream)
            else:
                with self._stream:
                    cupy.copyto(static, a)

    def _updated(self):
        return [(name, param) for name, param in self.model.namedparams()
                if param.update_rule is not None and param.update_rule.enabled
                and param.array is not None and param.grad is not None]

    def _check_update_count(self):
        updated = self._updated()
        launched = len(self._scalars.signature)
        if launched != len(updated):
            raise GraphCaptureError(
                'chainer_cuda.graph_step: {} parameters were updated, but '
                "chainer-cuda's update kernels ran {} times: an update rule "
                '({}) updates its parameter some other way, which a replay '
                'would not repeat; {}'.format(
                    len(updated), launched, ', '.join(sorted(
                        {type(p.update_rule).__name__ for _, p in updated})),
                    _EAGER))

    def _counters(self):
        return self.optimizer.t, [(p.update_rule, p.update_rule.t)
                                  for p in self.model.params()
                                  if p.update_rule is not None]

    def _restore(self, counters):
        """Undo the counting of a step that did not run on the GPU."""
        self.optimizer.t, rules = counters
        for rule, t in rules:
            rule.t = t

    def _abandon_capture(self):
        try:
            self._stream.end_capture()
        except Exception:
            # An invalidated capture ends with an error: the cause is
            # already being raised.
            pass

    def _holdings(self):
        """What the graph reads and writes, kept so that it stays alive
        and so that a replacement is noticed."""
        held = []
        for name, param in self.model.namedparams():
            rule = param.update_rule
            state = dict(rule.state or {}) if rule is not None else {}
            held.append((name, param, param.array, param.grad, rule, state))
        return tuple(held)

    def _check_holdings(self):
        for name, param, array, grad, rule, state in self._held:
            if param.array is not array or param.update_rule is not rule or \
                    any((rule.state or {}).get(k) is not v
                        for k, v in state.items()):
                raise GraphCaptureError(
                    'chainer_cuda.graph_step: the array or optimizer state '
                    'of {} was replaced since the capture (to_device, setup '
                    'again, a snapshot loaded into new arrays), and the '
                    'graph updates the old ones; make a new graph_step'
                    .format(name))
            if param.grad is not grad:
                # Cleared or replaced outside the step: the graph writes
                # the captured gradient, so that is the one to show.
                param.grad = grad


def _describe(signature):
    return ', '.join('{} {}'.format(shape, dtype) for shape, dtype in
                     signature) or 'no arrays'


class _Scalars:
    """The float scalars the update kernels take in a step, in the order
    they are launched, passed to the kernels as device values.

    Modes: ``'eager'`` writes each value to its slot on the stream and
    launches; ``'capture'`` launches on slots whose values are copied
    before the graph is launched (:meth:`upload`); ``'record'`` only notes
    the values, for the next replay. Besides the values it notes each
    launch's kernel and other scalars (flags), which a replay cannot change.
    """

    def __init__(self, xp):
        self._xp = xp
        self.mode = 'eager'
        self.values = []
        self.signature = []
        self.captured = None
        self._slots = None
        self._staging = None
        self._events = None
        self._turn = 0

    def start(self, mode):
        """Begin a step of ``mode``."""
        self.mode = mode
        self.values = []
        self.signature = []

    def launch(self, kernel, grad, scalars, outputs):
        """Launch ``kernel(grad, *scalars, *outputs)`` with the float
        scalars read from device memory (nothing in ``'record'`` mode)."""
        args = [self._slot(s) if isinstance(s, float) else s
                for s in scalars]
        self.signature.append((kernel.name, tuple(
            s for s in scalars if not isinstance(s, float))))
        if self.mode != 'record':
            kernel(grad, *args, *outputs)

    def _slot(self, value):
        k = len(self.values)
        self.values.append(value)
        if self.mode == 'record':
            return None
        slots = self._slots
        if self.mode == 'eager':
            if slots is None or k >= slots.size:
                # Earlier slots of this step stay with the kernels that
                # read them; the stream orders their reuse.
                slots = self._slots = self._xp.zeros(max(16, 2 * k),
                                                     numpy.float64)
            slot = slots[k, ...]
            slot.fill(value)
            return slot
        if k >= slots.size:
            raise GraphCaptureError(
                'chainer_cuda.graph_step: the captured update launched more '
                'kernels than the eager one before it; {}'.format(_EAGER))
        return slots[k, ...]

    def prepare_capture(self):
        """Allocate the slots and their host staging for the count of the
        last eager step (allocation is kept out of the capture)."""
        import cupyx
        n = max(1, len(self.values))
        self._slots = self._xp.zeros(n, numpy.float64)
        # Two staging buffers in turn: the host fills one while the copy
        # from the other may still be queued.
        self._staging = [cupyx.empty_pinned(n, numpy.float64)
                         for _ in range(2)]
        self._events = [self._xp.cuda.Event(disable_timing=True)
                        for _ in range(2)]

    def finish_capture(self):
        """Keep the captured launches, against which a replay's are
        checked."""
        if self.values and len(self.values) != self._slots.size:
            raise GraphCaptureError(
                'chainer_cuda.graph_step: the captured update launched other '
                'kernels than the eager one before it; {}'.format(_EAGER))
        self.captured = self.signature

    def check_signature(self):
        """Raise unless the update just recorded launches what the
        captured one did."""
        if self.signature != self.captured:
            raise GraphCaptureError(
                'chainer_cuda.graph_step: the optimizer update launches '
                'other kernels than at the capture ({} launches then, {} '
                'now; an update rule disabled or a switch such as amsgrad or '
                'adabound changed?): make a new graph_step'.format(
                    len(self.captured), len(self.signature)))

    def upload(self, stream):
        """Copy this step's values to the slots, on ``stream`` (before the
        graph launched after it)."""
        turn = self._turn
        self._turn = 1 - turn
        staging, event = self._staging[turn], self._events[turn]
        # The copy queued two steps ago read this buffer.
        event.synchronize()
        staging[:len(self.values)] = self.values
        self._slots.set(staging, stream=stream)
        event.record(stream)
