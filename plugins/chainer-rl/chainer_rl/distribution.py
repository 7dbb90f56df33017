"""Action distributions: what a policy returns for a batch of states.

Each holds one distribution per state of the batch (the first axis) and
gives samples, (log-)probabilities, entropies and KL divergences as
Variables, so policy-gradient losses backpropagate into the policy.
Random draws come from NumPy's global generator on the host and are then
moved to the parameters' device, so ``numpy.random.seed`` makes sampling
reproducible on every device.
"""
from abc import ABCMeta
from abc import abstractmethod
from functools import cached_property
import math

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl import _functions

_LOG_2PI = math.log(2 * math.pi)
_LOG_2 = math.log(2.0)


def _detached_copy(x):
    return _arrays.unwrap(x).copy()


def sample_discrete_actions(batch_probs):
    """One action index per row of ``batch_probs`` (an array of shape
    ``(batch_size, n_actions)``), drawn by the Gumbel-max trick.

    Returns:
        array of int32 on the device of ``batch_probs``.
    """
    probs = _arrays.unwrap(batch_probs)
    if not _arrays.is_array(probs) or probs.ndim != 2:
        raise ValueError('sample_discrete_actions: batch_probs must be a 2-D '
                         'array, got {!r}'.format(getattr(probs, 'shape',
                                                          probs)))
    host = _arrays.to_host(probs).astype(numpy.float64)
    with numpy.errstate(divide='ignore'):
        scores = numpy.log(host) + numpy.random.gumbel(size=host.shape)
    return _arrays.like(scores.argmax(axis=1).astype(numpy.int32), probs)


class Distribution(metaclass=ABCMeta):
    """A batch of distributions over actions.

    Subclasses give entropies, samples, (log-)probabilities, KL
    divergences to a distribution of the same kind, the most probable
    actions, their parameters (``params``), detached copies (``copy``) and
    sub-batches (``__getitem__``).
    """

    @property
    @abstractmethod
    def entropy(self):
        """Entropy of each distribution, shape ``(batch_size,)``."""

    @abstractmethod
    def sample(self):
        """One action per distribution."""

    @abstractmethod
    def prob(self, x):
        """Probability (density) of the actions ``x``."""

    @abstractmethod
    def log_prob(self, x):
        """Log probability (density) of the actions ``x``."""

    @abstractmethod
    def copy(self):
        """The same distribution with its parameters detached from the
        graph (a fixed old policy, say)."""

    @abstractmethod
    def kl(self, distrib):
        """``KL(self || distrib)`` per state, shape ``(batch_size,)``."""

    @property
    @abstractmethod
    def most_probable(self):
        """The mode of each distribution."""

    @property
    @abstractmethod
    def params(self):
        """The Variables the distribution is computed from."""

    @abstractmethod
    def __getitem__(self, i):
        """The distributions of the states ``i`` of the batch (an int keeps
        the batch axis)."""

    def sample_with_log_prob(self):
        """A sample and its log probability."""
        x = self.sample()
        return x, self.log_prob(x)

    def _check_kl_operand(self, distrib, kind):
        if not isinstance(distrib, kind):
            raise TypeError('{}.kl: distrib must be a {}, got {}'.format(
                type(self).__name__, kind.__name__, type(distrib).__name__))


class CategoricalDistribution(Distribution):
    """Distributions over ``n`` discrete actions, given by ``all_prob`` and
    ``all_log_prob`` of shape ``(batch_size, n)``."""

    @property
    @abstractmethod
    def all_prob(self):
        """Probabilities of every action."""

    @property
    @abstractmethod
    def all_log_prob(self):
        """Log probabilities of every action."""

    @cached_property
    def entropy(self):
        """``-sum_a p(a) log p(a)``."""
        with chainer.force_backprop_mode():
            return -F.sum(self.all_prob * self.all_log_prob, axis=1)

    @cached_property
    def most_probable(self):
        """int32 Variable of the most probable actions."""
        array = self.all_prob.array.argmax(axis=1).astype(numpy.int32)
        return chainer.Variable(array, requires_grad=False)

    def sample(self):
        """int32 Variable of sampled actions."""
        return chainer.Variable(sample_discrete_actions(self.all_prob.array),
                                requires_grad=False)

    def _indices(self, name, x):
        return _arrays.action_indices(
            '{}.{}'.format(type(self).__name__, name), x,
            self.all_prob.shape[0], self.all_prob)

    def prob(self, x):
        """Probabilities of the actions ``x`` (shape ``(batch_size,)``)."""
        return F.select_item(self.all_prob, self._indices('prob', x))

    def log_prob(self, x):
        """Log probabilities of the actions ``x``."""
        return F.select_item(self.all_log_prob, self._indices('log_prob', x))

    def kl(self, distrib):
        """``sum_a p(a) (log p(a) - log q(a))`` against another categorical
        distribution over as many actions."""
        self._check_kl_operand(distrib, CategoricalDistribution)
        if distrib.all_prob.shape != self.all_prob.shape:
            raise ValueError('{}.kl: distrib must have shape {}, got {}'
                             .format(type(self).__name__,
                                     self.all_prob.shape,
                                     distrib.all_prob.shape))
        return F.sum(self.all_prob
                     * (self.all_log_prob - distrib.all_log_prob), axis=1)


