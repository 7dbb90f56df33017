"""Containers used by replay buffers."""
import itertools

import numpy

from chainer_rl.misc.random import sample_n_k


class RandomAccessQueue(object):
    """A FIFO queue with O(1) indexing and optional maximum length.

    ``collections.deque`` indexes in O(n) away from its ends, which makes
    uniform sampling from a large replay buffer slow. This keeps two lists:
    ``_front`` holds the oldest items in reverse order (so ``popleft`` pops
    from its end) and ``_back`` the newest in order.
    """

    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None:
            if isinstance(maxlen, bool) or not isinstance(
                    maxlen, (int, numpy.integer)) or maxlen < 0:
                raise ValueError('RandomAccessQueue: maxlen must be None or a'
                                 ' non-negative int, got {!r}'.format(maxlen))
            maxlen = int(maxlen)
        self.maxlen = maxlen
        self._front = []
        self._back = []
        self.extend(iterable)

    def __len__(self):
        return len(self._front) + len(self._back)

    def __repr__(self):
        return 'RandomAccessQueue({!r}, maxlen={})'.format(list(self),
                                                           self.maxlen)

    def __iter__(self):
        return itertools.chain(reversed(self._front), self._back)

    def _locate(self, i):
        n = len(self)
        if isinstance(i, bool) or not isinstance(i, (int, numpy.integer)):
            raise TypeError('RandomAccessQueue: indices must be ints, got {}'
                            .format(type(i).__name__))
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError('RandomAccessQueue: index out of range')
        nf = len(self._front)
        if i < nf:
            return self._front, nf - 1 - i
        return self._back, i - nf

    def __getitem__(self, i):
        lst, j = self._locate(i)
        return lst[j]

    def __setitem__(self, i, value):
        lst, j = self._locate(i)
        lst[j] = value

    def append(self, x):
        """Add ``x`` at the end, dropping the oldest item when full."""
        if self.maxlen == 0:
            return
        self._back.append(x)
        if self.maxlen is not None and len(self) > self.maxlen:
            self.popleft()

    def extend(self, xs):
        """Append every item of ``xs``."""
        for x in xs:
            self.append(x)

    def popleft(self):
        """Remove and return the oldest item."""
        if not self._front:
            if not self._back:
                raise IndexError('RandomAccessQueue.popleft: the queue is '
                                 'empty')
            self._front = self._back[::-1]
            self._back = []
        return self._front.pop()

    def sample(self, k):
        """Return ``k`` distinct items drawn uniformly (NumPy's generator)."""
        front, back = self._front, self._back
        nf = len(front)
        # Indexing the two lists directly: a replay buffer draws hundreds of
        # items per update, and _locate's checks cannot fail on these.
        return [front[nf - 1 - i] if i < nf else back[i - nf]
                for i in sample_n_k(len(self), k).tolist()]
