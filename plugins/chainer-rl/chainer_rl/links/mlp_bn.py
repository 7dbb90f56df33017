"""Multi-layer perceptron with batch normalization (DDPG's networks)."""
import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core.initializers import LeCunNormal

from chainer_rl.links.mlp import keep_mlp_args


class LinearBN(chainer.Chain):
    """A linear layer followed by batch normalization.

    Args:
        in_size (int or None): input size.
        out_size (int): output size.
    """

    def __init__(self, in_size, out_size):
        super().__init__()
        with self.init_scope():
            self.linear = L.Linear(in_size, out_size)
            self.bn = L.BatchNormalization(out_size)

    def forward(self, x):
        """Normalized linear output."""
        return self.bn(self.linear(x))


def _unit_variance_bn(size):
    # A running variance of 1 keeps evaluation before any training step an
    # identity map.
    return L.BatchNormalization(size, initial_avg_var=1)


class MLPBN(chainer.Chain):
    """Fully-connected layers, each followed by batch normalization and the
    nonlinearity (the output layer by neither, unless
    ``normalize_output``).

    Args:
        in_size (int): input size.
        out_size (int): output size.
        hidden_sizes (sequence of int): sizes of the hidden layers.
        normalize_input (bool): batch-normalize the input.
        normalize_output (bool): batch-normalize the output.
        nonlinearity (callable): applied after each hidden layer.
        last_wscale (float): scale of the initial weights of the output
            layer.

    In training mode the batch needs more than one example.
    """

    def __init__(self, in_size, out_size, hidden_sizes, normalize_input=True,
                 normalize_output=False, nonlinearity=F.relu,
                 last_wscale=1):
        keep_mlp_args(self, 'MLPBN', in_size, out_size, hidden_sizes,
                      nonlinearity)
        self.normalize_input = bool(normalize_input)
        self.normalize_output = bool(normalize_output)
        super().__init__()
        sizes = [self.in_size] + self.hidden_sizes
        with self.init_scope():
            if self.normalize_input:
                self.input_bn = _unit_variance_bn(self.in_size)
            if self.hidden_sizes:
                self.hidden_layers = chainer.Sequential(*[
                    LinearBN(n_in, n_out)
                    for n_in, n_out in zip(sizes, sizes[1:])])
            self.output = L.Linear(sizes[-1], self.out_size,
                                   initialW=LeCunNormal(last_wscale))
            if self.normalize_output:
                self.output_bn = _unit_variance_bn(self.out_size)

    def forward(self, x):
        """Output of shape ``(batch_size, out_size)``."""
        if chainer.config.train and x.shape[0] < 2:
            raise ValueError('MLPBN: batch normalization in training mode '
                             'needs a batch of at least 2, got {}'.format(
                                 x.shape[0]))
        h = x
        if self.normalize_input:
            h = self.input_bn(h)
        if self.hidden_sizes:
            for layer in self.hidden_layers:
                h = self.nonlinearity(layer(h))
        h = self.output(h)
        if self.normalize_output:
            h = self.output_bn(h)
        return h
