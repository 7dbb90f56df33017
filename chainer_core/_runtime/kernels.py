"""The kernel registry: which function computes an op on which backend.

The core declares every kernel once, with a *reference* implementation
written against an array namespace ``xp`` (NumPy, CuPy, ...). Backends add
their own implementations with ``register_kernel(op, backend, fn)``. At call
time an op asks for the kernel for the type of its input array; the answer is
cached per (op, array type), so a lookup is one dict hit.

Reference kernels take ``xp`` as their first argument; backend kernels do not.
``lookup`` hides that difference: it returns a callable with the kernel's
public signature in both cases.
"""
import functools
import inspect
import threading

from backend_api.errors import KernelNotFoundError, PluginError
from backend_api._markers import ESCAPE_HATCH


class KernelSpec:
    __slots__ = ('name', 'reference', 'signature', 'doc', 'implementations')

    def __init__(self, name, reference, signature, doc):
        self.name = name
        self.reference = reference
        self.signature = signature
        self.doc = doc
        # backend name -> (fn, distribution)
        self.implementations = {}


_specs = {}
_cache = {}
# chainer_core imports its ops on first use, and an op declares its kernels
# when imported: the registry has the core import them all before it is
# first asked for a kernel by name.
_declarer = None
_RUNNING = object()
_declarer_lock = threading.RLock()


def set_declarer(fn):
    """Have ``fn()`` import the core's modules declaring kernels (and graph
    kernels), once, before the first lookup of a kernel by name."""
    global _declarer
    _declarer = fn


def declare_all():
    """Run the declarer of ``set_declarer`` unless it has run."""
    global _declarer
    if _declarer is None:
        return
    # Other threads wait for the declarations; the declaring thread may look
    # kernels up while importing (its lookups see what is declared so far).
    with _declarer_lock:
        fn = _declarer
        if fn is None or fn is _RUNNING:
            return
        _declarer = _RUNNING
        try:
            fn()
        except BaseException:
            _declarer = fn
            raise
        _declarer = None


def _spec(name):
    spec = _specs.get(name)
    if spec is None and _declarer is not None:
        declare_all()
        spec = _specs.get(name)
    return spec


def _public_signature(fn):
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())[1:]  # drop xp
    return str(sig.replace(parameters=params))


def declare(name, reference=None, signature=None):
    """Declare kernel ``name``; with ``reference`` (``fn(xp, ...)``) as fallback.

    Used as a decorator by the core: ``@declare('relu')`` on the reference.
    ``reference=None`` declares a kernel that only backends implement.
    """
    if reference is None and signature is None:
        return lambda fn: declare(name, fn)
    if name in _specs and _specs[name].reference is not None:
        raise ValueError('kernel {!r} is declared twice'.format(name))
    doc = ''
    if reference is not None:
        signature = signature or _public_signature(reference)
        doc = inspect.getdoc(reference) or ''
    spec = _specs.get(name)
    if spec is None:
        _specs[name] = KernelSpec(name, reference, signature, doc)
    else:
        spec.reference, spec.signature, spec.doc = reference, signature, doc
    _cache.clear()
    return reference


def register_kernel(op_name, backend_name, fn, distribution='<unknown>'):
    """Make ``fn`` compute ``op_name`` for arrays of ``backend_name``."""
    spec = _spec(op_name)
    if spec is None:
        raise PluginError(
            'unknown kernel name {!r} (backend {!r}); known kernels are listed '
            'by `python -m chainer_core kernels`'.format(op_name, backend_name))
    if not callable(fn):
        raise PluginError('kernel {!r} for backend {!r} is not callable: {!r}'
                          .format(op_name, backend_name, fn))
    if not isinstance(backend_name, str) or not backend_name:
        raise PluginError('kernel {!r}: backend name must be a non-empty '
                          'string, got {!r}'.format(op_name, backend_name))
    previous = spec.implementations.get(backend_name)
    if previous is not None and previous[1] != distribution:
        raise PluginError(
            'kernel {!r} for backend {!r} is registered by both {} and {}'
            .format(op_name, backend_name, previous[1], distribution))
    spec.implementations[backend_name] = (fn, distribution)
    _cache.clear()


