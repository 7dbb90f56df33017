"""Loading the C++ extension: OpenBLAS first (from the scipy-openblas32
wheel, whose directory the extension's rpath names), then the module, whose
public names are copied into the chainer_native namespace."""
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
    return _core
