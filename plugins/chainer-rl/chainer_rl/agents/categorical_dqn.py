"""Categorical DQN (C51): Q-learning of return distributions on fixed
atoms."""

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl.agents import dqn


__all__ = ['CategoricalDQN', 'apply_categorical_projection']


def apply_categorical_projection(y, y_probs, z):
    """Project the distribution with probabilities ``y_probs`` on the
    values ``y`` onto the evenly spaced atoms ``z`` (equation (7) of the
    C51 paper).

    Each value, clipped to ``[z[0], z[-1]]``, splits its probability
    between its two neighbouring atoms in proportion to closeness; a value
    on an atom gives it everything. Computed for all (atom, value) pairs as
    ``clip(1 - |y - z| / dz, 0, 1)``, which is that split.

    Args:
        y (array): ``(batch_size, n_atoms)`` values before projection.
        y_probs (array): ``(batch_size, n_atoms)`` their probabilities.
        z (array): ``(n_atoms,)`` ascending, evenly spaced atoms.

    Returns:
        array ``(batch_size, n_atoms)``: probabilities of the atoms ``z``.
    """
    owner = 'apply_categorical_projection'
    y, y_probs, z = (_arrays.unwrap(a) for a in (y, y_probs, z))
    if z.ndim != 1 or z.shape[0] < 2:
        raise ValueError('{}: z must have shape (n_atoms,) with n_atoms >= '
                         '2, got {}'.format(owner, tuple(z.shape)))
    n_atoms = z.shape[0]
    if y.ndim != 2 or y.shape[1] != n_atoms or y_probs.shape != y.shape:
        raise ValueError('{}: y and y_probs must both have shape (batch_size,'
                         ' {}), got {} and {}'.format(
                             owner, n_atoms, tuple(y.shape),
                             tuple(y_probs.shape)))
    xp = chainer.backend.get_array_module(y)
    z = _arrays.like(z, y, dtype=y.dtype)
    y_probs = _arrays.like(y_probs, y)
    z_host = _arrays.to_host(z)
    v_min, v_max = float(z_host[0]), float(z_host[-1])
    delta_z = (v_max - v_min) / (n_atoms - 1)
    batch_size = y.shape[0]
    y = xp.clip(y, v_min, v_max).reshape((batch_size, 1, n_atoms))
    # Axis 1 runs over the atoms z, axis 2 over the values y.
    weight = xp.clip(
        1.0 - xp.abs(y - z.reshape((1, n_atoms, 1))) / delta_z, 0.0, 1.0)
    return (weight * y_probs.reshape((batch_size, 1, n_atoms))).sum(axis=2)


# ChainerRL's name.
_apply_categorical_projection = apply_categorical_projection


class CategoricalDQN(dqn.DQN):
    """Categorical DQN, from "A Distributional Perspective on
    Reinforcement Learning" (Bellemare et al., 2017).

    The Q-function returns, per action, probabilities on fixed atoms
    (a ``DistributionalDiscreteActionValue``). The target is the greedy
    next action's distribution shifted by the reward and shrunk by the
    discount, projected back onto the atoms; the loss is the cross-entropy
    to it, which also serves as the priority of prioritized replay. Same
    arguments as :class:`~chainer_rl.agents.DQN` (``clip_delta`` does not
    apply).
    """

    def _next_distribution(self, exp_batch):
        """Target network's distribution of the next greedy action, and
        its atoms."""
        target_next = self._forward_target(exp_batch, 'next_state')
        return target_next.max_as_distribution, target_next.z_values

    def _compute_target_values(self, exp_batch):
        """Projected target distributions, ``(batch_size, n_atoms)``."""
        next_dist, z = self._next_distribution(exp_batch)
        next_dist = _arrays.unwrap(next_dist)
        factor = (exp_batch['discount']
                  * (1.0 - exp_batch['is_state_terminal']))
        tz = (exp_batch['reward'][:, None]
              + factor[:, None] * z[None].astype(next_dist.dtype))
        return apply_categorical_projection(tz, next_dist, z)

    def _compute_y_and_t(self, exp_batch):
        qout = self._forward_batch(self.model, exp_batch, 'state')
        self._last_z_values = qout.z_values
        y = qout.evaluate_actions_as_distribution(exp_batch['action'])
        with chainer.no_backprop_mode():
            t = self._compute_target_values(exp_batch)
        if tuple(t.shape) != tuple(y.shape):
            raise ValueError(
                '{}: target distributions have shape {} but predictions {}; '
                'the target network must use the same atoms'.format(
                    type(self).__name__, tuple(t.shape), tuple(y.shape)))
        return y, t

    def _compute_loss(self, exp_batch, errors_out=None):
        y, t = self._compute_y_and_t(exp_batch)
        z = self._last_z_values
        self._record_q(F.sum(y * F.broadcast_to(z[None], y.shape), axis=1))
        # Cross-entropy to the projected target, per sample.
        per_sample = -F.sum(t * F.log(F.clip(y, 1e-10, 1.0)), axis=1)
        if errors_out is not None:
            del errors_out[:]
            errors_out.extend(_arrays.to_host(per_sample).tolist())
        if 'weights' in exp_batch:
            weights = _arrays.like(exp_batch['weights'], per_sample.array,
                                   dtype=per_sample.dtype)
            per_sample = per_sample * weights
        if self.batch_accumulator == 'sum':
            return F.sum(per_sample)
        return F.mean(per_sample)
