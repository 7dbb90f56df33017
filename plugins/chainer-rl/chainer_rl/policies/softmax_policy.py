"""Policies of discrete actions by softmax of the model's output."""
import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl import distribution
from chainer_rl.links.mlp import MLP
from chainer_rl.policy import Policy
from chainer_rl.recurrent import RecurrentChainMixin


def check_model(owner, model):
    """``model`` if it is a Link."""
    if not isinstance(model, chainer.Link):
        raise TypeError('{}: model must be a Link, got {}'.format(
            owner, type(model).__name__))
    return model


class SoftmaxPolicy(chainer.Chain, Policy, RecurrentChainMixin):
    """Boltzmann policy over the model's outputs (logits).

    Args:
        model (~chainer_core.Link): states -> ``(batch_size, n_actions)``.
        beta (float): inverse temperature.
        min_prob (float): floor on each action's probability.
    """

    def __init__(self, model, beta=1.0, min_prob=0.0):
        owner = type(self).__name__
        self.beta = _arrays.check_real(owner, 'beta', beta)
        self.min_prob = _arrays.check_real(owner, 'min_prob', min_prob)
        super().__init__()
        with self.init_scope():
            self.model = check_model(owner, model)

    def forward(self, x):
        """SoftmaxDistribution of the states ``x``."""
        return distribution.SoftmaxDistribution(
            self.model(x), beta=self.beta, min_prob=self.min_prob)


class FCSoftmaxPolicy(SoftmaxPolicy):
    """Softmax policy on a fully-connected network.

    Args:
        n_input_channels (int): size of a state.
        n_actions (int): number of actions.
        n_hidden_layers (int): number of hidden layers.
        n_hidden_channels (int): units per hidden layer.
        beta (float): inverse temperature.
        nonlinearity (callable): between layers.
        last_wscale (float): scale of the output layer's initial weights.
        min_prob (float): floor on each action's probability.
    """

    def __init__(self, n_input_channels, n_actions, n_hidden_layers=0,
                 n_hidden_channels=None, beta=1.0, nonlinearity=F.relu,
                 last_wscale=1.0, min_prob=0.0):
        sizes = _arrays.hidden_sizes('FCSoftmaxPolicy', n_hidden_layers,
                                     n_hidden_channels)
        self.n_input_channels = n_input_channels
        self.n_actions = n_actions
        self.n_hidden_layers = n_hidden_layers
        self.n_hidden_channels = n_hidden_channels
        super().__init__(
            model=MLP(n_input_channels, n_actions, sizes,
                      nonlinearity=nonlinearity, last_wscale=last_wscale),
            beta=beta, min_prob=min_prob)
