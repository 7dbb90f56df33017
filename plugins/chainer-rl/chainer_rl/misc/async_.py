"""Share parameters and optimizer states between processes (A3C-style
asynchronous training).

Each shared array lives in ``multiprocessing`` shared memory and the
parameters (or optimizer states) of a link are replaced by NumPy views on
it, so every process that inherits it updates the same numbers. Only links
on the ``@numpy`` device can be shared this way: other devices keep their
arrays in memory NumPy cannot view.
"""
import copy
import multiprocessing
import multiprocessing.sharedctypes
import warnings

import numpy

import chainer_core


def _mp_context():
    # 'fork' lets children inherit shared memory and closures without
    # pickling; fall back to the platform default where it does not exist.
    if 'fork' in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context('fork')
    return multiprocessing.get_context()


def _check_numpy_device(array, what, where):
    # Exact type: subclasses (e.g. oneDNN arrays) manage their own memory.
    if type(array) is not numpy.ndarray:
        device = chainer_core.backend.get_device_from_array(array)
        raise ValueError(
            '{}: {} is on device {}, whose arrays cannot be placed in shared '
            'memory; move the link to @numpy first (link.to_device('
            "'@numpy'))".format(where, what, device))


def _to_shared(array):
    array = numpy.ascontiguousarray(array)
    raw = _mp_context().RawArray('b', max(array.nbytes, 1))
    view = numpy.frombuffer(raw, dtype=array.dtype,
                            count=array.size).reshape(array.shape)
    view[...] = array
    return raw


def _view(raw, like):
    return numpy.frombuffer(raw, dtype=like.dtype,
                            count=like.size).reshape(like.shape)


def _check_link(link, where):
    if not isinstance(link, chainer_core.Link):
        raise TypeError('{}: expected a chainer_core Link, got {}'
                        .format(where, type(link).__name__))


def extract_params_as_shared_arrays(link):
    """Copy each parameter of ``link`` into new shared memory.

    Returns:
        dict from parameter name to a ``multiprocessing`` RawArray (raw
        bytes; :func:`set_shared_params` views it with the parameter's dtype
        and shape).
    """
    _check_link(link, 'extract_params_as_shared_arrays')
    shared = {}
    for name, param in link.namedparams():
        if param.array is None:
            raise ValueError('extract_params_as_shared_arrays: parameter {!r}'
                             ' is not initialized; run the link once first'
                             .format(name))
        _check_numpy_device(param.array, 'parameter {!r}'.format(name),
                            'extract_params_as_shared_arrays')
        shared[name] = _to_shared(param.array)
    return shared


def set_shared_params(link, shared_arrays):
    """Make the parameters of ``link`` views on ``shared_arrays`` (from
    :func:`extract_params_as_shared_arrays`); their values become the
    shared ones."""
    _check_link(link, 'set_shared_params')
    for name, param in link.namedparams():
        if name not in shared_arrays:
            continue
        if param.array is None:
            raise ValueError('set_shared_params: parameter {!r} is not '
                             'initialized'.format(name))
        _check_numpy_device(param.array, 'parameter {!r}'.format(name),
                            'set_shared_params')
        raw = shared_arrays[name]
        if len(raw) < param.array.nbytes:
            raise ValueError('set_shared_params: shared array for {!r} has {} '
                             'bytes, the parameter needs {}'.format(
                                 name, len(raw), param.array.nbytes))
        param.array = _view(raw, param.array)


def share_params_as_shared_arrays(link):
    """Move the parameters of ``link`` into shared memory; return the shared
    arrays (to hand to :func:`set_shared_params` in other copies)."""
    shared = extract_params_as_shared_arrays(link)
    set_shared_params(link, shared)
    return shared


class _StateLoader(chainer_core.serializer.Deserializer):
    """Feeds chosen arrays into an update rule through its public
    ``serialize``; other entries keep their current value."""

    def __init__(self, arrays):
        self.arrays = arrays

    def __getitem__(self, key):
        return self

    def __call__(self, key, value):
        if key in self.arrays:
            return self.arrays[key]
        return value


def _state_templates(optimizer):
    # The state arrays of rules that never updated do not exist yet: make
    # them on a scratch copy by one update with zero gradients, leaving the
    # real optimizer untouched.
    scratch = copy.deepcopy(optimizer)
    for param in scratch.target.params():
        if param.array is not None:
            param.grad = param.array * 0
    scratch.update()
    return {name: dict(param.update_rule.state or {})
            for name, param in scratch.target.namedparams()
            if param.update_rule is not None}


def _check_optimizer(optimizer, where):
    if not isinstance(optimizer, chainer_core.Optimizer):
        raise TypeError('{}: expected a chainer_core Optimizer, got {}'
                        .format(where, type(optimizer).__name__))
    if getattr(optimizer, 'target', None) is None:
        raise ValueError('{}: call optimizer.setup(link) first'.format(where))


