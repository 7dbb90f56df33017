"""IQN: distributional Q-learning of quantile functions."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl.agents import dqn
from chainer_rl.q_functions.iqn import cosine_basis_functions  # NOQA
from chainer_rl.q_functions.iqn import CosineBasisLinear  # NOQA
from chainer_rl.q_functions.iqn import ImplicitQuantileQFunction  # NOQA
from chainer_rl.q_functions.iqn import \
    StatelessRecurrentImplicitQuantileQFunction  # NOQA


__all__ = ['IQN', 'compute_eltwise_huber_quantile_loss',
           'cosine_basis_functions', 'CosineBasisLinear',
           'ImplicitQuantileQFunction',
           'StatelessRecurrentImplicitQuantileQFunction']


def compute_eltwise_huber_quantile_loss(y, t, taus, huber_loss_threshold=1.0):
    """Quantile Huber losses of every (prediction, target sample) pair.

    ``|tau_i - 1{t_j < y_i}| * huber(t_j - y_i) / kappa`` (equation (10)
    of the IQN paper): a target above a high quantile's prediction weighs
    more than one below it, so each prediction settles on its quantile.

    Args:
        y (Variable): predicted quantiles, ``(batch_size, N)``.
        t (array or Variable): target samples, ``(batch_size, N')``.
        taus (array): the fractions of ``y``, ``(batch_size, N)``.
        huber_loss_threshold (float): kappa.

    Returns:
        Variable ``(batch_size, N, N')``.
    """
    owner = 'compute_eltwise_huber_quantile_loss'
    kappa = _arrays.check_real(owner, 'huber_loss_threshold',
                               huber_loss_threshold)
    if kappa <= 0:
        raise ValueError('{}: huber_loss_threshold must be positive, got {}'
                         .format(owner, kappa))
    y = _arrays.as_variable(owner, 'y', y, ndim=2)
    t = _arrays.like(_arrays.unwrap(t), y.array, dtype=y.dtype)
    taus = _arrays.like(_arrays.unwrap(taus), y.array, dtype=y.dtype)
    if tuple(taus.shape) != y.shape or t.ndim != 2 or t.shape[0] != \
            y.shape[0]:
        raise ValueError('{}: expected y and taus of shape (batch_size, N) '
                         'and t of shape (batch_size, N\'), got {}, {} and {}'
                         .format(owner, y.shape, tuple(taus.shape),
                                 tuple(t.shape)))
    batch_size, n = y.shape
    n_prime = t.shape[1]
    shape = (batch_size, n, n_prime)
    y_b = F.broadcast_to(F.expand_dims(y, 2), shape)
    t_b = t.reshape((batch_size, 1, n_prime))
    below = (t_b - y_b.array < 0).astype(y.dtype)
    weight = abs(taus.reshape((batch_size, n, 1)) - below)
    xp = chainer.backend.get_array_module(t)
    huber = F.huber_loss(y_b, xp.broadcast_to(t_b, shape), delta=kappa,
                         reduce='no')
    return weight * huber / kappa


class IQN(dqn.DQN):
    """Implicit Quantile Networks, from "Implicit Quantile Networks for
    Distributional Reinforcement Learning" (Dabney et al., 2018).

    The Q-function (e.g. ``ImplicitQuantileQFunction``) maps states to a
    function of quantile fractions. Actions are greedy in the mean of
    ``quantile_thresholds_K`` sampled quantiles; the loss is the quantile
    Huber loss between ``N`` predicted quantiles of the taken action and
    ``N'`` sampled quantiles of the target's greedy next action. Fractions
    are drawn from NumPy's global generator on the host, so seeding it
    makes runs reproducible on every device.

    Args:
        quantile_thresholds_N (int): fractions of the predictions.
        quantile_thresholds_N_prime (int): fractions of the targets.
        quantile_thresholds_K (int): fractions for acting greedily.
        (others): as :class:`~chainer_rl.agents.DQN` (``clip_delta`` does
            not apply).
    """

    def __init__(self, *args, quantile_thresholds_N=64,
                 quantile_thresholds_N_prime=64, quantile_thresholds_K=32,
                 **kwargs):
        owner = type(self).__name__
        self.quantile_thresholds_N = _arrays.check_int(
            owner, 'quantile_thresholds_N', quantile_thresholds_N, 1)
        self.quantile_thresholds_N_prime = _arrays.check_int(
            owner, 'quantile_thresholds_N_prime',
            quantile_thresholds_N_prime, 1)
        self.quantile_thresholds_K = _arrays.check_int(
            owner, 'quantile_thresholds_K', quantile_thresholds_K, 1)
        super().__init__(*args, **kwargs)

    @staticmethod
    def _taus(batch_size, n):
        return numpy.random.uniform(0.0, 1.0, size=(batch_size, n)).astype(
            numpy.float32)

    def _evaluate(self, tau_to_av, batch_size, n):
        if not callable(tau_to_av):
            raise TypeError(
                '{}: the q_function must return a function of the quantile '
                'fractions (as ImplicitQuantileQFunction does), got {}'
                .format(type(self).__name__, type(tau_to_av).__name__))
        return tau_to_av(self._taus(batch_size, n))

    def _action_value_for_acting(self, out, batch_size):
        return self._evaluate(out, batch_size, self.quantile_thresholds_K)

    def _compute_target_values(self, exp_batch):
        """Target quantile samples, ``(batch_size, N')``."""
        batch_size = exp_batch['reward'].shape[0]
        target_next = self._forward_target(exp_batch, 'next_state')
        greedy = self._next_greedy_actions(exp_batch, target_next,
                                           batch_size)
        av = self._evaluate(target_next, batch_size,
                            self.quantile_thresholds_N_prime)
        quantiles = _arrays.unwrap(av.evaluate_actions_as_quantiles(greedy))
        factor = exp_batch['discount'] * (
            1.0 - exp_batch['is_state_terminal'])
        return exp_batch['reward'][:, None] + factor[:, None] * quantiles

    def _next_greedy_actions(self, exp_batch, target_next, batch_size):
        return self._evaluate(target_next, batch_size,
                              self.quantile_thresholds_K).greedy_actions

    def _compute_y_and_taus(self, exp_batch):
        """Predicted quantiles of the taken actions ``(batch_size, N)`` and
        their fractions."""
        batch_size = exp_batch['reward'].shape[0]
        tau_to_av = self._forward_batch(self.model, exp_batch, 'state')
        taus = self._taus(batch_size, self.quantile_thresholds_N)
        y = tau_to_av(taus).evaluate_actions_as_quantiles(
            exp_batch['action'])
        return y, taus

    def _compute_loss(self, exp_batch, errors_out=None):
        y, taus = self._compute_y_and_taus(exp_batch)
        with chainer.no_backprop_mode():
            t = self._compute_target_values(exp_batch)
        self._record_q(y)
        eltwise = compute_eltwise_huber_quantile_loss(y, t, taus)
        if errors_out is not None:
            del errors_out[:]
            errors_out.extend(_arrays.to_host(eltwise).mean(
                axis=(1, 2)).tolist())
        # Sum over the predicted quantiles of the mean over the targets.
        per_sample = F.sum(F.mean(eltwise, axis=2), axis=1)
        if 'weights' in exp_batch:
            per_sample = per_sample * _arrays.like(
                exp_batch['weights'], per_sample.array,
                dtype=per_sample.dtype)
        if self.batch_accumulator == 'sum':
            return F.sum(per_sample)
        return F.mean(per_sample)
