"""Q-functions of state-action pairs (DDPG-style critics)."""
import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core.initializers import LeCunNormal

from chainer_rl import _arrays
from chainer_rl.links.mlp import MLP
from chainer_rl.links.mlp_bn import MLPBN
from chainer_rl.q_function import StateActionQFunction
from chainer_rl.recurrent import RecurrentChainMixin


class SingleModelStateActionQFunction(chainer.Chain, StateActionQFunction,
                                      RecurrentChainMixin):
    """A Q-function that is its model's output.

    Args:
        model (~chainer_core.Link): ``(x, a)`` -> Q-values
            ``(batch_size, 1)``.
    """

    def __init__(self, model):
        if not isinstance(model, chainer.Link):
            raise TypeError('SingleModelStateActionQFunction: model must be '
                            'a Link, got {}'.format(type(model).__name__))
        super().__init__()
        with self.init_scope():
            self.model = model

    def forward(self, x, a):
        """Q-values of ``(x, a)``."""
        return self.model(x, a)


def _fc_sizes(q_func, owner, n_dim_obs, n_dim_action, n_hidden_channels,
              n_hidden_layers):
    """Keep the sizes of a Q-function fed ``(state, action)`` concatenated
    as ChainerRL's attributes and return its hidden layer sizes."""
    n_dim_obs = _arrays.check_int(owner, 'n_dim_obs', n_dim_obs, 1)
    n_dim_action = _arrays.check_int(owner, 'n_dim_action', n_dim_action, 1)
    sizes = _arrays.hidden_sizes(owner, n_hidden_layers, n_hidden_channels)
    q_func.n_input_channels = n_dim_obs + n_dim_action
    q_func.n_hidden_layers = n_hidden_layers
    q_func.n_hidden_channels = n_hidden_channels
    return sizes


class FCSAQFunction(MLP, StateActionQFunction):
    """Fully-connected Q-function of the concatenated state and action.

    Args:
        n_dim_obs (int): size of a state.
        n_dim_action (int): size of an action.
        n_hidden_channels (int): units per hidden layer.
        n_hidden_layers (int): number of hidden layers.
        nonlinearity (callable): between layers (without parameters).
        last_wscale (float): scale of the output layer's initial weights.
    """

    def __init__(self, n_dim_obs, n_dim_action, n_hidden_channels,
                 n_hidden_layers, nonlinearity=F.relu, last_wscale=1.):
        owner = 'FCSAQFunction'
        sizes = _fc_sizes(self, owner, n_dim_obs, n_dim_action,
                          n_hidden_channels, n_hidden_layers)
        super().__init__(in_size=self.n_input_channels, out_size=1,
                         hidden_sizes=sizes, nonlinearity=nonlinearity,
                         last_wscale=last_wscale)

    def forward(self, state, action):
        """Q-values, shape ``(batch_size, 1)``."""
        return MLP.forward(self, F.concat((state, action), axis=1))


class FCLSTMSAQFunction(chainer.Chain, StateActionQFunction,
                        RecurrentChainMixin):
    """Fully-connected layers over ``(state, action)``, an LSTM, then the
    Q-value. The LSTM keeps its state between calls.

    Args:
        n_dim_obs (int): size of a state.
        n_dim_action (int): size of an action.
        n_hidden_channels (int): units per layer.
        n_hidden_layers (int): hidden layers before the LSTM.
        nonlinearity (callable): between layers.
        last_wscale (float): scale of the output layer's initial weights.
    """

    def __init__(self, n_dim_obs, n_dim_action, n_hidden_channels,
                 n_hidden_layers, nonlinearity=F.relu, last_wscale=1.):
        owner = 'FCLSTMSAQFunction'
        sizes = _arrays.hidden_sizes(owner, n_hidden_layers,
                                     n_hidden_channels)
        n_hidden_channels = _arrays.check_int(owner, 'n_hidden_channels',
                                              n_hidden_channels, 1)
        self.n_input_channels = n_dim_obs + n_dim_action
        self.n_hidden_layers = n_hidden_layers
        self.n_hidden_channels = n_hidden_channels
        self.nonlinearity = nonlinearity
        super().__init__()
        with self.init_scope():
            self.fc = MLP(self.n_input_channels, n_hidden_channels, sizes,
                          nonlinearity=nonlinearity)
            self.lstm = L.LSTM(n_hidden_channels, n_hidden_channels)
            self.out = L.Linear(n_hidden_channels, 1,
                                initialW=LeCunNormal(last_wscale))

    def forward(self, x, a):
        """Q-values after one LSTM step."""
        h = self.nonlinearity(self.fc(F.concat((x, a), axis=1)))
        return self.out(self.lstm(h))


