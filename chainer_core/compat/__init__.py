"""Running Chainer v7 code unmodified.

``python -m chainer_core.compat SCRIPT [ARGS...]`` runs a script written for
Chainer as ``python SCRIPT [ARGS...]`` would, with ``import chainer``
(and every ``chainer.X`` submodule) resolving to ``chainer_core`` (and
``chainer_core.X``), and ``import chainerx`` to
:mod:`chainer_core.compat.chainerx`, ChainerX's names served by the
``native:0`` device when chainer-native is installed. ``cupy`` is left
alone. ``-c CODE`` and ``-m MODULE`` work as they do for ``python``.

In a running interpreter (a notebook), :func:`install` makes the same names
resolve and :func:`uninstall` undoes it.
"""
import sys

from chainer_core.compat._finder import AliasFinder, target_of

_state = {'finder': None, 'saved': {}}


def _aliased_names():
    return [name for name in sys.modules if target_of(name) is not None]


def install():
    """Make ``import chainer`` and ``import chainerx`` give this package's
    modules in this interpreter.

    Modules already imported under those names (a real Chainer, say) are
    set aside until :func:`uninstall`. Calling it twice is harmless.
    """
    if _state['finder'] is not None:
        return
    _state['saved'] = {name: sys.modules.pop(name)
                       for name in _aliased_names()}
    _state['finder'] = AliasFinder()
    sys.meta_path.insert(0, _state['finder'])


def uninstall():
    """Undo :func:`install`: ``chainer`` and ``chainerx`` are imported from
    wherever they would have been before (modules set aside come back).

    Names the code has already bound (``chainer = ...`` in a namespace)
    keep the modules they were bound to.
    """
    finder = _state['finder']
    if finder is None:
        return
    sys.meta_path.remove(finder)
    for name in _aliased_names():
        del sys.modules[name]
    sys.modules.update(_state['saved'])
    _state['finder'] = None
    _state['saved'] = {}


def is_installed():
    """Whether :func:`install` is in effect."""
    return _state['finder'] is not None
