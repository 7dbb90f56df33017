"""The array namespace of ``@intel64``: NumPy, with arrays made on the
device.

Arrays on ``@intel64`` are :class:`~chainer_mkldnn.mdarray`. Ufuncs and
most array methods keep that type by themselves, but NumPy functions that
build new arrays (``zeros``, ``asarray``, ``concatenate``, ``where``,
``random.*``, ...) return plain ``ndarray``, which belong to ``@numpy``.
Code that creates arrays through a device's ``xp`` (as chainer-core's ops
do) expects them on that device, as CuPy's functions are; so every
function here returns ``mdarray`` where NumPy's returns a plain
``ndarray`` (also inside a returned tuple or list). Types (``ndarray``,
``float32``, ...) and ufuncs (with ``.at``, ``.reduce``) are NumPy's own.
"""
import functools
import types

import numpy

from chainer_mkldnn import mdarray

_PLAIN = numpy.ndarray


def _on_device(result):
    t = type(result)
    if t is _PLAIN:
        return result.view(mdarray)
    if t is tuple or t is list:
        return t(_on_device(v) for v in result)
    return result


def _wrap(fn):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        return _on_device(fn(*args, **kwargs))
    return call


class Namespace(types.ModuleType):
    """A lazily filled mirror of a NumPy module."""

    def __init__(self, name, source):
        super().__init__(name, source.__doc__)
        self._source = source

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        value = getattr(self._source, name)
        if isinstance(value, types.ModuleType):
            if value.__name__.startswith('numpy'):
                value = Namespace('{}.{}'.format(self.__name__, name), value)
        elif callable(value) and not isinstance(value, (type, numpy.ufunc)):
            value = _wrap(value)
        self.__dict__[name] = value
        return value

    def __dir__(self):
        return sorted(set(dir(self._source)) | set(self.__dict__))

    def __repr__(self):
        return '<array namespace {} (NumPy {})>'.format(
            self.__name__, numpy.__version__)


xp = Namespace('chainer_mkldnn.xp', numpy)