class SoftmaxDistribution(CategoricalDistribution):
    """Boltzmann distribution ``softmax(beta * logits)``, optionally mixed
    with a uniform floor.

    Args:
        logits (~chainer_core.Variable or array): shape
            ``(batch_size, n_actions)``.
        beta (float): inverse temperature.
        min_prob (float): every action gets at least this probability
            (``min_prob * n_actions`` must not exceed 1).
    """

    def __init__(self, logits, beta=1.0, min_prob=0.0):
        owner = 'SoftmaxDistribution'
        self.logits = _arrays.as_variable(owner, 'logits', logits, ndim=2)
        self.beta = _arrays.check_real(owner, 'beta', beta)
        self.min_prob = _arrays.check_real(owner, 'min_prob', min_prob)
        self.n = self.logits.shape[1]
        if self.min_prob < 0 or self.min_prob * self.n > 1.0:
            raise ValueError(
                '{}: min_prob must be in [0, 1 / n_actions] = [0, {}], got {}'
                .format(owner, 1.0 / self.n, self.min_prob))

    @property
    def params(self):
        """``(logits,)``."""
        return (self.logits,)

    @cached_property
    def all_prob(self):
        """Probabilities of every action."""
        with chainer.force_backprop_mode():
            p = F.softmax(self.beta * self.logits, axis=1)
            if self.min_prob > 0:
                p = p * (1 - self.min_prob * self.n) + self.min_prob
            return p

    @cached_property
    def all_log_prob(self):
        """Log probabilities of every action (log-softmax when there is no
        floor, which stays finite for very unlikely actions)."""
        with chainer.force_backprop_mode():
            if self.min_prob > 0:
                return F.log(self.all_prob)
            return F.log_softmax(self.beta * self.logits, axis=1)

    def copy(self):
        """Detached copy."""
        return SoftmaxDistribution(_detached_copy(self.logits),
                                   beta=self.beta, min_prob=self.min_prob)

    def __getitem__(self, i):
        return SoftmaxDistribution(
            self.logits[_arrays.keep_batch_axis(i)], beta=self.beta,
            min_prob=self.min_prob)

    def __repr__(self):
        return 'SoftmaxDistribution(beta={}, min_prob={}) logits:{}'.format(
            self.beta, self.min_prob, _arrays.to_host(self.logits))


class MellowmaxDistribution(CategoricalDistribution):
    """Maximum-entropy mellowmax policy over action values (Asadi and
    Littman, 2017): the Boltzmann distribution whose expected value equals
    the mellowmax of the values.

    Args:
        values (~chainer_core.Variable or array): shape
            ``(batch_size, n_actions)``.
        omega (float): the mellowmax parameter (positive).
    """

    def __init__(self, values, omega=8.):
        owner = 'MellowmaxDistribution'
        self.values = _arrays.as_variable(owner, 'values', values, ndim=2)
        self.omega = _arrays.check_real(owner, 'omega', omega)
        if self.omega <= 0:
            raise ValueError('{}: omega must be positive, got {}'.format(
                owner, self.omega))

    @property
    def params(self):
        """``(values,)``."""
        return (self.values,)

    @cached_property
    def all_prob(self):
        """Probabilities of every action."""
        with chainer.force_backprop_mode():
            return _functions.maximum_entropy_mellowmax(self.values,
                                                        omega=self.omega)

    @cached_property
    def all_log_prob(self):
        """Log probabilities of every action."""
        with chainer.force_backprop_mode():
            return F.log(self.all_prob)

    def copy(self):
        """Detached copy."""
        return MellowmaxDistribution(_detached_copy(self.values),
                                     omega=self.omega)

    def __getitem__(self, i):
        return MellowmaxDistribution(
            self.values[_arrays.keep_batch_axis(i)], omega=self.omega)

    def __repr__(self):
        return 'MellowmaxDistribution(omega={}) values:{}'.format(
            self.omega, _arrays.to_host(self.values))


