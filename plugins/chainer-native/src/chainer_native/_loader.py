"""Loading the C++ extension: OpenBLAS first (from the scipy-openblas32
wheel, whose directory the extension's rpath names), then the module, whose
public names are copied into the chainer_native namespace and whose graph
takes its derivative rules from chainer-core."""
import ctypes
import os

import numpy


def _preload_openblas():
    # The rpath finds the library in an ordinary install; loading it here
    # as well covers layouts where the relative path does not hold (an
    # editable install, a relocated environment).
    try:
        import scipy_openblas32
    except ImportError:
        return
    path = os.path.join(scipy_openblas32.get_lib_dir(),
                        'lib{}.so'.format(scipy_openblas32.get_library()))
    if os.path.exists(path):
        ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)


def load(namespace):
    _preload_openblas()
    import importlib
    _core = importlib.import_module('chainer_native._core')
    _core._set_rule_source(_install_rules)
    for name in dir(_core):
        if not name.startswith('__'):
            setattr(namespace, name, getattr(_core, name))
    for name in ('bool_', 'int8', 'int16', 'int32', 'int64', 'uint8',
                 'float16', 'float32', 'float64'):
        setattr(namespace, name, getattr(numpy, name))
    namespace.newaxis = None
    namespace.inf = numpy.inf
    namespace.nan = numpy.nan
    namespace.pi = numpy.pi
    namespace.e = numpy.e
    namespace.dtype = numpy.dtype
    # Pickling (and so copy.deepcopy of models, snapshots of Variables)
    # goes through a NumPy copy of the data; the graph is not pickled.
    _core.ndarray.__reduce__ = _reduce
    return _core


def _install_rules():
    """Install chainer-core's derivative rules into the extension's graph:
    the ops with graph kernels evaluate them on backward (the fused ones keep
    their own backward)."""
    from chainer_core import backend
    from chainer_native import _core
    for name, rule in backend.derivative_rules().items():
        if not rule.fused:
            _core._install_rule(name, rule.params, rule.program())


def _reduce(a):
    return _rebuild, (numpy.array(a),)


def _rebuild(data):
    import chainer_native
    return chainer_native.array(data)


def _to_numpy(a, ndarray):
    if type(a) is ndarray:
        return numpy.asarray(a)
    if isinstance(a, (tuple, list)):
        return type(a)(_to_numpy(v, ndarray) for v in a)
    return a


def _from_numpy(y, asarray):
    if isinstance(y, numpy.ndarray):
        return asarray(y)
    if isinstance(y, tuple):
        return tuple(_from_numpy(v, asarray) for v in y)
    if isinstance(y, list):
        return [_from_numpy(v, asarray) for v in y]
    return y


class _NumpyNamespace:
    """A NumPy submodule (linalg, random, ...) on chainer_native arrays."""

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name):
        value = numpy_fallback(name, self._module)
        if value is None:
            raise AttributeError('{} has no attribute {!r}'.format(
                self._module.__name__, name))
        return value


def numpy_fallback(name, module=numpy):
    """NumPy's ``name`` running on NumPy views of chainer_native arrays (the
    namespace-level counterpart of the core's NumPy-view kernel fallback):
    arguments are viewed, not copied, and array results are wrapped back."""
    from chainer_native import _core
    value = getattr(module, name, None)
    if value is None:
        return None
    if isinstance(value, type(numpy)):
        return _NumpyNamespace(value)
    if not callable(value) or isinstance(value, type):
        return value
    ndarray, asarray = _core.ndarray, _core.asarray

    def call(*args, **kwargs):
        result = value(*[_to_numpy(a, ndarray) for a in args],
                       **{k: _to_numpy(v, ndarray) for k, v in kwargs.items()})
        return _from_numpy(result, asarray)

    call.__name__ = name
    call.__doc__ = 'NumPy\'s {} on views of chainer_native arrays.'.format(
        name)
    return call
