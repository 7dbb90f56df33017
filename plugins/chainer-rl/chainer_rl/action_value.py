"""Action values: what a Q-function returns for a batch of states.

Value-based agents act on them (``greedy_actions``) and learn from them
(``evaluate_actions``, ``max``), whatever the Q-function's form: a table
of discrete actions, a return distribution over fixed atoms (C51),
quantiles at sampled fractions (IQN), NAF's quadratic advantage or any
evaluator of continuous actions. Values are Variables, so losses built
from them backpropagate into the model.
"""
from abc import ABCMeta
from abc import abstractmethod
from functools import cached_property
import warnings

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays


def _identity(x):
    return x


def _arange_like(n, ref):
    return _arrays.like(numpy.arange(n, dtype=numpy.int32), ref)


class ActionValue(metaclass=ABCMeta):
    """Values of the actions of a batch of states.

    Subclasses give the greedy actions and their values, the values of any
    actions, their parameters (``params``) and a sub-batch
    (``__getitem__``).
    """

    @property
    @abstractmethod
    def greedy_actions(self):
        """The actions of the highest value, one per state."""

    @property
    @abstractmethod
    def max(self):
        """The values of the greedy actions, shape ``(batch_size,)``."""

    @abstractmethod
    def evaluate_actions(self, actions):
        """The values of ``actions`` (one per state), shape
        ``(batch_size,)``."""

    @property
    @abstractmethod
    def params(self):
        """The Variables this action value is computed from."""

    @abstractmethod
    def __getitem__(self, i):
        """The action values of the states ``i`` of the batch."""

    def compute_advantage(self, actions):
        """``Q(s, a) - max_b Q(s, b)`` for the given actions."""
        return self.evaluate_actions(actions) - self.max

    def compute_double_advantage(self, actions, argmax_actions):
        """``Q(s, a) - Q(s, a*)``, with ``a*`` chosen elsewhere (by another
        network, as double Q-learning does)."""
        return (self.evaluate_actions(actions)
                - self.evaluate_actions(argmax_actions))


class _QValuesActionValue(ActionValue):
    """Greedy actions, maxima and Boltzmann expectations of the
    ``(batch_size, n_actions)`` Variable ``self.q_values``."""

    @cached_property
    def greedy_actions(self):
        """int32 Variable of the actions of the highest Q-value, shape
        ``(batch_size,)``."""
        array = self.q_values.array.argmax(axis=1).astype(numpy.int32)
        return chainer.Variable(array, requires_grad=False)

    @cached_property
    def max(self):
        """Largest Q-value of each state (differentiable)."""
        with chainer.force_backprop_mode():
            return F.select_item(self.q_values, self.greedy_actions)

    def compute_expectation(self, beta):
        """Expected Q-value under the Boltzmann policy of inverse
        temperature ``beta``."""
        return F.sum(F.softmax(beta * self.q_values, axis=1)
                     * self.q_values, axis=1)


class DiscreteActionValue(_QValuesActionValue):
    """Q-values of a finite action set.

    Args:
        q_values (~chainer_core.Variable or array): shape
            ``(batch_size, n_actions)``.
        q_values_formatter (callable): turns the Q-value array into what
            ``repr`` shows (rounding, say).
    """

    def __init__(self, q_values, q_values_formatter=_identity):
        self.q_values = _arrays.as_variable(
            'DiscreteActionValue', 'q_values', q_values, ndim=2)
        _arrays.check_callable('DiscreteActionValue', 'q_values_formatter',
                               q_values_formatter)
        self.xp = self.q_values.xp
        self.n_actions = self.q_values.shape[1]
        self.q_values_formatter = q_values_formatter

    def sample_epsilon_greedy_actions(self, epsilon):
        """A uniformly random action with probability ``epsilon``, the
        greedy one otherwise, for a batch of one state."""
        if self.q_values.shape[0] != 1:
            raise ValueError(
                'DiscreteActionValue.sample_epsilon_greedy_actions: takes a '
                'batch of one state, got {}'.format(self.q_values.shape[0]))
        if numpy.random.random() < epsilon:
            action = numpy.asarray(
                [numpy.random.randint(0, self.n_actions)], dtype=numpy.int32)
            return chainer.Variable(_arrays.like(action, self.q_values),
                                    requires_grad=False)
        return self.greedy_actions

    def evaluate_actions(self, actions):
        """Q-values of ``actions`` (int array or Variable of shape
        ``(batch_size,)``)."""
        actions = _arrays.action_indices(
            'DiscreteActionValue.evaluate_actions', actions,
            self.q_values.shape[0], self.q_values)
        return F.select_item(self.q_values, actions)

    @property
    def params(self):
        """``(q_values,)``."""
        return (self.q_values,)

    def __getitem__(self, i):
        return DiscreteActionValue(
            self.q_values[_arrays.keep_batch_axis(i)],
            q_values_formatter=self.q_values_formatter)

    def __repr__(self):
        return 'DiscreteActionValue greedy_actions:{} q_values:{}'.format(
            _arrays.to_host(self.greedy_actions),
            self.q_values_formatter(_arrays.to_host(self.q_values)))