def _mean_and_var(owner, mean, var):
    mean = _arrays.as_variable(owner, 'mean', mean, ndim=2)
    var = _arrays.as_variable(owner, 'var', var)
    if var.dtype != mean.dtype:
        raise TypeError('{}: var must have the dtype of mean, {}, got {}'
                        .format(owner, mean.dtype, var.dtype))
    if var.shape != mean.shape:
        try:
            numpy.broadcast_shapes(var.shape, mean.shape)
        except ValueError:
            raise ValueError('{}: var must have the shape of mean, {}, got {}'
                             .format(owner, mean.shape, var.shape)) from None
        if numpy.broadcast_shapes(var.shape, mean.shape) != mean.shape:
            raise ValueError('{}: var must have the shape of mean, {}, got {}'
                             .format(owner, mean.shape, var.shape))
        if var.ndim < mean.ndim:
            var = F.reshape(var, (1,) * (mean.ndim - var.ndim) + var.shape)
        var = F.broadcast_to(var, mean.shape)
    return mean, var


def _gaussian_log_density(x, mean, var, ln_var):
    """Elementwise log N(x; mean, var)."""
    return -0.5 * _LOG_2PI - 0.5 * ln_var - (x - mean) ** 2 / (2 * var)


def _gaussian_kl(p, q):
    """KL between diagonal Gaussians, summed over the action axis."""
    return 0.5 * F.sum(q.ln_var - p.ln_var
                       + (p.var + (p.mean - q.mean) ** 2) / q.var - 1,
                       axis=1)


def _as_actions(owner, x, ref):
    """Actions as a Variable of ``ref``'s device, dtype and shape."""
    if not isinstance(x, chainer.Variable):
        x = chainer.Variable(_arrays.like(x, ref, dtype=ref.dtype),
                             requires_grad=False)
    if x.shape != ref.shape:
        raise ValueError('{}: x must have shape {}, got {}'.format(
            owner, ref.shape, x.shape))
    return x


class _DiagonalGaussian(Distribution):
    """What the plain and the squashed diagonal Gaussians share: both are
    given by the mean and variances of a Gaussian, and the KL divergence
    of two of them is that of their Gaussians."""

    def __init__(self, mean, var):
        self.mean, self.var = _mean_and_var(type(self).__name__, mean, var)
        self.ln_var = F.log(self.var)

    @property
    def params(self):
        """``(mean, var)``."""
        return (self.mean, self.var)

    def copy(self):
        """Detached copy."""
        return type(self)(_detached_copy(self.mean),
                          _detached_copy(self.var))

    def kl(self, q):
        """``KL(self || q)`` for a ``q`` of the same kind and shape."""
        self._check_kl_operand(q, type(self))
        if q.mean.shape != self.mean.shape:
            raise ValueError('{}.kl: q must have shape {}, got {}'.format(
                type(self).__name__, self.mean.shape, q.mean.shape))
        return _gaussian_kl(self, q)

    def __getitem__(self, i):
        i = _arrays.keep_batch_axis(i)
        return type(self)(self.mean[i], self.var[i])

    def __repr__(self):
        return '{} mean:{} var:{}'.format(
            type(self).__name__, _arrays.to_host(self.mean),
            _arrays.to_host(self.var))


class GaussianDistribution(_DiagonalGaussian):
    """Gaussians with diagonal covariance.

    Args:
        mean (~chainer_core.Variable or array): shape
            ``(batch_size, n_dim_action)``.
        var (~chainer_core.Variable or array): variances, of the shape of
            ``mean`` (or broadcastable to it), positive.
    """

    @cached_property
    def most_probable(self):
        """The means."""
        return self.mean

    def _noise(self):
        return _arrays.standard_normal(self.mean.shape, self.mean.dtype,
                                       self.mean)

    def sample(self):
        """``mean + std * eps``: differentiable in mean and var (the
        reparameterization trick)."""
        return self.mean + F.exp(0.5 * self.ln_var) * self._noise()

    def prob(self, x):
        """Density of the actions ``x``."""
        return F.exp(self.log_prob(x))

    def log_prob(self, x):
        """Log density of the actions ``x``, summed over action
        dimensions."""
        x = _as_actions('GaussianDistribution.log_prob', x, self.mean)
        return F.sum(_gaussian_log_density(x, self.mean, self.var,
                                           self.ln_var), axis=1)

    @cached_property
    def entropy(self):
        """``0.5 * sum(log(2 pi e var))``."""
        with chainer.force_backprop_mode():
            d = self.mean.shape[1]
            return 0.5 * d * (_LOG_2PI + 1) + 0.5 * F.sum(self.ln_var,
                                                          axis=1)


