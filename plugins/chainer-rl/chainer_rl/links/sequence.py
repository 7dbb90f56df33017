"""Sequence: layers applied in order, forwarding keyword arguments to the
layers that accept them."""
import inspect

import chainer_core as chainer

from chainer_rl.recurrent import RecurrentChainMixin


def _accepted_keywords(layer):
    """(names, takes_any) of the keyword arguments ``layer`` accepts."""
    target = layer.forward if isinstance(layer, chainer.Link) else layer
    try:
        params = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return frozenset(), False
    names = frozenset(p.name for p in params
                      if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
    takes_any = any(p.kind == p.VAR_KEYWORD for p in params)
    return names, takes_any


class SequentialBase(chainer.Sequential):
    """A Sequential whose ``copy`` keeps the subclass and its attributes
    (``chainer_core.Sequential.copy`` returns a plain Sequential), for the
    containers built on it here."""

    def copy(self, mode='share'):
        """Copy with ``mode`` as Sequential does, as this class."""
        ret = chainer.Sequential.copy(self, mode)
        for key, value in self.__dict__.items():
            ret.__dict__.setdefault(key, value)
        ret.__class__ = type(self)
        return ret


class Sequence(SequentialBase, RecurrentChainMixin):
    """Links and functions applied one after another.

    ``Sequence(L.Linear(4, 64), F.relu, L.Linear(64, 2))(x)``. Keyword
    arguments of a call go to each layer that names them (or takes
    ``**kwargs``), so a layer deep inside can get ``test=True`` or a
    recurrent state. A layer's output, a tuple included, is the single
    argument of the next layer. Link layers are the children (named by
    their position among the links) and recurrent ones are reset and
    saved through the Recurrent interface.

    Args:
        *layers: callables (links or functions).
    """

    def __init__(self, *layers):
        for i, layer in enumerate(layers):
            if not callable(layer):
                raise TypeError('Sequence: layer {} must be callable, got '
                                '{!r}'.format(i, layer))
        super().__init__(*layers)

    @property
    def layers(self):
        """All layers (links and functions), in order."""
        return list(self)

    def forward(self, x, **kwargs):
        """Apply the layers to ``x``."""
        h = x
        for layer in self:
            if kwargs:
                names, takes_any = _accepted_keywords(layer)
                layer_kwargs = kwargs if takes_any else {
                    k: v for k, v in kwargs.items() if k in names}
                h = layer(h, **layer_kwargs)
            else:
                h = layer(h)
        return h
