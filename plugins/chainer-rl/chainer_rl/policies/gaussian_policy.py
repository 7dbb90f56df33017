"""Gaussian policies of continuous actions (PPO, TRPO, A3C)."""
from abc import abstractmethod

import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core.initializers import LeCunNormal

from chainer_rl import _arrays
from chainer_rl import _functions
from chainer_rl import distribution
from chainer_rl.links.sequence import Sequence
from chainer_rl.policy import Policy

_VAR_TYPES = ('spherical', 'diagonal')


def _var_size(owner, var_type, action_size):
    _arrays.check_choice(owner, 'var_type', var_type, _VAR_TYPES)
    return 1 if var_type == 'spherical' else action_size


def _mean_bounder(owner, bound_mean, min_action, max_action):
    return _functions.tanh_bounder(owner, 'bound_mean', bound_mean,
                                   min_action, max_action)


class GaussianPolicy(Policy):
    """A policy returning GaussianDistribution from
    ``compute_mean_and_var``."""

    @abstractmethod
    def compute_mean_and_var(self, x):
        """Means and variances, each ``(batch_size, action_size)``."""

    def __call__(self, x):
        mean, var = self.compute_mean_and_var(x)
        return distribution.GaussianDistribution(mean, var)


class _ForwardMeanAndVar(object):
    """Ahead of the chainer_core base, whose ``forward`` would otherwise
    win: the Gaussian of ``compute_mean_and_var``."""

    def forward(self, x):
        """GaussianDistribution of the states ``x``."""
        mean, var = self.compute_mean_and_var(x)
        return distribution.GaussianDistribution(mean, var)


class _MeanAndVarLayers(_ForwardMeanAndVar):
    """For ChainLists whose first two children are the mean layer and the
    variance layer (ChainerRL's parameter names)."""

    @property
    def mean_layer(self):
        """The layer giving the means."""
        return self[0]

    @property
    def var_layer(self):
        """The layer giving the variances."""
        return self[1]


def _fc_sizes(policy, owner, n_input_channels, action_size, n_hidden_layers,
              n_hidden_channels, min_action, max_action, bound_mean,
              nonlinearity):
    """Check and keep the fully connected Gaussian policies' shared
    arguments as ChainerRL's attributes; return the hidden layer sizes."""
    sizes = _arrays.hidden_sizes(owner, n_hidden_layers, n_hidden_channels)
    policy.n_input_channels = n_input_channels
    policy.action_size = _arrays.check_int(owner, 'action_size',
                                           action_size, 1)
    policy.n_hidden_layers = n_hidden_layers
    policy.n_hidden_channels = n_hidden_channels
    policy.min_action = min_action
    policy.max_action = max_action
    policy.bound_mean = bound_mean
    policy.nonlinearity = _arrays.check_callable(owner, 'nonlinearity',
                                                 nonlinearity)
    return sizes


class FCGaussianPolicy(_MeanAndVarLayers, chainer.ChainList,
                       GaussianPolicy):
    """Fully-connected Gaussian policy with a mean layer and a variance
    layer on shared hidden layers.

    The mean is the mean layer's output ``y`` (or, with ``bound_mean``,
    ``mid + tanh(y) * half_width`` of the action box); the variance is
    ``softplus(v) + min_var`` of the variance layer's output ``v``.

    Args:
        n_input_channels (int): size of a state.
        action_size (int): size of an action.
        n_hidden_layers (int): number of hidden layers.
        n_hidden_channels (int): units per hidden layer.
        min_action, max_action (array or None): bounds for ``bound_mean``.
        bound_mean (bool): squash the mean into the bounds.
        var_type (str): ``'spherical'`` (one variance per state) or
            ``'diagonal'`` (one per action dimension).
        nonlinearity (callable): between layers.
        mean_wscale, var_wscale (float): scales of the initial weights of
            the mean and variance layers.
        var_bias (float): initial bias of the variance layer.
        min_var (float): floor added to the variance.

    Its children are the mean layer, the variance layer, then the hidden
    layers (ChainerRL's parameter names).
    """

    def __init__(self, n_input_channels, action_size, n_hidden_layers=0,
                 n_hidden_channels=None, min_action=None, max_action=None,
                 bound_mean=False, var_type='spherical', nonlinearity=F.relu,
                 mean_wscale=1, var_wscale=1, var_bias=0, min_var=0):
        owner = 'FCGaussianPolicy'
        sizes = _fc_sizes(self, owner, n_input_channels, action_size,
                          n_hidden_layers, n_hidden_channels, min_action,
                          max_action, bound_mean, nonlinearity)
        self.min_var = _arrays.check_real(owner, 'min_var', min_var)
        self._bound = _mean_bounder(owner, bound_mean, min_action,
                                    max_action)
        var_size = _var_size(owner, var_type, action_size)
        ins = [n_input_channels] + sizes
        hidden = [L.Linear(n_in, n_out) for n_in, n_out in zip(ins, ins[1:])]
        mean_layer = L.Linear(ins[-1], action_size,
                              initialW=LeCunNormal(mean_wscale))
        var_layer = L.Linear(ins[-1], var_size,
                             initialW=LeCunNormal(var_wscale),
                             initial_bias=var_bias)
        super().__init__(mean_layer, var_layer, *hidden)

    @property
    def hidden_layers(self):
        """The hidden layers, in order."""
        return list(self)[2:]

    def compute_mean_and_var(self, x):
        """Means and variances of the action distributions."""
        h = x
        for layer in self.hidden_layers:
            h = self.nonlinearity(layer(h))
        mean = self.mean_layer(h)
        if self._bound is not None:
            mean = self._bound(mean)
        var = F.broadcast_to(F.softplus(self.var_layer(h)), mean.shape)
        return mean, var + self.min_var