def _log_tanh_jacobian(x):
    """``log(1 - tanh(x)^2)`` written as ``2 (log 2 - x - softplus(-2x))``,
    which stays finite where tanh saturates."""
    return 2.0 * (_LOG_2 - x - F.softplus(-2.0 * x))


class SquashedGaussianDistribution(_DiagonalGaussian):
    """Diagonal Gaussians squashed into ``(-1, 1)`` by tanh (Soft
    Actor-Critic's policy).

    Args:
        mean, var: of the Gaussian before squashing, as for
            GaussianDistribution.

    Prefer ``sample_with_log_prob`` to ``log_prob(sample())``: it uses the
    pre-squash value, whereas inverting tanh near +-1 loses precision.
    There is no closed-form entropy; ``kl`` is exact, since tanh is a
    bijection and leaves the KL of the underlying Gaussians unchanged.
    """

    @cached_property
    def most_probable(self):
        """``tanh(mean)``."""
        return F.tanh(self.mean)

    def _raw_sample(self):
        eps = _arrays.standard_normal(self.mean.shape, self.mean.dtype,
                                      self.mean)
        return self.mean + F.exp(0.5 * self.ln_var) * eps

    def _log_prob_of_raw(self, x):
        return F.sum(_gaussian_log_density(x, self.mean, self.var,
                                           self.ln_var)
                     - _log_tanh_jacobian(x), axis=1)

    def sample_with_log_prob(self):
        """A squashed sample and its log density (reparameterized)."""
        x = self._raw_sample()
        return F.tanh(x), self._log_prob_of_raw(x)

    def sample(self):
        """``tanh(mean + std * eps)``."""
        return F.tanh(self._raw_sample())

    def prob(self, x):
        """Density of the squashed actions ``x``."""
        return F.exp(self.log_prob(x))

    def log_prob(self, x):
        """Log density of squashed actions ``x`` in ``(-1, 1)``; values at
        +-1 are moved just inside so the result stays finite."""
        x = _as_actions('SquashedGaussianDistribution.log_prob', x,
                        self.mean)
        edge = 1.0 - numpy.finfo(x.dtype).epsneg
        raw = F.arctanh(F.clip(x, -edge, edge))
        return self._log_prob_of_raw(raw)

    @property
    def entropy(self):
        """Not available: the entropy has no closed form."""
        raise NotImplementedError(
            'SquashedGaussianDistribution.entropy: no closed form; estimate '
            'it with -log_prob of samples (sample_with_log_prob)')


class ContinuousDeterministicDistribution(Distribution):
    """A point mass at ``x``: the output of a deterministic policy (DDPG,
    TD3) in the Distribution interface.

    Args:
        x (~chainer_core.Variable or array): the actions, shape
            ``(batch_size, n_dim_action)``.
    """

    def __init__(self, x):
        self.x = _arrays.as_variable('ContinuousDeterministicDistribution',
                                     'x', x)

    def _undefined(self, what):
        return RuntimeError('ContinuousDeterministicDistribution.{}: not '
                            'defined for a point mass'.format(what))

    @property
    def entropy(self):
        """Not defined."""
        raise self._undefined('entropy')

    @cached_property
    def most_probable(self):
        """``x``."""
        return self.x

    def sample(self):
        """``x``, differentiable."""
        return self.x

    def prob(self, x):
        """Not defined."""
        raise self._undefined('prob')

    def log_prob(self, x):
        """Not defined."""
        raise self._undefined('log_prob')

    def copy(self):
        """Detached copy."""
        return ContinuousDeterministicDistribution(_detached_copy(self.x))

    def kl(self, distrib):
        """Not defined."""
        raise self._undefined('kl')

    @property
    def params(self):
        """``(x,)``."""
        return (self.x,)

    def __getitem__(self, i):
        return ContinuousDeterministicDistribution(
            self.x[_arrays.keep_batch_axis(i)])

    def __repr__(self):
        return 'ContinuousDeterministicDistribution x:{}'.format(
            _arrays.to_host(self.x))
