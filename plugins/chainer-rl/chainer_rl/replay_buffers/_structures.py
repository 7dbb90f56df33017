"""Containers behind the replay buffers: ``misc.collections``'s queue
with O(1) random access, and a priority queue whose sums and minima are
kept in segment trees, so proportional sampling costs O(log n) per draw
even for millions of items.

Random numbers come from ``numpy.random``'s global generator, so seeding it
(as ``chainer_rl.misc.set_random_seed`` does) makes sampling reproducible.
"""
import numpy as np

from chainer_rl.misc.collections import RandomAccessQueue  # NOQA
from chainer_rl.misc.random import sample_n_k


class PrioritizedQueue(object):
    """FIFO queue whose items carry positive priorities.

    Items live in a ring of slots whose size is a power of two; two segment
    trees over the slots hold the sum and the minimum of the priorities.
    An empty slot has sum-priority 0 and min-priority +inf. The ring doubles
    when full (only possible without ``capacity``).

    While sampled items wait for new priorities (``wait_priority_after_
    sampling``), their sum-priority is 0 so they are neither drawn twice in
    one batch nor drawn again before ``set_last_priority``.

    Args:
        capacity (int or None): when full, appending drops the oldest item.
        wait_priority_after_sampling (bool): see above.
        initial_max_priority (float): priority of items appended before any
            priority was set.
    """

    def __init__(self, capacity=None, wait_priority_after_sampling=True,
                 initial_max_priority=1.0):
        if capacity is not None:
            if isinstance(capacity, bool) or not isinstance(
                    capacity, (int, np.integer)) or capacity < 1:
                raise ValueError(
                    'PrioritizedQueue: capacity must be None or an integer '
                    '>= 1, got {!r}'.format(capacity))
            capacity = int(capacity)
        self.capacity = capacity
        self.wait_priority_after_sampling = wait_priority_after_sampling
        self.max_priority = float(initial_max_priority)
        self.flag_wait_priority = False
        self.sampled_indices = []
        self._allocate(16 if capacity is None else capacity)

    # -- storage ---------------------------------------------------------

    def _allocate(self, n_slots):
        size = 1
        while size < n_slots:
            size *= 2
        self._size = size
        self._sum = np.zeros(2 * size, dtype=np.float64)
        self._min = np.full(2 * size, np.inf, dtype=np.float64)
        self._data = [None] * size
        self._head = 0
        self._len = 0

    def _grow(self):
        items = [self._data[self._slot(i)] for i in range(self._len)]
        prios = [self._sum[self._size + self._slot(i)]
                 for i in range(self._len)]
        mins = [self._min[self._size + self._slot(i)]
                for i in range(self._len)]
        self._allocate(2 * self._size)
        for i, (item, p, m) in enumerate(zip(items, prios, mins)):
            self._data[i] = item
            self._write(i, p, m)
        self._len = len(items)

    def _slot(self, i):
        return (self._head + i) % self._size

    def _write(self, slot, sum_value, min_value):
        j = slot + self._size
        self._sum[j] = sum_value
        self._min[j] = min_value
        j //= 2
        while j >= 1:
            a = 2 * j
            self._sum[j] = self._sum[a] + self._sum[a + 1]
            self._min[j] = min(self._min[a], self._min[a + 1])
            j //= 2

    def __len__(self):
        return self._len

    def __getitem__(self, i):
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError('PrioritizedQueue index out of range')
        return self._data[self._slot(i)]

    def __iter__(self):
        for i in range(self._len):
            yield self._data[self._slot(i)]

    def priorities(self):
        """Current priorities, oldest first (0 for items awaiting one)."""
        return np.array([self._sum[self._size + self._slot(i)]
                         for i in range(self._len)], dtype=np.float64)

    def min_priorities(self):
        """Priorities as the min tree holds them (kept while awaiting)."""
        return np.array([self._min[self._size + self._slot(i)]
                         for i in range(self._len)], dtype=np.float64)

    def append(self, value, priority=None):
        """Add ``value``; without ``priority`` it gets the largest so far."""
        if self.capacity is not None and self._len == self.capacity:
            self.popleft()
        if priority is None:
            priority = self.max_priority
        priority = float(priority)
        if not priority > 0 or not np.isfinite(priority):
            raise ValueError('PrioritizedQueue.append: priority must be a '
                             'finite number > 0, got {!r}'.format(priority))
        if self._len == self._size:
            self._grow()
        slot = self._slot(self._len)
        self._data[slot] = value
        self._write(slot, priority, priority)
        self._len += 1

    def popleft(self):
        """Remove and return the oldest item."""
        if self._len == 0:
            raise IndexError('pop from an empty PrioritizedQueue')
        slot = self._head
        value = self._data[slot]
        self._data[slot] = None
        self._write(slot, 0.0, np.inf)
        self._head = (self._head + 1) % self._size
        self._len -= 1
        if self.sampled_indices:
            # Indices of a pending sample shift by one; one that pointed at
            # the removed item is dropped from the update.
            self.sampled_indices = [i - 1 if i is not None and i > 0
                                    else None for i in self.sampled_indices]
        return value

    # -- sampling --------------------------------------------------------

    def total_priority(self):
        """Sum of the priorities of the items not awaiting a priority."""
        return float(self._sum[1])

    def min_priority(self):
        """Smallest priority of all items (including those awaiting)."""
        return float(self._min[1])

    def _find(self, u):
        j = 1
        while j < self._size:
            left = 2 * j
            if (u < self._sum[left] or self._sum[left + 1] <= 0.0) \
                    and self._sum[left] > 0.0:
                j = left
            else:
                u -= self._sum[left]
                j = left + 1
        slot = j - self._size
        return (slot - self._head) % self._size

    def _take(self, i):
        # Give item i sum-priority 0 until its priority is set again.
        self._write(self._slot(i), 0.0, self._min[self._size + self._slot(i)])

    def sample(self, n, uniform_ratio=0):
        """Draw ``n`` distinct items.

        Each draw picks item ``i`` with probability ``uniform_ratio / len +
        (1 - uniform_ratio) * p_i / sum(p)``; the items are drawn one after
        another without replacement.

        Returns:
            (items, probabilities, min_probability): ``probabilities`` are
            those single-draw probabilities, ``min_probability`` the
            smallest one over the whole queue (for weight normalization).
        """
        if self.wait_priority_after_sampling and self.flag_wait_priority:
            raise RuntimeError(
                'sample: the previous sample is still waiting for its '
                'priorities; call update_errors (set_last_priority) first')
        n = int(n)
        if not 0 <= n <= self._len:
            raise ValueError('sample: cannot draw {} distinct items from {}'
                             .format(n, self._len))
        total = self.total_priority()
        if total <= 0.0:
            raise RuntimeError('sample: every priority is zero')
        min_prob = self.min_priority() / total
        saved = {}
        indices = []
        priorities = []
        n_uniform = 0
        if uniform_ratio > 0:
            n_uniform = int(np.random.binomial(n, uniform_ratio))
            for i in sample_n_k(self._len, n_uniform):
                i = int(i)
                p = self._sum[self._size + self._slot(i)]
                indices.append(i)
                priorities.append(p)
                saved[i] = p
                self._take(i)
            min_prob = (uniform_ratio / self._len
                        + (1 - uniform_ratio) * min_prob)
        for _ in range(n - n_uniform):
            remaining = self.total_priority()
            if remaining <= 0.0:
                raise RuntimeError(
                    'sample: fewer than {} items have a non-zero priority'
                    .format(n))
            i = self._find(np.random.uniform(0.0, remaining))
            p = self._sum[self._size + self._slot(i)]
            indices.append(i)
            priorities.append(p)
            saved[i] = p
            self._take(i)
        if not self.wait_priority_after_sampling:
            for i, p in saved.items():
                self._write(self._slot(i), p,
                            self._min[self._size + self._slot(i)])
        probs = [uniform_ratio / self._len
                 + (1 - uniform_ratio) * p / total for p in priorities]
        self.sampled_indices = indices
        self.flag_wait_priority = True
        return [self[i] for i in indices], probs, min_prob

    def set_last_priority(self, priority):
        """Give the items of the last ``sample`` their new priorities."""
        if self.wait_priority_after_sampling and not self.flag_wait_priority:
            raise RuntimeError(
                'update_errors: there is no sample waiting for priorities')
        priority = [float(p) for p in priority]
        if len(priority) != len(self.sampled_indices):
            raise ValueError(
                'update_errors: expected {} errors (one per sampled item), '
                'got {}'.format(len(self.sampled_indices), len(priority)))
        for p in priority:
            if not p > 0 or not np.isfinite(p):
                raise ValueError('update_errors: priorities must be finite '
                                 'and > 0, got {!r}'.format(p))
        for i, p in zip(self.sampled_indices, priority):
            if i is None:
                continue
            self._write(self._slot(i), p, p)
            self.max_priority = max(self.max_priority, p)
        self.flag_wait_priority = False
        self.sampled_indices = []
