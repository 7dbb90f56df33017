"""The convolutional torsos of DQN for 84x84 Atari frames."""
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import _arrays
from chainer_rl.links.sequence import SequentialBase


class _Head(SequentialBase):
    """Links applied in order, each followed by the activation; the links
    are ``layers_of(n_input_channels, n_output_channels)``."""

    def __init__(self, owner, layers_of, n_input_channels, n_output_channels,
                 activation):
        n_input_channels = _arrays.check_int(owner, 'n_input_channels',
                                             n_input_channels, 1)
        n_output_channels = _arrays.check_int(owner, 'n_output_channels',
                                              n_output_channels, 1)
        layers = layers_of(n_input_channels, n_output_channels)
        _arrays.check_callable(owner, 'activation', activation)
        super().__init__(*layers)
        self.n_input_channels = n_input_channels
        self.n_output_channels = n_output_channels
        self.activation = activation

    def forward(self, state):
        """Features of shape ``(batch_size, n_output_channels)``."""
        h = state
        for layer in self:
            h = self.activation(layer(h))
        return h


class NatureDQNHead(_Head):
    """DQN's network of the Nature paper (Mnih et al., 2015) without its
    output layer: three convolutions and a 512-unit linear layer.

    Args:
        n_input_channels (int): stacked frames per state.
        n_output_channels (int): size of the features.
        activation (callable): applied after every layer.
        bias (float): initial bias of every layer.
    """

    def __init__(self, n_input_channels=4, n_output_channels=512,
                 activation=F.relu, bias=0.1):
        def layers_of(n_in, n_out):
            return [
                L.Convolution2D(n_in, 32, 8, stride=4, initial_bias=bias),
                L.Convolution2D(32, 64, 4, stride=2, initial_bias=bias),
                L.Convolution2D(64, 64, 3, stride=1, initial_bias=bias),
                L.Linear(3136, n_out, initial_bias=bias),
            ]
        super().__init__('NatureDQNHead', layers_of, n_input_channels,
                         n_output_channels, activation)


class NIPSDQNHead(_Head):
    """DQN's network of the NIPS workshop paper (Mnih et al., 2013) without
    its output layer: two convolutions and a linear layer.

    Args:
        n_input_channels (int): stacked frames per state.
        n_output_channels (int): size of the features.
        activation (callable): applied after every layer.
        bias (float): initial bias of every layer.
    """

    def __init__(self, n_input_channels=4, n_output_channels=256,
                 activation=F.relu, bias=0.1):
        def layers_of(n_in, n_out):
            return [
                L.Convolution2D(n_in, 16, 8, stride=4, initial_bias=bias),
                L.Convolution2D(16, 32, 4, stride=2, initial_bias=bias),
                L.Linear(2592, n_out, initial_bias=bias),
            ]
        super().__init__('NIPSDQNHead', layers_of, n_input_channels,
                         n_output_channels, activation)
