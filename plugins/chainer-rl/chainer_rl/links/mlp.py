"""Multi-layer perceptron, the body of most fully-connected models."""
import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core.initializers import LeCunNormal

from chainer_rl import _arrays


def hidden_sizes_list(owner, hidden_sizes):
    """``hidden_sizes`` as a list of positive ints."""
    try:
        sizes = list(hidden_sizes)
    except TypeError:
        raise TypeError('{}: hidden_sizes must be a sequence of ints, got '
                        '{!r}'.format(owner, hidden_sizes)) from None
    return [_arrays.check_int(owner, 'hidden_sizes[{}]'.format(i), s, 1)
            for i, s in enumerate(sizes)]


def keep_mlp_args(link, owner, in_size, out_size, hidden_sizes,
                  nonlinearity, lazy_in_size=False):
    """Check the perceptrons' shared arguments and keep them as ChainerRL's
    attributes of ``link``; ``in_size`` may be None if
    ``lazy_in_size``."""
    if in_size is not None or not lazy_in_size:
        in_size = _arrays.check_int(owner, 'in_size', in_size, 1)
    out_size = _arrays.check_int(owner, 'out_size', out_size, 1)
    hidden_sizes = hidden_sizes_list(owner, hidden_sizes)
    _arrays.check_callable(owner, 'nonlinearity', nonlinearity)
    link.in_size = in_size
    link.out_size = out_size
    link.hidden_sizes = hidden_sizes
    link.nonlinearity = nonlinearity


class MLP(chainer.Chain):
    """Fully-connected layers with a nonlinearity between them (none after
    the last).

    Args:
        in_size (int or None): input size (None infers it on the first
            call).
        out_size (int): output size.
        hidden_sizes (sequence of int): sizes of the hidden layers.
        nonlinearity (callable): applied after each hidden layer.
        last_wscale (float): scale of the LeCun-normal initial weights of
            the output layer (small values start a policy or value head
            near zero).

    Parameters are named ``hidden_layers/<i>/W`` and ``output/W`` as in
    ChainerRL, so its snapshots load.
    """

    def __init__(self, in_size, out_size, hidden_sizes,
                 nonlinearity=F.relu, last_wscale=1):
        keep_mlp_args(self, 'MLP', in_size, out_size, hidden_sizes,
                      nonlinearity, lazy_in_size=True)
        super().__init__()
        sizes = [self.in_size] + self.hidden_sizes
        with self.init_scope():
            if self.hidden_sizes:
                # A Sequential (not a plain ChainList) so that
                # to_factorized_noisy can swap its layers.
                self.hidden_layers = chainer.Sequential(*[
                    L.Linear(n_in, n_out)
                    for n_in, n_out in zip(sizes, sizes[1:])])
            self.output = L.Linear(sizes[-1], self.out_size,
                                   initialW=LeCunNormal(last_wscale))

    def forward(self, x):
        """Output of shape ``(batch_size, out_size)``."""
        h = x
        if self.hidden_sizes:
            for layer in self.hidden_layers:
                h = self.nonlinearity(layer(h))
        return self.output(h)
