"""The import hook behind :func:`chainer_core.compat.install`."""
import importlib
import importlib.abc
import importlib.util

# Imported name -> the module of this package that serves it. A dotted name
# under one of these maps the same way: ``chainer.links.model.vision`` is
# ``chainer_core.links.model.vision``.
ALIASES = {
    'chainer': 'chainer_core',
    'chainerx': 'chainer_core.compat.chainerx',
}


def target_of(fullname):
    """The module name serving ``fullname``, or None if it is not aliased."""
    top, dot, rest = fullname.partition('.')
    target = ALIASES.get(top)
    if target is None:
        return None
    return target + dot + rest


class _AliasLoader(importlib.abc.Loader):
    """Hands out an already imported module under a second name."""

    def __init__(self, module):
        self._module = module
        self._spec = module.__spec__

    def create_module(self, spec):
        return self._module

    def exec_module(self, module):
        # The import system has just stamped the alias spec on the module;
        # its own spec keeps reload, pickling and ``-m`` working.
        module.__spec__ = self._spec


class AliasFinder(importlib.abc.MetaPathFinder):
    """Resolves ``chainer``, ``chainer.*`` and ``chainerx`` to this
    package's modules, so that the module objects are shared: ``chainer.Link
    is chainer_core.Link``."""

    def find_spec(self, fullname, path=None, target=None):
        real = target_of(fullname)
        if real is None:
            return None
        try:
            module = importlib.import_module(real)
        except ModuleNotFoundError as e:
            if e.name != real:
                raise  # the module exists, but something it imports does not
            return None
        return importlib.util.spec_from_loader(
            fullname, _AliasLoader(module),
            is_package=hasattr(module, '__path__'))
