"""chainer_native: a C++ ndarray with autograd in C++, NumPy-like routines,
and the ``native`` backend of chainer-core.

Importing this package is cheap: the C++ extension loads on first use of
any routine (``chainer_native.zeros``, ``chainer_native.ndarray``, ...).
"""
import contextlib
import importlib
import os
import sys

__version__ = '0.1.0'

_loaded = None


def _load():
    """Import the extension and publish its names here (once)."""
    global _loaded
    if _loaded is None:
        loader = importlib.import_module('chainer_native._loader')
        _loaded = loader.load(sys.modules[__name__])
    return _loaded


def __getattr__(name):
    if name.startswith('_'):
        raise AttributeError('module chainer_native has no attribute {!r}'
                             .format(name))
    _load()
    try:
        return globals()[name]
    except KeyError:
        pass
    fallback = _loaded_loader().numpy_fallback(name)
    if fallback is None:
        raise AttributeError('module chainer_native has no attribute {!r}'
                             .format(name))
    globals()[name] = fallback
    return fallback


def _loaded_loader():
    return importlib.import_module('chainer_native._loader')


def __dir__():
    _load()
    return sorted(globals())


@contextlib.contextmanager
def no_backprop_mode():
    """Routines called in this block record no graph (on this thread)."""
    core = _load()
    prev = core._set_backprop_mode(False)
    try:
        yield
    finally:
        core._set_backprop_mode(prev)


@contextlib.contextmanager
def force_backprop_mode():
    """Routines called in this block record the graph even inside
    ``no_backprop_mode`` (on this thread)."""
    core = _load()
    prev = core._set_backprop_mode(True)
    try:
        yield
    finally:
        core._set_backprop_mode(prev)



# The C++ library the extension is built on, for C++ programs (see
# examples/cpp): headers, the shared library and CMake's package files,
# installed beside the extension. None of these load the extension.

def _installed_dir():
    # Where the build installed the extension: this package's folder, or,
    # in an editable install, the one the extension is redirected to.
    import importlib.util
    try:
        spec = importlib.util.find_spec(__name__ + '._core')
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.origin:
        return os.path.dirname(os.path.abspath(spec.origin))
    return os.path.dirname(os.path.abspath(__file__))


def get_include():
    """The directory holding the C++ headers (``chainer_native/*.h``)."""
    return os.path.join(_installed_dir(), 'include')


def get_library_dir():
    """The directory of ``libchainer_native.so``."""
    return os.path.join(_installed_dir(), 'lib')


def get_cmake_dir():
    """The directory of ``ChainerNativeConfig.cmake``: give it to CMake as
    ``-DChainerNative_DIR=...`` for ``find_package(ChainerNative)``."""
    return os.path.join(get_library_dir(), 'cmake', 'ChainerNative')
