"""Proportional prioritized experience replay (Schaul et al., 2016, 3.3)."""
import collections

import numpy as np

from chainer_rl.replay_buffers import _storage
from chainer_rl.replay_buffers._structures import PrioritizedQueue
from chainer_rl.replay_buffers.replay_buffer import ReplayBuffer
from chainer_rl.replay_buffers.replay_buffer import check_capacity
from chainer_rl.replay_buffers.replay_buffer import check_num_steps
from chainer_rl.replay_buffers.replay_buffer import check_sample_size


def _check_number(owner, name, value, low=None, high=None, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        raise ValueError('{}: {} must be a number, got {!r}'.format(
            owner, name, value))
    value = float(value)
    if (low is not None and value < low) or \
            (high is not None and value > high) or np.isnan(value):
        raise ValueError('{}: {} must be in [{}, {}], got {!r}'.format(
            owner, name, '-inf' if low is None else low,
            'inf' if high is None else high, value))
    return value


def load_with_priorities(filename, owner):
    """The sequences and metadata in ``filename`` and their priorities
    (None when the file was written by a buffer without priorities)."""
    sequences, meta, arrays = _storage.load_sequences(filename, owner)
    priority = arrays.get('priority')
    if priority is not None:
        priority = np.asarray(priority, dtype=np.float64).ravel()
        if priority.shape != (len(sequences),) or \
                not np.all(np.isfinite(priority)) or \
                not np.all(priority > 0):
            raise ValueError('{}: {!r} has invalid priorities'
                             .format(owner, filename))
    return sequences, meta, priority


class PriorityWeightError(object):
    """Priorities from TD errors and importance weights from probabilities.

    A transition with error ``d`` gets priority ``(clip(d) + eps) **
    alpha``. A sample drawn with probability ``P`` gets the weight ``(N *
    P) ** -beta``, divided by the largest possible weight (so weights are
    at most 1) when ``normalize_by_max``; ``beta`` grows linearly from
    ``beta0`` to 1 over ``betasteps`` samples.

    Args:
        alpha (float): how strongly errors shape the sampling (0: uniform).
        beta0 (float): initial importance-sampling exponent.
        betasteps (float or None): samples until beta reaches 1 (None: beta
            stays at beta0).
        eps (float): added to errors so zero-error items are still drawn.
        normalize_by_max: ``True`` or ``'batch'``: divide by the largest
            weight of the sampled batch; ``'memory'``: by the largest
            weight any stored item could get; ``False``: do not normalize.
        error_min, error_max (float or None): clip errors to this range.
    """

    def __init__(self, alpha, beta0, betasteps, eps, normalize_by_max,
                 error_min, error_max):
        owner = type(self).__name__
        self.alpha = _check_number(owner, 'alpha', alpha, low=0.0)
        self.beta = _check_number(owner, 'beta0', beta0, low=0.0, high=1.0)
        if betasteps is None:
            self.beta_add = 0.0
        else:
            betasteps = _check_number(owner, 'betasteps', betasteps)
            if betasteps <= 0:
                raise ValueError('{}: betasteps must be > 0 or None, got {!r}'
                                 .format(owner, betasteps))
            self.beta_add = (1.0 - self.beta) / betasteps
        self.eps = _check_number(owner, 'eps', eps, low=0.0)
        if normalize_by_max is True:
            normalize_by_max = 'batch'
        if normalize_by_max not in (False, 'batch', 'memory'):
            raise ValueError("{}: normalize_by_max must be True, False, "
                             "'batch' or 'memory', got {!r}".format(
                                 owner, normalize_by_max))
        self.normalize_by_max = normalize_by_max
        self.error_min = _check_number(owner, 'error_min', error_min,
                                       allow_none=True)
        self.error_max = _check_number(owner, 'error_max', error_max,
                                       allow_none=True)
        if self.error_min is not None and self.error_max is not None and \
                self.error_min > self.error_max:
            raise ValueError('{}: error_min ({}) exceeds error_max ({})'
                             .format(owner, error_min, error_max))

    def priority_from_errors(self, errors):
        """Priorities ``(clip(error) + eps) ** alpha`` of ``errors``."""
        out = []
        for e in np.asarray(errors, dtype=np.float64).ravel().tolist():
            if np.isnan(e):
                raise ValueError('{}.update_errors: errors contain NaN'
                                 .format(type(self).__name__))
            if self.error_min is not None:
                e = max(self.error_min, e)
            if self.error_max is not None:
                e = min(self.error_max, e)
            out.append((e + self.eps) ** self.alpha)
        return out

    def weights_from_probabilities(self, probabilities, min_probability):
        """Importance weights of samples drawn with ``probabilities``;
        advances beta by one step."""
        p = np.asarray(probabilities, dtype=np.float64)
        if self.normalize_by_max == 'batch':
            weights = (p / p.min()) ** -self.beta
        elif self.normalize_by_max == 'memory':
            weights = (p / min_probability) ** -self.beta
        else:
            weights = (len(self.memory) * p) ** -self.beta
        self.beta = min(1.0, self.beta + self.beta_add)
        return weights.tolist()


class PrioritizedReplayBuffer(ReplayBuffer, PriorityWeightError):
    """Replay buffer sampling items in proportion to their priority.

    New items get the largest priority seen so far. ``sample`` stores each
    item's importance weight under ``'weight'`` in the item's first
    transition; the agent then must call ``update_errors`` with the new
    absolute TD errors of the sampled items before sampling again.

    Args:
        capacity (int or None): maximum number of items.
        alpha, beta0, betasteps, eps, normalize_by_max, error_min,
        error_max: see :class:`PriorityWeightError`.
        num_steps (int): transitions per item (n of n-step returns).
    """

    def __init__(self, capacity=None, alpha=0.6, beta0=0.4, betasteps=2e5,
                 eps=0.01, normalize_by_max=True, error_min=0, error_max=1,
                 num_steps=1):
        self.capacity = check_capacity(type(self).__name__, capacity)
        self.num_steps = check_num_steps(type(self).__name__, num_steps)
        self.memory = self._new_memory()
        self.last_n_transitions = collections.defaultdict(
            lambda: collections.deque([], maxlen=self.num_steps))
        PriorityWeightError.__init__(
            self, alpha, beta0, betasteps, eps, normalize_by_max,
            error_min=error_min, error_max=error_max)

    def _new_memory(self):
        return PrioritizedQueue(capacity=self.capacity)

    def sample(self, n):
        """Draw ``n`` distinct items in proportion to their priorities."""
        n = check_sample_size(type(self).__name__ + '.sample', n,
                              len(self.memory))
        sampled, probabilities, min_prob = self.memory.sample(n)
        weights = self.weights_from_probabilities(probabilities, min_prob)
        for item, w in zip(sampled, weights):
            item[0]['weight'] = w
        return sampled

    def update_errors(self, errors):
        """Set the priorities of the last sample from their TD errors."""
        self.memory.set_last_priority(self.priority_from_errors(errors))

    def _meta(self):
        meta = super()._meta()
        meta['max_priority'] = self.memory.max_priority
        meta['beta'] = self.beta
        return meta

    def save(self, filename):
        """Write the items and their priorities to ``filename`` (npz, no
        pickle); see :meth:`ReplayBuffer.save`. Items of a sample still
        waiting for ``update_errors`` keep their previous priority."""
        _storage.save_sequences(
            filename, type(self).__name__ + '.save', list(self.memory),
            self._meta(),
            arrays={'priority': self.memory.min_priorities()})

    def load(self, filename):
        """Replace the items and priorities with those in ``filename``.
        A file written by a plain ReplayBuffer loads with the largest
        priority for every item."""
        owner = type(self).__name__ + '.load'
        sequences, meta, priority = load_with_priorities(filename, owner)
        self.memory = self._new_memory()
        max_p = meta.get('max_priority') if isinstance(meta, dict) else None
        if isinstance(max_p, (int, float)) and max_p > 0:
            self.memory.max_priority = float(max_p)
        for i, seq in enumerate(sequences):
            self.memory.append(
                seq, None if priority is None else float(priority[i]))
