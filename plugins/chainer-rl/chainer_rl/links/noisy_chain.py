"""Turn the linear layers of a model into NoisyNet layers, in place."""
import chainer_core as chainer
import chainer_core.links as L

from chainer_rl.links.noisy_linear import FactorizedNoisyLinear


def _replace_child(parent, child, new):
    if isinstance(parent, chainer.Sequential):
        for index, layer in enumerate(parent):
            if layer is child:
                parent[index] = new
                return
    elif isinstance(parent, chainer.Chain):
        name = child.name
        delattr(parent, name)
        with parent.init_scope():
            setattr(parent, name, new)
        return
    raise TypeError(
        'to_factorized_noisy: cannot replace {} inside a {}: a plain '
        'ChainList has no way to swap a child; hold the layers in a '
        'chainer_core.Sequential or a Chain instead'.format(
            type(child).__name__, type(parent).__name__))


def _map_links(func, link):
    for child in list(link.children()):
        if isinstance(child, FactorizedNoisyLinear):
            continue
        new = func(child)
        if new is child:
            _map_links(func, child)
        else:
            _replace_child(link, child, new)


def to_factorized_noisy(link, *args, **kwargs):
    """Replace every ``L.Linear`` below ``link`` (not ``link`` itself) by a
    :class:`FactorizedNoisyLinear` built from it with ``*args`` and
    ``**kwargs`` (``sigma_scale``).

    Linear layers held by Chains or by Sequentials (Sequence, MLP, the DQN
    heads) are replaced; one directly inside a plain ChainList raises
    TypeError. Layers already noisy are left alone, so applying it twice
    changes nothing.
    """
    if not isinstance(link, chainer.Link):
        raise TypeError('to_factorized_noisy: link must be a chainer_core '
                        'Link, got {}'.format(type(link).__name__))

    def noisy(child):
        if isinstance(child, L.Linear):
            return FactorizedNoisyLinear(child, *args, **kwargs)
        return child

    _map_links(noisy, link)
