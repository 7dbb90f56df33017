"""Q-functions of states, returning action values for all actions."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import _arrays
from chainer_rl import _functions
from chainer_rl.action_value import DiscreteActionValue
from chainer_rl.action_value import DistributionalDiscreteActionValue
from chainer_rl.action_value import QuadraticActionValue
from chainer_rl.links.mlp import MLP
from chainer_rl.links.sequence import Sequence
from chainer_rl.q_function import StateQFunction
from chainer_rl.recurrent import RecurrentChainMixin


def scale_by_tanh(x, low, high):
    """Squash ``x`` into ``[low, high]`` by tanh (NAF's greedy action)."""
    return _functions.bound_by_tanh(x, low, high)


def _check_model(owner, model):
    if not isinstance(model, chainer.Link):
        raise TypeError('{}: model must be a Link, got {}'.format(
            owner, type(model).__name__))
    return model


class SingleModelStateQFunctionWithDiscreteAction(
        chainer.Chain, StateQFunction, RecurrentChainMixin):
    """Q-function whose model outputs one Q-value per action.

    Args:
        model (~chainer_core.Link): states -> ``(batch_size, n_actions)``.
    """

    def __init__(self, model):
        super().__init__()
        with self.init_scope():
            self.model = _check_model(type(self).__name__, model)

    def forward(self, x):
        """DiscreteActionValue of the states ``x``."""
        return DiscreteActionValue(self.model(x))


class FCStateQFunctionWithDiscreteAction(
        SingleModelStateQFunctionWithDiscreteAction):
    """Fully-connected Q-function of discrete actions.

    Args:
        ndim_obs (int): size of a state.
        n_actions (int): number of actions.
        n_hidden_channels (int): units per hidden layer.
        n_hidden_layers (int): number of hidden layers.
        nonlinearity (callable): between layers.
        last_wscale (float): scale of the output layer's initial weights.
    """

    def __init__(self, ndim_obs, n_actions, n_hidden_channels,
                 n_hidden_layers, nonlinearity=F.relu, last_wscale=1.0):
        sizes = _arrays.hidden_sizes('FCStateQFunctionWithDiscreteAction',
                                     n_hidden_layers, n_hidden_channels)
        super().__init__(model=MLP(ndim_obs, n_actions, sizes,
                                   nonlinearity=nonlinearity,
                                   last_wscale=last_wscale))


class DistributionalSingleModelStateQFunctionWithDiscreteAction(
        chainer.Chain, StateQFunction, RecurrentChainMixin):
    """Distributional Q-function whose model outputs, per action, the
    probabilities of the atoms ``z_values``.

    Args:
        model (~chainer_core.Link): states ->
            ``(batch_size, n_actions, n_atoms)`` probabilities.
        z_values (array): returns of the atoms, shape ``(n_atoms,)``; kept
            as a persistent value (saved and moved with the model).
    """

    def __init__(self, model, z_values):
        owner = type(self).__name__
        super().__init__()
        z_values = numpy.asarray(_arrays.to_host(z_values))
        if z_values.ndim != 1 or z_values.dtype.kind != 'f':
            raise ValueError('{}: z_values must be a 1-D float array, got '
                             'shape {} and dtype {}'.format(
                                 owner, z_values.shape, z_values.dtype))
        with self.init_scope():
            self.model = _check_model(owner, model)
        self.add_persistent('z_values', z_values)

    def forward(self, x):
        """DistributionalDiscreteActionValue of the states ``x``."""
        return DistributionalDiscreteActionValue(self.model(x),
                                                 self.z_values)


def _linspace_atoms(owner, n_atoms, v_min, v_max):
    n_atoms = _arrays.check_int(owner, 'n_atoms', n_atoms, 2)
    v_min = _arrays.check_real(owner, 'v_min', v_min)
    v_max = _arrays.check_real(owner, 'v_max', v_max)
    if not v_min < v_max:
        raise ValueError('{}: v_min must be below v_max, got v_min={}, '
                         'v_max={}'.format(owner, v_min, v_max))
    return numpy.linspace(v_min, v_max, num=n_atoms, dtype=numpy.float32)


class DistributionalFCStateQFunctionWithDiscreteAction(
        DistributionalSingleModelStateQFunctionWithDiscreteAction):
    """Fully-connected distributional Q-function (C51) with atoms evenly
    spaced over ``[v_min, v_max]``.

    Args:
        ndim_obs (int): size of a state.
        n_actions (int): number of actions.
        n_atoms (int): atoms of each return distribution (at least 2).
        v_min, v_max (float): the smallest and largest atom.
        n_hidden_channels (int): units per hidden layer.
        n_hidden_layers (int): number of hidden layers.
        nonlinearity (callable): between layers.
        last_wscale (float): scale of the output layer's initial weights.
    """

    def __init__(self, ndim_obs, n_actions, n_atoms, v_min, v_max,
                 n_hidden_channels, n_hidden_layers, nonlinearity=F.relu,
                 last_wscale=1.0):
        owner = 'DistributionalFCStateQFunctionWithDiscreteAction'
        z_values = _linspace_atoms(owner, n_atoms, v_min, v_max)
        n_actions = _arrays.check_int(owner, 'n_actions', n_actions, 1)
        sizes = _arrays.hidden_sizes(owner, n_hidden_layers,
                                     n_hidden_channels)
        self.n_actions = n_actions
        self.n_atoms = n_atoms
        model = Sequence(
            MLP(ndim_obs, n_actions * n_atoms, sizes,
                nonlinearity=nonlinearity, last_wscale=last_wscale),
            lambda h: F.reshape(h, (-1, n_actions, n_atoms)),
            lambda h: F.softmax(h, axis=2),
        )
        super().__init__(model=model, z_values=z_values)


class FCLSTMStateQFunction(chainer.Chain, StateQFunction,
                           RecurrentChainMixin):
    """Fully-connected layers, an LSTM, then one Q-value per action.

    The LSTM keeps its state between calls (reset it with
    ``reset_state``).

    Args:
        n_dim_obs (int): size of a state.
        n_dim_action (int): number of actions.
        n_hidden_channels (int): units per layer.
        n_hidden_layers (int): hidden layers before the LSTM.
    """

    def __init__(self, n_dim_obs, n_dim_action, n_hidden_channels,
                 n_hidden_layers):
        owner = 'FCLSTMStateQFunction'
        sizes = _arrays.hidden_sizes(owner, n_hidden_layers,
                                     n_hidden_channels)
        n_hidden_channels = _arrays.check_int(owner, 'n_hidden_channels',
                                              n_hidden_channels, 1)
        self.n_input_channels = n_dim_obs
        self.n_hidden_layers = n_hidden_layers
        self.n_hidden_channels = n_hidden_channels
        super().__init__()
        with self.init_scope():
            self.fc = MLP(n_dim_obs, n_hidden_channels, sizes)
            self.lstm = L.LSTM(n_hidden_channels, n_hidden_channels)
            self.out = L.Linear(n_hidden_channels, n_dim_action)

    def forward(self, x):
        """DiscreteActionValue after one LSTM step."""
        h = F.relu(self.fc(x))
        h = self.lstm(h)
        return DiscreteActionValue(self.out(h))


class FCQuadraticStateQFunction(chainer.Chain, StateQFunction):
    """NAF's fully-connected Q-function of continuous actions:
    ``Q(s, a) = -0.5 (a - mu)^T P (a - mu) + V(s)`` with ``P = L L^T``,
    ``L`` lower-triangular with a positive (exponentiated) diagonal.

    Args:
        n_input_channels (int): size of a state.
        n_dim_action (int): size of an action.
        n_hidden_channels (int): units per hidden layer.
        n_hidden_layers (int): number of hidden layers (at least 1).
        action_space: a Box-like space (``low``, ``high``) bounding the
            greedy action.
        scale_mu (bool): squash ``mu`` into the action box by tanh.
    """

    def __init__(self, n_input_channels, n_dim_action, n_hidden_channels,
                 n_hidden_layers, action_space, scale_mu=True):
        owner = 'FCQuadraticStateQFunction'
        n_input_channels = _arrays.check_int(owner, 'n_input_channels',
                                             n_input_channels, 1)
        n_dim_action = _arrays.check_int(owner, 'n_dim_action',
                                         n_dim_action, 1)
        n_hidden_layers = _arrays.check_int(owner, 'n_hidden_layers',
                                            n_hidden_layers, 1)
        n_hidden_channels = _arrays.check_int(owner, 'n_hidden_channels',
                                              n_hidden_channels, 1)
        if action_space is None or not hasattr(action_space, 'low') or \
                not hasattr(action_space, 'high'):
            raise TypeError('{}: action_space must have low and high (a Box),'
                            ' got {!r}'.format(owner, action_space))
        self.n_input_channels = n_input_channels
        self.n_hidden_layers = n_hidden_layers
        self.n_hidden_channels = n_hidden_channels
        self.n_dim_action = n_dim_action
        self.action_space = action_space
        self.scale_mu = bool(scale_mu)
        super().__init__()
        sizes = [n_input_channels] + [n_hidden_channels] * n_hidden_layers
        with self.init_scope():
            self.hidden_layers = chainer.Sequential(*[
                L.Linear(n_in, n_out) for n_in, n_out in zip(sizes,
                                                             sizes[1:])])
            self.v = L.Linear(n_hidden_channels, 1)
            self.mu = L.Linear(n_hidden_channels, n_dim_action)
            self.mat_diag = L.Linear(n_hidden_channels, n_dim_action)
            non_diag_size = n_dim_action * (n_dim_action - 1) // 2
            if non_diag_size > 0:
                self.mat_non_diag = L.Linear(n_hidden_channels,
                                             non_diag_size)

    def forward(self, state):
        """QuadraticActionValue of the states."""
        h = state
        for layer in self.hidden_layers:
            h = F.relu(layer(h))
        v = self.v(h)
        mu = self.mu(h)
        if self.scale_mu:
            mu = scale_by_tanh(mu, low=self.action_space.low,
                               high=self.action_space.high)
        mat_diag = F.exp(self.mat_diag(h))
        if self.n_dim_action > 1:
            tril = _functions.lower_triangular_matrix(
                mat_diag, self.mat_non_diag(h))
            mat = F.matmul(tril, tril, transb=True)
        else:
            mat = F.expand_dims(mat_diag ** 2, axis=2)
        return QuadraticActionValue(mu, mat, v,
                                    min_action=self.action_space.low,
                                    max_action=self.action_space.high)