def _mean_layers(n_input_channels, action_size, sizes, nonlinearity,
                 mean_wscale, bound):
    """Hidden layers with the nonlinearity, then the mean layer (and the
    bound), as one list of layers."""
    ins = [n_input_channels] + sizes
    layers = []
    for n_in, n_out in zip(ins, ins[1:]):
        layers.append(L.Linear(n_in, n_out))
        layers.append(nonlinearity)
    layers.append(L.Linear(ins[-1], action_size,
                           initialW=LeCunNormal(mean_wscale)))
    if bound is not None:
        layers.append(bound)
    return layers


class FCGaussianPolicyWithStateIndependentCovariance(_ForwardMeanAndVar,
                                                     chainer.Chain,
                                                     GaussianPolicy):
    """Fully-connected mean with a learned variance that does not depend
    on the state: ``var = var_func(var_param)``.

    Args:
        n_input_channels (int): size of a state.
        action_size (int): size of an action.
        n_hidden_layers (int): number of hidden layers.
        n_hidden_channels (int): units per hidden layer.
        min_action, max_action (array or None): bounds for ``bound_mean``.
        bound_mean (bool): squash the mean into the bounds.
        var_type (str): ``'spherical'`` or ``'diagonal'``.
        nonlinearity (callable): between layers.
        mean_wscale (float): scale of the mean layer's initial weights.
        var_func (callable): maps the parameter to positive variances.
        var_param_init (float): initial value of the parameter.
    """

    def __init__(self, n_input_channels, action_size, n_hidden_layers=0,
                 n_hidden_channels=None, min_action=None, max_action=None,
                 bound_mean=False, var_type='spherical', nonlinearity=F.relu,
                 mean_wscale=1, var_func=F.softplus, var_param_init=0):
        owner = 'FCGaussianPolicyWithStateIndependentCovariance'
        sizes = _fc_sizes(self, owner, n_input_channels, action_size,
                          n_hidden_layers, n_hidden_channels, min_action,
                          max_action, bound_mean, nonlinearity)
        self.var_func = _arrays.check_callable(owner, 'var_func', var_func)
        var_size = _var_size(owner, var_type, action_size)
        bound = _mean_bounder(owner, bound_mean, min_action, max_action)
        super().__init__()
        with self.init_scope():
            self.hidden_layers = Sequence(*_mean_layers(
                n_input_channels, action_size, sizes, nonlinearity,
                mean_wscale, bound))
            self.var_param = chainer.Parameter(
                initializer=_arrays.check_real(owner, 'var_param_init',
                                               var_param_init),
                shape=(var_size,))

    def compute_mean_and_var(self, x):
        """Means and the (state-independent) variances."""
        mean = self.hidden_layers(x)
        var = F.broadcast_to(self.var_func(self.var_param), mean.shape)
        return mean, var