def extract_states_as_shared_arrays(optimizer):
    """Copy each optimizer state array into new shared memory.

    Returns:
        dict from parameter name to a dict from state name (e.g. 'm', 'v')
        to a RawArray.
    """
    where = 'extract_states_as_shared_arrays'
    _check_optimizer(optimizer, where)
    templates = None
    shared = {}
    for name, param in optimizer.target.namedparams():
        rule = param.update_rule
        if rule is None:
            continue
        state = rule.state
        if state is None:
            if templates is None:
                templates = _state_templates(optimizer)
            state = {k: v * 0 for k, v in templates.get(name, {}).items()}
        shared[name] = {}
        for key, value in state.items():
            _check_numpy_device(value, 'state {!r} of parameter {!r}'
                                .format(key, name), where)
            shared[name][key] = _to_shared(value)
    return shared


def set_shared_states(optimizer, shared_arrays):
    """Make the optimizer's state arrays views on ``shared_arrays`` (from
    :func:`extract_states_as_shared_arrays`)."""
    where = 'set_shared_states'
    _check_optimizer(optimizer, where)
    templates = None
    for name, param in optimizer.target.namedparams():
        rule = param.update_rule
        if rule is None or name not in shared_arrays:
            continue
        state = rule.state
        if state is None:
            if templates is None:
                templates = _state_templates(optimizer)
            state = templates.get(name, {})
        views = {}
        for key, raw in shared_arrays[name].items():
            if key not in state:
                raise ValueError('{}: parameter {!r} has no optimizer state '
                                 '{!r}'.format(where, name, key))
            _check_numpy_device(state[key], 'state {!r} of parameter {!r}'
                                .format(key, name), where)
            views[key] = _view(raw, state[key])
        rule.serialize(_StateLoader(views))


def share_states_as_shared_arrays(optimizer):
    """Move the optimizer's state arrays into shared memory; return them."""
    shared = extract_states_as_shared_arrays(optimizer)
    set_shared_states(optimizer, shared)
    return shared


def as_shared_objects(obj):
    """Share ``obj``: a Link (its parameters), an Optimizer (its states), a
    ``multiprocessing`` shared value (returned as is), or a tuple of those.
    Returns what :func:`synchronize_to_shared_objects` needs."""
    if isinstance(obj, tuple):
        return tuple(as_shared_objects(x) for x in obj)
    if isinstance(obj, chainer_core.Link):
        return share_params_as_shared_arrays(obj)
    if isinstance(obj, chainer_core.Optimizer):
        return share_states_as_shared_arrays(obj)
    if isinstance(obj, (multiprocessing.sharedctypes.Synchronized,
                        multiprocessing.sharedctypes.SynchronizedBase)):
        return obj
    raise TypeError('as_shared_objects: expected a Link, an Optimizer, a '
                    'multiprocessing shared value or a tuple of them, got {}'
                    .format(type(obj).__name__))


def synchronize_to_shared_objects(obj, shared_memory):
    """Point ``obj`` (as given to :func:`as_shared_objects`, possibly a copy
    in another process) at ``shared_memory``; returns ``obj``."""
    if isinstance(obj, tuple):
        return tuple(synchronize_to_shared_objects(o, s)
                     for o, s in zip(obj, shared_memory))
    if isinstance(obj, chainer_core.Link):
        set_shared_params(obj, shared_memory)
        return obj
    if isinstance(obj, chainer_core.Optimizer):
        set_shared_states(obj, shared_memory)
        return obj
    if isinstance(obj, (multiprocessing.sharedctypes.Synchronized,
                        multiprocessing.sharedctypes.SynchronizedBase)):
        return shared_memory
    raise TypeError('synchronize_to_shared_objects: unsupported object {}'
                    .format(type(obj).__name__))


def _seed_and_run(seed, process_idx, run_func):
    from chainer_rl.misc.random_seed import set_random_seed
    set_random_seed(int(seed))
    run_func(process_idx)


def run_async(n_process, run_func):
    """Run ``run_func(process_idx)`` in ``n_process`` processes and wait.

    Each process is seeded differently (seeds drawn from NumPy's generator
    in the parent, so a seeded parent gives reproducible children). A
    process that fails is reported with a warning naming its index.

    Returns:
        list of the processes' exit codes.
    """
    if isinstance(n_process, bool) or not isinstance(
            n_process, (int, numpy.integer)) or n_process < 1:
        raise ValueError('run_async: n_process must be a positive int, got '
                         '{!r}'.format(n_process))
    if not callable(run_func):
        raise TypeError('run_async: run_func must be callable, got {}'
                        .format(type(run_func).__name__))
    ctx = _mp_context()
    seeds = numpy.random.randint(0, 2 ** 31, size=int(n_process))
    processes = [ctx.Process(target=_seed_and_run,
                             args=(int(seeds[i]), i, run_func))
                 for i in range(int(n_process))]
    for p in processes:
        p.start()
    codes = []
    for i, p in enumerate(processes):
        p.join()
        codes.append(p.exitcode)
        if p.exitcode != 0:
            warnings.warn('run_async: process {} exited with code {}'
                          .format(i, p.exitcode))
    return codes