def unregister_backend(backend_name):
    for spec in _specs.values():
        spec.implementations.pop(backend_name, None)
    _cache.clear()


def unregister_all():
    """Forget every backend kernel (reference kernels stay)."""
    for spec in _specs.values():
        spec.implementations.clear()
    _cache.clear()


def specs():
    """Every declared kernel, sorted by name."""
    declare_all()
    return [_specs[k] for k in sorted(_specs)]


def get_spec(name):
    spec = _spec(name)
    if spec is None:
        raise KeyError(name)
    return spec


def resolve(op_name, device):
    """The callable computing ``op_name`` on ``device`` (uncached).

    This is the one dispatch route: the backend's kernel, which may decline
    a call by returning ``NotImplemented`` (a dtype, layout or mode it does
    not cover), then the reference, on NumPy views of the device's memory
    where the device offers them, else on its ``xp``.
    """
    spec = _spec(op_name)
    if spec is None:
        raise KernelNotFoundError('unknown kernel {!r}'.format(op_name))
    impl = spec.implementations.get(device.backend.name)
    if impl is None:
        return _reference(spec, device)
    if spec.reference is None:
        return _declining(op_name, device, impl[0], None)
    return _declining(op_name, device, impl[0], _reference(spec, device))


def _declining(op_name, device, fn, fallback):
    def kernel(*args, **kwargs):
        out = fn(*args, **kwargs)
        if out is NotImplemented:
            if fallback is None:
                raise KernelNotFoundError(
                    '{}: the {} kernel declined this call and the op has no '
                    'reference kernel ({})'.format(
                        op_name, device.backend.name, ESCAPE_HATCH))
            return fallback(*args, **kwargs)
        return out
    kernel.__name__ = kernel.__qualname__ = op_name
    kernel.__wrapped__ = fn
    kernel.fallback = fallback
    return kernel


def _reference(spec, device):
    op_name = spec.name
    if spec.reference is not None and callable(
            getattr(device, 'to_numpy_view', None)) and callable(
            getattr(device, 'from_numpy_view', None)):
        # Preferred over the device's own xp, which may cover only part of
        # NumPy: the references are written against NumPy's whole API.
        return _via_numpy_views(spec.reference, device)
    if spec.reference is not None and getattr(device, 'xp', None) is not None:
        return functools.partial(spec.reference, device.xp)
    others = sorted(spec.implementations)
    raise KernelNotFoundError(
        '{}: no kernel for device {} (backend {!r} registers none{}); '
        'backends with this kernel: {}. Move the inputs to one of them, or {}'
        .format(op_name, device.name, device.backend.name,
                '' if spec.reference is None else
                ' and its device has no array namespace for the reference',
                ', '.join(others) or 'none', ESCAPE_HATCH))


def _via_numpy_views(reference, device):
    """Run a reference kernel on NumPy views of the device's buffers.

    For host-memory backends without a NumPy-compatible namespace: arrays
    (also inside tuple/list arguments) become NumPy views, results become
    device arrays again, both without copying where the device allows.
    """
    import numpy
    to_view = device.to_numpy_view
    from_view = device.from_numpy_view
    supported = device.is_array_supported

    def arg(a):
        if isinstance(a, (tuple, list)):
            return type(a)(arg(x) for x in a)
        return to_view(a) if supported(a) else a

    def result(y):
        if isinstance(y, numpy.ndarray):
            return from_view(y)
        if isinstance(y, numpy.generic):
            # NumPy returns scalars for 0-dim results: a kernel's result is
            # an array of the device all the same.
            return from_view(numpy.asarray(y))
        if isinstance(y, (tuple, list)):
            return type(y)(result(v) for v in y)
        return y

    def kernel(*args, **kwargs):
        return result(reference(numpy, *[arg(a) for a in args],
                                **{k: arg(v) for k, v in kwargs.items()}))

    return kernel


def lookup(op_name, array):
    """The kernel for ``op_name`` on the device ``array`` lives on (cached)."""
    key = (op_name, type(array))
    try:
        return _cache[key]
    except KeyError:
        pass
    from chainer_core._runtime import host as _host
    fn = resolve(op_name, _host.device_from_array(array))
    _cache[key] = fn
    return fn