class DistributionalDiscreteActionValue(_QValuesActionValue):
    """Return distributions over fixed atoms, per discrete action (C51).

    Args:
        q_dist (~chainer_core.Variable or array): probabilities of shape
            ``(batch_size, n_actions, n_atoms)``.
        z_values (array): the returns the atoms stand for, shape
            ``(n_atoms,)``.
        q_values_formatter (callable): as for DiscreteActionValue.
    """

    def __init__(self, q_dist, z_values, q_values_formatter=_identity):
        owner = 'DistributionalDiscreteActionValue'
        self.q_dist = _arrays.as_variable(owner, 'q_dist', q_dist, ndim=3)
        if isinstance(z_values, chainer.Variable):
            raise TypeError('{}: z_values must be an array, not a Variable '
                            '(the atoms are constants)'.format(owner))
        z_values = numpy.asarray(z_values) if not _arrays.is_array(
            z_values) else z_values
        if z_values.ndim != 1 or z_values.shape[0] != self.q_dist.shape[2]:
            raise ValueError(
                '{}: z_values must have shape ({},) to match q_dist of shape '
                '{}, got {}'.format(owner, self.q_dist.shape[2],
                                    self.q_dist.shape, tuple(z_values.shape)))
        _arrays.check_callable(owner, 'q_values_formatter',
                               q_values_formatter)
        self.z_values = _arrays.like(z_values, self.q_dist,
                                     dtype=self.q_dist.dtype)
        self.xp = self.q_dist.xp
        self.n_actions = self.q_dist.shape[1]
        self.q_values_formatter = q_values_formatter

    @cached_property
    def q_values(self):
        """Expected returns, shape ``(batch_size, n_actions)``."""
        with chainer.force_backprop_mode():
            z = F.broadcast_to(self.z_values[None, None], self.q_dist.shape)
            return F.sum(self.q_dist * z, axis=2)

    @cached_property
    def max_as_distribution(self):
        """Return distribution of the greedy actions, shape
        ``(batch_size, n_atoms)``."""
        with chainer.force_backprop_mode():
            return self._pick(self.greedy_actions.array)

    def _pick(self, actions):
        rows = _arange_like(self.q_dist.shape[0], self.q_dist)
        return self.q_dist[rows, actions]

    def evaluate_actions(self, actions):
        """Expected returns of ``actions``."""
        actions = _arrays.action_indices(
            'DistributionalDiscreteActionValue.evaluate_actions', actions,
            self.q_dist.shape[0], self.q_dist)
        return F.select_item(self.q_values, actions)

    def evaluate_actions_as_distribution(self, actions):
        """Return distributions of ``actions``, shape
        ``(batch_size, n_atoms)``."""
        actions = _arrays.action_indices(
            'DistributionalDiscreteActionValue.'
            'evaluate_actions_as_distribution', actions,
            self.q_dist.shape[0], self.q_dist)
        return self._pick(actions)

    @property
    def params(self):
        """``(q_dist,)``."""
        return (self.q_dist,)

    def __getitem__(self, i):
        return DistributionalDiscreteActionValue(
            self.q_dist[_arrays.keep_batch_axis(i)], self.z_values,
            q_values_formatter=self.q_values_formatter)

    def __repr__(self):
        return ('DistributionalDiscreteActionValue greedy_actions:{} '
                'q_values:{}'.format(
                    _arrays.to_host(self.greedy_actions),
                    self.q_values_formatter(_arrays.to_host(self.q_values))))


