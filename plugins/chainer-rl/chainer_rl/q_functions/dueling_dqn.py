"""Dueling network architectures for Atari (Wang et al., 2016)."""
import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import _arrays
from chainer_rl.action_value import DiscreteActionValue
from chainer_rl.action_value import DistributionalDiscreteActionValue
from chainer_rl.links.mlp import MLP
from chainer_rl.q_function import StateQFunction
from chainer_rl.q_functions.state_q_functions import _linspace_atoms


def _nature_convolutions(n_input_channels, bias):
    return chainer.Sequential(
        L.Convolution2D(n_input_channels, 32, 8, stride=4,
                        initial_bias=bias),
        L.Convolution2D(32, 64, 4, stride=2, initial_bias=bias),
        L.Convolution2D(64, 64, 3, stride=1, initial_bias=bias))


def _subtract_mean_over_actions(advantage, axis=1):
    # The mean advantage is removed so that V and A are identifiable.
    mean = F.mean(advantage, axis=axis, keepdims=True)
    return advantage - F.broadcast_to(mean, advantage.shape)


class DuelingDQN(chainer.Chain, StateQFunction):
    """Dueling Q-network on 84x84 frames:
    ``Q(s, a) = V(s) + A(s, a) - mean_b A(s, b)``.

    Args:
        n_actions (int): number of actions.
        n_input_channels (int): stacked frames per state.
        activation (callable): after each convolution.
        bias (float): initial bias of the convolutions.
    """

    def __init__(self, n_actions, n_input_channels=4, activation=F.relu,
                 bias=0.1):
        owner = 'DuelingDQN'
        self.n_actions = _arrays.check_int(owner, 'n_actions', n_actions, 1)
        self.n_input_channels = _arrays.check_int(
            owner, 'n_input_channels', n_input_channels, 1)
        self.activation = _arrays.check_callable(owner, 'activation',
                                                 activation)
        super().__init__()
        with self.init_scope():
            self.conv_layers = _nature_convolutions(n_input_channels, bias)
            self.a_stream = MLP(3136, n_actions, [512])
            self.v_stream = MLP(3136, 1, [512])

    def forward(self, x):
        """DiscreteActionValue of the frames ``x``."""
        h = x
        for layer in self.conv_layers:
            h = self.activation(layer(h))
        advantage = _subtract_mean_over_actions(self.a_stream(h))
        value = F.broadcast_to(self.v_stream(h), advantage.shape)
        return DiscreteActionValue(advantage + value)


class DistributionalDuelingDQN(chainer.Chain, StateQFunction):
    """Dueling network of return distributions (Rainbow's architecture):
    the logits of each action's atoms are a value stream plus a
    mean-subtracted advantage stream, softmaxed over atoms.

    Args:
        n_actions (int): number of actions.
        n_atoms (int): atoms per distribution.
        v_min, v_max (float): the smallest and largest atom.
        n_input_channels (int): stacked frames per state.
        activation (callable): after each hidden layer.
        bias (float): initial bias of the convolutions.
    """

    def __init__(self, n_actions, n_atoms, v_min, v_max, n_input_channels=4,
                 activation=F.relu, bias=0.1):
        owner = 'DistributionalDuelingDQN'
        z_values = _linspace_atoms(owner, n_atoms, v_min, v_max)
        self.n_actions = _arrays.check_int(owner, 'n_actions', n_actions, 1)
        self.n_atoms = n_atoms
        self.n_input_channels = _arrays.check_int(
            owner, 'n_input_channels', n_input_channels, 1)
        self.activation = _arrays.check_callable(owner, 'activation',
                                                 activation)
        super().__init__()
        self.add_persistent('z_values', z_values)
        with self.init_scope():
            self.conv_layers = _nature_convolutions(n_input_channels, bias)
            self.main_stream = L.Linear(3136, 1024)
            self.a_stream = L.Linear(512, n_actions * n_atoms)
            self.v_stream = L.Linear(512, n_atoms)

    def forward(self, x):
        """DistributionalDiscreteActionValue of the frames ``x``."""
        h = x
        for layer in self.conv_layers:
            h = self.activation(layer(h))
        batch_size = h.shape[0]
        h = self.activation(self.main_stream(h))
        h_a, h_v = F.split_axis(h, 2, axis=1)
        advantage = F.reshape(self.a_stream(h_a),
                              (batch_size, self.n_actions, self.n_atoms))
        advantage = _subtract_mean_over_actions(advantage)
        value = F.reshape(self.v_stream(h_v), (batch_size, 1, self.n_atoms))
        logits = advantage + F.broadcast_to(value, advantage.shape)
        return DistributionalDiscreteActionValue(F.softmax(logits, axis=2),
                                                 self.z_values)
