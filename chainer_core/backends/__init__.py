"""Backend utility modules: ``backends.cuda`` (CuPy) and
``backends.intel64`` (oneDNN), as in Chainer.

The modules are imported on first access, so that ``import chainer_core``
does not import CuPy.
"""
import importlib

_SUBMODULES = ('cuda', 'intel64')


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module('chainer_core.backends.' + name)
    raise AttributeError('module {!r} has no attribute {!r}'.format(
        __name__, name))


def __dir__():
    return sorted(list(globals()) + list(_SUBMODULES))