class QuantileDiscreteActionValue(DiscreteActionValue):
    """Return quantiles per discrete action (IQN, QR-DQN).

    Args:
        quantiles (~chainer_core.Variable or array): shape
            ``(batch_size, n_taus, n_actions)``, the returns at ``n_taus``
            quantile fractions. Q-values are their mean, which estimates
            the expected return when the fractions are uniform draws.
        q_values_formatter (callable): as for DiscreteActionValue.
    """

    def __init__(self, quantiles, q_values_formatter=_identity):
        owner = 'QuantileDiscreteActionValue'
        self.quantiles = _arrays.as_variable(owner, 'quantiles', quantiles,
                                             ndim=3)
        _arrays.check_callable(owner, 'q_values_formatter',
                               q_values_formatter)
        self.xp = self.quantiles.xp
        self.n_actions = self.quantiles.shape[2]
        self.q_values_formatter = q_values_formatter

    @cached_property
    def q_values(self):
        """Mean over the quantiles, shape ``(batch_size, n_actions)``."""
        with chainer.force_backprop_mode():
            return F.mean(self.quantiles, axis=1)

    def evaluate_actions_as_quantiles(self, actions):
        """Return quantiles of ``actions``, shape ``(batch_size, n_taus)``.
        """
        actions = _arrays.action_indices(
            'QuantileDiscreteActionValue.evaluate_actions_as_quantiles',
            actions, self.quantiles.shape[0], self.quantiles)
        per_action = F.swapaxes(self.quantiles, 1, 2)
        rows = _arange_like(self.quantiles.shape[0], self.quantiles)
        return per_action[rows, actions]

    @property
    def params(self):
        """``(quantiles,)``."""
        return (self.quantiles,)

    def __getitem__(self, i):
        return QuantileDiscreteActionValue(
            self.quantiles[_arrays.keep_batch_axis(i)],
            q_values_formatter=self.q_values_formatter)

    def __repr__(self):
        return 'QuantileDiscreteActionValue greedy_actions:{} q_values:{}'\
            .format(_arrays.to_host(self.greedy_actions),
                    self.q_values_formatter(_arrays.to_host(self.q_values)))