class FCGaussianPolicyWithFixedCovariance(Sequence, GaussianPolicy):
    """Fully-connected mean with a given, fixed variance.

    Args:
        n_input_channels (int): size of a state.
        action_size (int): size of an action.
        var (float or array): the variance (per action dimension, or one
            for all).
        n_hidden_layers (int): number of hidden layers.
        n_hidden_channels (int): units per hidden layer.
        min_action, max_action (array or None): bounds for ``bound_mean``.
        bound_mean (bool): squash the mean into the bounds.
        nonlinearity (callable): between layers.
        mean_wscale (float): scale of the mean layer's initial weights.
    """

    def __init__(self, n_input_channels, action_size, var, n_hidden_layers=0,
                 n_hidden_channels=None, min_action=None, max_action=None,
                 bound_mean=False, nonlinearity=F.relu, mean_wscale=1):
        owner = 'FCGaussianPolicyWithFixedCovariance'
        sizes = _arrays.hidden_sizes(owner, n_hidden_layers,
                                     n_hidden_channels)
        action_size = _arrays.check_int(owner, 'action_size', action_size, 1)
        var = numpy.asarray(_arrays.to_host(var), dtype=numpy.float32)
        if var.ndim > 1 or var.size not in (1, action_size):
            raise ValueError('{}: var must be a scalar or of shape ({},), got '
                             'shape {}'.format(owner, action_size, var.shape))
        if numpy.any(var <= 0):
            raise ValueError('{}: var must be positive, got {}'.format(
                owner, var))
        self.n_input_channels = n_input_channels
        self.action_size = action_size
        self.n_hidden_layers = n_hidden_layers
        self.n_hidden_channels = n_hidden_channels
        self.min_action = min_action
        self.max_action = max_action
        self.bound_mean = bound_mean
        self.nonlinearity = nonlinearity
        self.var = numpy.broadcast_to(var, (action_size,)).copy()
        bound = _mean_bounder(owner, bound_mean, min_action, max_action)
        layers = _mean_layers(n_input_channels, action_size, sizes,
                              nonlinearity, mean_wscale, bound)
        layers.append(self._to_distribution)
        super().__init__(*layers)

    def _to_distribution(self, mean):
        var = _arrays.like(self.var, mean, dtype=mean.dtype)
        var = chainer.Variable(var[None], requires_grad=False)
        return distribution.GaussianDistribution(
            mean, F.broadcast_to(var, mean.shape))

    def compute_mean_and_var(self, x):
        """Means and the fixed variances."""
        d = self(x)
        return d.mean, d.var


class GaussianHeadWithStateIndependentCovariance(chainer.Chain):
    """Turns means (the output of some network) into Gaussians with a
    learned, state-independent variance ``var_func(var_param)``: the
    usual PPO/TRPO head.

    Args:
        action_size (int): size of an action.
        var_type (str): ``'spherical'`` or ``'diagonal'``.
        var_func (callable): maps the parameter to positive variances.
        var_param_init (float): initial value of the parameter.
    """

    def __init__(self, action_size, var_type='spherical', var_func=F.softplus,
                 var_param_init=0):
        owner = 'GaussianHeadWithStateIndependentCovariance'
        action_size = _arrays.check_int(owner, 'action_size', action_size, 1)
        self.var_func = _arrays.check_callable(owner, 'var_func', var_func)
        var_size = _var_size(owner, var_type, action_size)
        super().__init__()
        with self.init_scope():
            self.var_param = chainer.Parameter(
                initializer=_arrays.check_real(owner, 'var_param_init',
                                               var_param_init),
                shape=(var_size,))

    def forward(self, mean):
        """GaussianDistribution with the given means."""
        if not isinstance(mean, chainer.Variable):
            mean = chainer.Variable(mean, requires_grad=False)
        var = F.broadcast_to(self.var_func(self.var_param), mean.shape)
        return distribution.GaussianDistribution(mean, var)


class _LinearMeanAndVar(_MeanAndVarLayers, chainer.ChainList,
                        GaussianPolicy):
    """A linear mean layer and a linear variance layer of ``var_size``
    outputs."""

    def __init__(self, n_input_channels, action_size, var_size):
        self.n_input_channels = n_input_channels
        self.action_size = action_size
        mean_layer = L.Linear(n_input_channels, action_size)
        var_layer = L.Linear(n_input_channels, var_size)
        super().__init__(mean_layer, var_layer)


class LinearGaussianPolicyWithDiagonalCovariance(_LinearMeanAndVar):
    """Linear mean and, through softplus, linear variances per action
    dimension.

    Args:
        n_input_channels (int): size of a state.
        action_size (int): size of an action.
    """

    def __init__(self, n_input_channels, action_size):
        super().__init__(n_input_channels, action_size, action_size)

    def compute_mean_and_var(self, x):
        """Means and variances of the action distributions."""
        return self.mean_layer(x), F.softplus(self.var_layer(x))


class LinearGaussianPolicyWithSphericalCovariance(_LinearMeanAndVar):
    """Linear mean and, through softplus, one linear variance shared by
    the action dimensions.

    Args:
        n_input_channels (int): size of a state.
        action_size (int): size of an action.
    """

    def __init__(self, n_input_channels, action_size):
        super().__init__(n_input_channels, action_size, 1)

    def compute_mean_and_var(self, x):
        """Means and variances of the action distributions."""
        mean = self.mean_layer(x)
        var = F.broadcast_to(F.softplus(self.var_layer(x)), mean.shape)
        return mean, var
