"""Sequential: a chain of callables applied in order."""
import copy as copy_module
import inspect

from chainer_core.link import ChainList, Link


def _layer_type_name(layer):
    if isinstance(layer, Link):
        return type(layer).__name__
    return getattr(layer, '__name__', type(layer).__name__)


def _is_lambda(layer):
    return getattr(layer, '__name__', None) == '<lambda>'


class Sequential(ChainList):
    """Apply links and plain functions one after another.

    ``Sequential(L.Linear(None, 100), F.relu, L.Linear(100, 10))``; links
    are registered as children (their parameters are the model's, named
    by their position among the links: ``/0/W``, ``/1/W``), other callables
    are layers without parameters. A layer returning a tuple passes its
    elements as the positional arguments of the next.

    Supports the list operations: indexing, ``len``, iteration, ``in``,
    ``append``, ``extend``, ``insert``, ``pop``, ``remove``, ``del``,
    ``index``, ``count``, ``clear``, ``+`` and ``+=`` (with another
    Sequential).

    Args:
        layers: callables (links, functions) in the order they are applied.
    """

    def __init__(self, *layers):
        super().__init__()
        self._layers = []
        for layer in layers:
            self.append(layer)

    def _sync_children(self):
        self._children = [layer for layer in self._layers
                          if isinstance(layer, Link)]
        for idx, link in enumerate(self._children):
            link.name = str(idx)

    @staticmethod
    def _check_layer(layer):
        if not callable(layer):
            raise ValueError('Sequential: every layer must be callable, but '
                             '{!r} is not'.format(layer))

    # -- list interface -------------------------------------------------

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        return self._layers[i]

    def __setitem__(self, i, layer):
        self._check_layer(layer)
        self._layers[i] = layer
        self._sync_children()

    def __delitem__(self, i):
        del self._layers[i]
        self._sync_children()

    def __iter__(self):
        return iter(self._layers)

    def __reversed__(self):
        return reversed(self._layers)

    def __contains__(self, layer):
        return layer in self._layers

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError('add (+) operator supports only objects of the '
                             'Sequential class, but {} is given'.format(
                                 type(other)))
        ret = Sequential()
        ret.extend(self)
        ret.extend(other)
        return ret

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError('add (+) operator supports only objects of the '
                             'Sequential class, but {} is given'.format(
                                 type(other)))
        self.extend(list(other))
        return self

    def append(self, layer):
        """Add ``layer`` (a link or any callable) at the end."""
        self.insert(len(self._layers), layer)

    def extend(self, layers):
        """Append each of ``layers`` (an iterable, e.g. a Sequential)."""
        for layer in layers:
            self.append(layer)

    def insert(self, i, layer):
        """Insert ``layer`` before position ``i``."""
        self._check_layer(layer)
        n = len(self._layers)
        if not -n <= i <= n:
            raise IndexError('Sequential.insert: index {} is out of range '
                             'for {} layers'.format(i, n))
        self._layers.insert(i, layer)
        self._sync_children()

    def pop(self, i=-1):
        """Remove the layer at ``i`` and return it."""
        layer = self._layers[i]
        del self[i]
        return layer

    def remove(self, layer):
        """Remove the first occurrence of ``layer``."""
        if layer not in self._layers:
            raise ValueError('Sequential.remove: there is no layer {!r}'
                             .format(layer))
        del self[self._layers.index(layer)]

    def clear(self):
        """Remove every layer."""
        self._layers = []
        self._sync_children()

    def index(self, layer, start=None, end=None):
        """The position of ``layer`` within ``[start, end)``."""
        i = self._layers[start:end].index(layer)
        if start is not None:
            i += start if start >= 0 else max(len(self._layers) + start, 0)
        return i

    def count(self, layer):
        """How many times ``layer`` occurs."""
        return self._layers.count(layer)

    def count_by_layer_type(self, type_name):
        """The number of layers whose class name (links) or function name
        (other callables) is ``type_name``."""
        return sum(1 for layer in self._layers
                   if _layer_type_name(layer) == type_name)

    def remove_by_layer_type(self, type_name):
        """Remove every layer whose class name (links) or function name
        (other callables) is ``type_name``."""
        self._layers = [layer for layer in self._layers
                        if _layer_type_name(layer) != type_name]
        self._sync_children()

    def flatten(self):
        """A Sequential with nested Sequentials replaced by their layers."""
        ret = Sequential()
        for layer in self._layers:
            if isinstance(layer, Sequential):
                ret.extend(layer.flatten())
            else:
                ret.append(layer)
        return ret

    # -- links ----------------------------------------------------------

    def add_link(self, link):
        """Append ``link`` as a layer."""
        if not isinstance(link, Link):
            raise TypeError('cannot register a non-link object as a child, '
                            'got {}'.format(type(link).__name__))
        self.append(link)

    def forward(self, *x):
        """Apply the layers in order to ``x``."""
        if not self._layers:
            raise RuntimeError('Sequential does not have any layer')
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    def copy(self, mode='share'):
        """A new Sequential of copies (with ``mode``) of the links and
        shallow copies of the other layers."""
        from chainer_core.link import _check_copy_mode
        _check_copy_mode(mode)
        ret = Sequential()
        for layer in self._layers:
            if isinstance(layer, Link):
                ret.append(layer.copy(mode))
            else:
                ret.append(copy_module.copy(layer))
        return ret

    def copyparams(self, link, copy_persistent=True):
        """Copy the parameters of the links of the Sequential ``link``,
        position by position."""
        if not isinstance(link, Sequential):
            raise ValueError('Sequential.copyparams: the source must be a '
                             'Sequential, got {}'.format(type(link).__name__))
        for idx, layer in enumerate(self._layers):
            if isinstance(layer, Link):
                layer.copyparams(link[idx], copy_persistent)

    def __str__(self):
        lines = []
        for idx, layer in enumerate(self._layers):
            rep = None
            if _is_lambda(layer):
                try:
                    rep = inspect.getsource(layer).strip().rstrip(',')
                except (OSError, TypeError):
                    rep = None
            if rep is None:
                rep = str(layer)
            for line in '({}): {},'.format(idx, rep).splitlines():
                lines.append('  {}\n'.format(line))
        body = ''.join(lines)
        if body:
            body = '\n' + body
        return '{}({})'.format(type(self).__name__, body)
