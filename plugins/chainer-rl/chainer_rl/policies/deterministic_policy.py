"""Deterministic policies of continuous actions (DDPG, TD3)."""
import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl import _functions
from chainer_rl import distribution
from chainer_rl.links.mlp import MLP
from chainer_rl.links.mlp_bn import MLPBN
from chainer_rl.policies.softmax_policy import check_model
from chainer_rl.policy import Policy
from chainer_rl.recurrent import RecurrentChainMixin


class ContinuousDeterministicPolicy(chainer.Chain, Policy,
                                    RecurrentChainMixin):
    """Policy whose action is its model's output, wrapped in a
    ContinuousDeterministicDistribution.

    Args:
        model (~chainer_core.Link): states -> actions.
        model_call (callable or None): ``(model, x) -> h``, used instead
            of ``model(x)``.
        action_filter (callable or None): applied to the output (bounding
            it, say).
    """

    def __init__(self, model, model_call=None, action_filter=None):
        owner = type(self).__name__
        self.model_call = _arrays.check_callable(owner, 'model_call',
                                                 model_call, allow_none=True)
        self.action_filter = _arrays.check_callable(
            owner, 'action_filter', action_filter, allow_none=True)
        super().__init__()
        with self.init_scope():
            self.model = check_model(owner, model)

    def forward(self, x):
        """ContinuousDeterministicDistribution of the states ``x``."""
        if self.model_call is not None:
            h = self.model_call(self.model, x)
        else:
            h = self.model(x)
        if self.action_filter is not None:
            h = self.action_filter(h)
        return distribution.ContinuousDeterministicDistribution(h)


def _bounding_filter(owner, bound_action, min_action, max_action):
    return _functions.tanh_bounder(owner, 'bound_action', bound_action,
                                   min_action, max_action)


def _fc_policy_sizes(policy, owner, n_input_channels, n_hidden_layers,
                     n_hidden_channels, action_size, min_action, max_action,
                     bound_action):
    """Keep the fully connected policies' arguments as ChainerRL's
    attributes and return their checked hidden layer sizes."""
    sizes = _arrays.hidden_sizes(owner, n_hidden_layers, n_hidden_channels)
    policy.n_input_channels = n_input_channels
    policy.n_hidden_layers = n_hidden_layers
    policy.n_hidden_channels = n_hidden_channels
    policy.action_size = action_size
    policy.min_action = min_action
    policy.max_action = max_action
    policy.bound_action = bound_action
    return sizes


class FCDeterministicPolicy(ContinuousDeterministicPolicy):
    """Fully-connected deterministic policy, bounded by tanh to
    ``[min_action, max_action]`` unless ``bound_action`` is False.

    Args:
        n_input_channels (int): size of a state.
        n_hidden_layers (int): number of hidden layers.
        n_hidden_channels (int): units per hidden layer.
        action_size (int): size of an action.
        min_action, max_action (array or None): bounds (needed when
            ``bound_action``).
        bound_action (bool): squash the output into the bounds.
        nonlinearity (callable): between layers.
        last_wscale (float): scale of the output layer's initial weights.
    """

    def __init__(self, n_input_channels, n_hidden_layers, n_hidden_channels,
                 action_size, min_action=None, max_action=None,
                 bound_action=True, nonlinearity=F.relu, last_wscale=1.):
        owner = 'FCDeterministicPolicy'
        sizes = _fc_policy_sizes(self, owner, n_input_channels,
                                 n_hidden_layers, n_hidden_channels,
                                 action_size, min_action, max_action,
                                 bound_action)
        super().__init__(
            model=MLP(n_input_channels, action_size, sizes,
                      nonlinearity=nonlinearity, last_wscale=last_wscale),
            action_filter=_bounding_filter(owner, bound_action, min_action,
                                           max_action))


class FCBNDeterministicPolicy(ContinuousDeterministicPolicy):
    """FCDeterministicPolicy with batch normalization (DDPG's actor).

    Args:
        n_input_channels (int): size of a state.
        n_hidden_layers (int): number of hidden layers.
        n_hidden_channels (int): units per hidden layer.
        action_size (int): size of an action.
        min_action, max_action (array or None): bounds.
        bound_action (bool): squash the output into the bounds.
        normalize_input (bool): batch-normalize the states.
        nonlinearity (callable): between layers.
        last_wscale (float): scale of the output layer's initial weights.
    """

    def __init__(self, n_input_channels, n_hidden_layers, n_hidden_channels,
                 action_size, min_action=None, max_action=None,
                 bound_action=True, normalize_input=True,
                 nonlinearity=F.relu, last_wscale=1.):
        owner = 'FCBNDeterministicPolicy'
        sizes = _fc_policy_sizes(self, owner, n_input_channels,
                                 n_hidden_layers, n_hidden_channels,
                                 action_size, min_action, max_action,
                                 bound_action)
        self.normalize_input = normalize_input
        super().__init__(
            model=MLPBN(n_input_channels, action_size, sizes,
                        normalize_input=normalize_input,
                        nonlinearity=nonlinearity, last_wscale=last_wscale),
            action_filter=_bounding_filter(owner, bound_action, min_action,
                                           max_action))