class QuadraticActionValue(ActionValue):
    """NAF's Q-function of continuous actions:
    ``Q(s, a) = -0.5 (a - mu)^T mat (a - mu) + v``.

    With a positive definite ``mat``, ``mu`` maximizes Q; bounds clip the
    greedy action to the action box.

    Args:
        mu (~chainer_core.Variable): shape ``(batch_size, n_dim_action)``.
        mat (~chainer_core.Variable): shape
            ``(batch_size, n_dim_action, n_dim_action)``.
        v (~chainer_core.Variable): state values, shape ``(batch_size, 1)``
            or ``(batch_size,)``.
        min_action, max_action (array-like or None): bounds of the actions.
    """

    def __init__(self, mu, mat, v, min_action=None, max_action=None):
        owner = 'QuadraticActionValue'
        self.mu = _arrays.as_variable(owner, 'mu', mu, ndim=2)
        self.mat = _arrays.as_variable(owner, 'mat', mat, ndim=3)
        self.v = _arrays.as_variable(owner, 'v', v, ndim=(1, 2))
        batch_size, n = self.mu.shape
        if self.mat.shape != (batch_size, n, n):
            raise ValueError('{}: mat must have shape {} to match mu of '
                             'shape {}, got {}'.format(
                                 owner, (batch_size, n, n), self.mu.shape,
                                 self.mat.shape))
        if self.v.size != batch_size or self.v.shape[0] != batch_size:
            raise ValueError('{}: v must have shape ({}, 1) or ({},), got {}'
                             .format(owner, batch_size, batch_size,
                                     self.v.shape))
        self.xp = self.mu.xp
        self.batch_size = batch_size
        self.min_action = self._bound(owner, 'min_action', min_action, n)
        self.max_action = self._bound(owner, 'max_action', max_action, n)

    def _bound(self, owner, name, value, n):
        if value is None:
            return None
        host = numpy.asarray(_arrays.to_host(value), dtype=self.mu.dtype)
        if host.size not in (1, n) or host.ndim > 1:
            raise ValueError('{}: {} must be a scalar or of shape ({},), got '
                             'shape {}'.format(owner, name, n, host.shape))
        return _arrays.like(numpy.broadcast_to(host, (n,)).copy(), self.mu)

    @cached_property
    def greedy_actions(self):
        """``mu`` clipped to the bounds (differentiable)."""
        with chainer.force_backprop_mode():
            a = self.mu
            if self.min_action is not None:
                a = F.maximum(a, F.broadcast_to(
                    chainer.Variable(self.min_action[None],
                                     requires_grad=False), a.shape))
            if self.max_action is not None:
                a = F.minimum(a, F.broadcast_to(
                    chainer.Variable(self.max_action[None],
                                     requires_grad=False), a.shape))
            return a

    @cached_property
    def max(self):
        """Q-value of the greedy actions: ``v`` when unbounded."""
        with chainer.force_backprop_mode():
            if self.min_action is None and self.max_action is None:
                return F.reshape(self.v, (self.batch_size,))
            return self.evaluate_actions(self.greedy_actions)

    def evaluate_actions(self, actions):
        """Q-values of ``actions`` of shape ``(batch_size, n_dim_action)``.
        """
        if not isinstance(actions, chainer.Variable):
            actions = chainer.Variable(
                _arrays.like(actions, self.mu, dtype=self.mu.dtype),
                requires_grad=False)
        if actions.shape != self.mu.shape:
            raise ValueError(
                'QuadraticActionValue.evaluate_actions: actions must have '
                'shape {}, got {}'.format(self.mu.shape, actions.shape))
        d = actions - self.mu
        quad = F.matmul(F.matmul(F.expand_dims(d, 1), self.mat),
                        F.expand_dims(d, 2))
        return (-0.5 * F.reshape(quad, (self.batch_size,))
                + F.reshape(self.v, (self.batch_size,)))

    @property
    def params(self):
        """``(mu, mat, v)``."""
        return (self.mu, self.mat, self.v)

    def __getitem__(self, i):
        i = _arrays.keep_batch_axis(i)
        return QuadraticActionValue(self.mu[i], self.mat[i], self.v[i],
                                    min_action=self.min_action,
                                    max_action=self.max_action)

    def __repr__(self):
        return 'QuadraticActionValue greedy_actions:{} v:{}'.format(
            _arrays.to_host(self.greedy_actions), _arrays.to_host(self.v))


class SingleActionValue(ActionValue):
    """Action values given by two callables, for Q-functions of continuous
    actions with an actor (DDPG-like agents).

    Args:
        evaluator (callable): actions -> their Q-values.
        maximizer (callable or None): () -> greedy actions.
    """

    def __init__(self, evaluator, maximizer=None):
        _arrays.check_callable('SingleActionValue', 'evaluator', evaluator)
        _arrays.check_callable('SingleActionValue', 'maximizer', maximizer,
                               allow_none=True)
        self.evaluator = evaluator
        self.maximizer = maximizer

    @cached_property
    def greedy_actions(self):
        """What the maximizer returns."""
        if self.maximizer is None:
            raise RuntimeError('SingleActionValue.greedy_actions: no '
                               'maximizer was given')
        with chainer.force_backprop_mode():
            return self.maximizer()

    @cached_property
    def max(self):
        """Q-values of the greedy actions."""
        with chainer.force_backprop_mode():
            return self.evaluator(self.greedy_actions)

    def evaluate_actions(self, actions):
        """Q-values of ``actions`` by the evaluator."""
        return self.evaluator(actions)

    @property
    def params(self):
        """Empty: the Variables appear only once actions are evaluated."""
        warnings.warn('SingleActionValue has no parameters until it '
                      'evaluates some actions', RuntimeWarning)
        return ()

    def __getitem__(self, i):
        raise NotImplementedError(
            'SingleActionValue cannot be indexed: its evaluator and '
            'maximizer cover the whole batch')

    def __repr__(self):
        return 'SingleActionValue'
