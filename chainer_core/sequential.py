"""Sequential: a chain of callables applied in order."""
from chainer_core.link import ChainList, Link


class Sequential(ChainList):
    """Apply links and plain functions one after another.

    ``Sequential(L.Linear(None, 100), F.relu, L.Linear(100, 10))``; links
    are registered as children (their parameters are the model's), other
    callables are kept as layers without parameters.
    """

    def __init__(self, *layers):
        super().__init__()
        self._layers = []
        for layer in layers:
            self.append(layer)

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        return self._layers[i]

    def __iter__(self):
        return iter(self._layers)

    def _rebuild(self, layers):
        self._children = []
        self._layers = []
        for layer in layers:
            self.append(layer)

    def append(self, layer):
        """Add ``layer`` (a link or any callable) at the end."""
        if not callable(layer):
            raise TypeError('Sequential: layers must be callable, got {}'
                            .format(type(layer).__name__))
        if isinstance(layer, Link):
            self.add_link(layer)
        self._layers.append(layer)

    def insert(self, i, layer):
        layers = list(self._layers)
        layers.insert(i, layer)
        self._rebuild(layers)

    def extend(self, layers):
        for layer in layers:
            self.append(layer)

    def pop(self, i=-1):
        layers = list(self._layers)
        removed = layers.pop(i)
        self._rebuild(layers)
        return removed

    def remove(self, layer):
        layers = list(self._layers)
        layers.remove(layer)
        self._rebuild(layers)

    def __delitem__(self, i):
        layers = list(self._layers)
        del layers[i]
        self._rebuild(layers)

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise TypeError('can only concatenate Sequential to Sequential')
        return Sequential(*(list(self._layers) + list(other._layers)))

    def forward(self, *x):
        if not self._layers:
            raise RuntimeError('Sequential has no layers')
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    def copy(self, mode='share'):
        ret = Sequential()
        for layer in self._layers:
            ret.append(layer.copy(mode) if isinstance(layer, Link)
                       else layer)
        return ret

    def __repr__(self):
        lines = ['Sequential(']
        for i, layer in enumerate(self._layers):
            name = getattr(layer, '__name__', None) or repr(layer)
            lines.append('  ({}): {},'.format(i, name.replace('\n', '\n  ')))
        lines.append(')')
        return '\n'.join(lines)
