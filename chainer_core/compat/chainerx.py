"""ChainerX's Python names, as ``import chainerx`` gives them under
:mod:`chainer_core.compat`.

When chainer-native is installed, its device ``native:0`` serves them:
``ndarray`` is chainer_native's array type and the routines are
chainer_native's (``chainerx.sum``, ``chainerx.exp``, ``chainerx.float32``,
...). The creation routines take ChainerX's ``device`` argument, and
``zeros``, ``ones`` and ``empty`` make float32 arrays unless given a dtype,
as ChainerX does. The only device is ``'native:0'``; the device objects are
chainer-core's, so ``chainer.get_device(chainerx.get_device('native:0'))``
is that same device.

Otherwise :func:`is_available` is False, ``ndarray`` is a class no object
is an instance of, and every other name raises AttributeError saying why.
"""
import contextlib
import contextvars

import numpy

import chainer_core

NATIVE = 'native:0'

_native = {}
_default = contextvars.ContextVar('chainerx_default_device', default=None)


def _native_device():
    """chainer-core's ``native:0`` device, or None (looked up once)."""
    if not _native:
        try:
            _native['device'] = chainer_core.get_device(NATIVE)
        except Exception as e:  # any failure of the plugin means "absent"
            _native['device'] = None
            _native['error'] = e
    return _native['device']


def _require():
    device = _native_device()
    if device is None:
        raise RuntimeError('ChainerX is not available: {}'.format(
            _native['error'])) from _native['error']
    return device


def is_available():
    """Whether ChainerX arrays can be made here (chainer-native is
    installed and loads)."""
    return _native_device() is not None


class _NoArray:
    """``chainerx.ndarray`` where ChainerX is not available."""

    def __new__(cls, *args, **kwargs):
        _require()


def __getattr__(name):
    if name.startswith('__'):
        raise AttributeError(name)
    device = _native_device()
    if device is None:
        if name == 'ndarray':
            return _NoArray
        raise AttributeError(
            'module chainerx has no attribute {!r}: ChainerX is not '
            'available ({})'.format(name, _native['error']))
    return getattr(device.xp, name)


def get_device(*device):
    """The device ``get_device('native:0')``, ``get_device('native', 0)``
    or ``get_device(device)`` names."""
    if len(device) == 2:
        device = ('{}:{}'.format(*device),)
    if len(device) != 1:
        raise TypeError('get_device takes a device, a name, or a backend '
                        'name and an index; got {!r}'.format(device))
    native = _require()
    found = chainer_core.get_device(device[0])
    if found is not native:
        raise ValueError('ChainerX has one device here, {}; got {}'.format(
            NATIVE, found.name))
    return native


def _device(device):
    return get_default_device() if device is None else get_device(device)


def get_default_device():
    """The device creation routines use when not given one."""
    return _default.get() or _require()


def set_default_device(device):
    """Make ``device`` the default of the current thread (or context)."""
    _default.set(get_device(device))


@contextlib.contextmanager
def using_device(*device):
    """Make the device the default inside the ``with`` block."""
    token = _default.set(get_device(*device))
    try:
        yield _default.get()
    finally:
        _default.reset(token)


def _xp(device):
    return _device(device).xp


def array(object, dtype=None, copy=True, device=None):
    return _xp(device).array(object, dtype, copy)


def asarray(a, dtype=None, device=None):
    return _xp(device).asarray(a, dtype)


def _float32(dtype):
    return 'float32' if dtype is None else dtype


def zeros(shape, dtype=None, device=None):
    return _xp(device).zeros(shape, _float32(dtype))


def ones(shape, dtype=None, device=None):
    return _xp(device).ones(shape, _float32(dtype))


def empty(shape, dtype=None, device=None):
    return _xp(device).empty(shape, _float32(dtype))


def full(shape, fill_value, dtype=None, device=None):
    return _xp(device).full(shape, fill_value, dtype)


def zeros_like(a, dtype=None, device=None):
    return _xp(device).zeros_like(a, dtype)


def ones_like(a, dtype=None, device=None):
    return _xp(device).ones_like(a, dtype)


def empty_like(a, dtype=None, device=None):
    return _xp(device).empty_like(a, dtype)


def full_like(a, fill_value, dtype=None, device=None):
    return _xp(device).full_like(a, fill_value, dtype)


def arange(*args, dtype=None, device=None):
    return _xp(device).arange(*args, dtype=dtype)


def linspace(start, stop, num=50, endpoint=True, dtype=None, device=None):
    return _xp(device).linspace(start, stop, num, endpoint, dtype=dtype)


def eye(N, M=None, k=0, dtype=None, device=None):
    return _xp(device).eye(N, M, k, dtype)


def identity(n, dtype=None, device=None):
    return _xp(device).identity(n, dtype)


def to_numpy(array, copy=True):
    """A NumPy array of ``array``'s values (a view when ``copy`` is
    False)."""
    return numpy.array(array, copy=True) if copy else numpy.asarray(array)