class FCBNSAQFunction(MLPBN, StateActionQFunction):
    """Fully-connected Q-function with batch normalization over the
    concatenated state and action.

    Args:
        n_dim_obs (int): size of a state.
        n_dim_action (int): size of an action.
        n_hidden_channels (int): units per hidden layer.
        n_hidden_layers (int): number of hidden layers.
        normalize_input (bool): batch-normalize ``(state, action)``.
        nonlinearity (callable): between layers.
        last_wscale (float): scale of the output layer's initial weights.
    """

    def __init__(self, n_dim_obs, n_dim_action, n_hidden_channels,
                 n_hidden_layers, normalize_input=True, nonlinearity=F.relu,
                 last_wscale=1.):
        owner = 'FCBNSAQFunction'
        sizes = _fc_sizes(self, owner, n_dim_obs, n_dim_action,
                          n_hidden_channels, n_hidden_layers)
        super().__init__(in_size=self.n_input_channels, out_size=1,
                         hidden_sizes=sizes, normalize_input=normalize_input,
                         nonlinearity=nonlinearity, last_wscale=last_wscale)

    def forward(self, state, action):
        """Q-values, shape ``(batch_size, 1)``."""
        return MLPBN.forward(self, F.concat((state, action), axis=1))


class _LateAction(chainer.Chain, StateActionQFunction):
    """The state alone through the first layer, the action joining at the
    second (the DDPG paper's critic)."""

    def _build(self, obs_mlp, n_dim_action, n_hidden_channels,
               n_hidden_layers, nonlinearity, last_wscale):
        self.n_input_channels = None
        self.n_hidden_layers = n_hidden_layers
        self.n_hidden_channels = n_hidden_channels
        self.nonlinearity = nonlinearity
        with self.init_scope():
            self.obs_mlp = obs_mlp
            self.mlp = MLP(n_hidden_channels + n_dim_action, 1,
                           [n_hidden_channels] * (n_hidden_layers - 1),
                           nonlinearity=nonlinearity,
                           last_wscale=last_wscale)
        # A plain reference (set outside init_scope, so not a second child)
        # for code that reaches the output layer by this name.
        self.output = self.mlp.output

    def forward(self, state, action):
        """Q-values, shape ``(batch_size, 1)``."""
        h = self.nonlinearity(self.obs_mlp(state))
        return self.mlp(F.concat((h, action), axis=1))


def _late_action_sizes(owner, n_dim_obs, n_dim_action, n_hidden_channels,
                       n_hidden_layers):
    n_dim_obs = _arrays.check_int(owner, 'n_dim_obs', n_dim_obs, 1)
    n_dim_action = _arrays.check_int(owner, 'n_dim_action', n_dim_action, 1)
    n_hidden_layers = _arrays.check_int(owner, 'n_hidden_layers',
                                        n_hidden_layers, 1)
    n_hidden_channels = _arrays.check_int(owner, 'n_hidden_channels',
                                          n_hidden_channels, 1)
    return n_dim_obs, n_dim_action, n_hidden_channels, n_hidden_layers


class FCLateActionSAQFunction(_LateAction):
    """Fully-connected Q-function where the action joins at the second
    layer.

    Args:
        n_dim_obs (int): size of a state.
        n_dim_action (int): size of an action.
        n_hidden_channels (int): units per hidden layer.
        n_hidden_layers (int): number of hidden layers (at least 1).
        nonlinearity (callable): between layers.
        last_wscale (float): scale of the output layer's initial weights.
    """

    def __init__(self, n_dim_obs, n_dim_action, n_hidden_channels,
                 n_hidden_layers, nonlinearity=F.relu, last_wscale=1.):
        owner = 'FCLateActionSAQFunction'
        n_dim_obs, n_dim_action, n_hidden_channels, n_hidden_layers = \
            _late_action_sizes(owner, n_dim_obs, n_dim_action,
                               n_hidden_channels, n_hidden_layers)
        super().__init__()
        self._build(MLP(n_dim_obs, n_hidden_channels, []),
                    n_dim_action, n_hidden_channels, n_hidden_layers,
                    nonlinearity, last_wscale)
        self.n_input_channels = n_dim_obs + n_dim_action


class FCBNLateActionSAQFunction(_LateAction):
    """As FCLateActionSAQFunction, with batch normalization of the state
    (optional) and of the first layer's output.

    Args:
        n_dim_obs (int): size of a state.
        n_dim_action (int): size of an action.
        n_hidden_channels (int): units per hidden layer.
        n_hidden_layers (int): number of hidden layers (at least 1).
        normalize_input (bool): batch-normalize the state.
        nonlinearity (callable): between layers.
        last_wscale (float): scale of the output layer's initial weights.
    """

    def __init__(self, n_dim_obs, n_dim_action, n_hidden_channels,
                 n_hidden_layers, normalize_input=True, nonlinearity=F.relu,
                 last_wscale=1.):
        owner = 'FCBNLateActionSAQFunction'
        n_dim_obs, n_dim_action, n_hidden_channels, n_hidden_layers = \
            _late_action_sizes(owner, n_dim_obs, n_dim_action,
                               n_hidden_channels, n_hidden_layers)
        self.normalize_input = bool(normalize_input)
        super().__init__()
        self._build(MLPBN(n_dim_obs, n_hidden_channels, [],
                                 normalize_input=normalize_input,
                                 normalize_output=True),
                    n_dim_action, n_hidden_channels, n_hidden_layers,
                    nonlinearity, last_wscale)
        self.n_input_channels = n_dim_obs + n_dim_action
