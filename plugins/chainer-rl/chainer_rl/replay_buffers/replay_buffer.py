"""Uniform experience replay with n-step transitions."""
import collections

import numpy as np

from chainer_rl import replay_buffer
from chainer_rl.replay_buffers import _storage
from chainer_rl.replay_buffers._structures import RandomAccessQueue


def check_capacity(owner, capacity):
    """Validate a ``capacity`` argument (None or a positive integer)."""
    if capacity is None:
        return None
    if isinstance(capacity, float) and capacity.is_integer():
        capacity = int(capacity)
    if isinstance(capacity, bool) or not isinstance(
            capacity, (int, np.integer)) or capacity < 1:
        raise ValueError('{}: capacity must be None or an integer >= 1, got '
                         '{!r}'.format(owner, capacity))
    return int(capacity)


def check_num_steps(owner, num_steps):
    """Validate a ``num_steps`` argument (a positive integer)."""
    if isinstance(num_steps, bool) or not isinstance(
            num_steps, (int, np.integer)) or num_steps < 1:
        raise ValueError('{}: num_steps must be an integer >= 1, got {!r}'
                         .format(owner, num_steps))
    return int(num_steps)


def make_transition(state, action, reward, next_state, next_action,
                    is_state_terminal, kwargs):
    """The dict one ``append`` stores."""
    transition = dict(state=state, action=action, reward=reward,
                      next_state=next_state, next_action=next_action,
                      is_state_terminal=is_state_terminal)
    transition.update(kwargs)
    return transition


def check_sample_size(owner, n, available):
    """Validate the size of a sample without replacement."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError('{}: n must be an integer >= 0, got {!r}'
                         .format(owner, n))
    if n > available:
        raise ValueError('{}: cannot sample {} distinct items; the buffer '
                         'holds {}'.format(owner, n, available))
    return int(n)


class ReplayBuffer(replay_buffer.AbstractReplayBuffer):
    """Experience replay (Mnih et al., 2015) with n-step transitions.

    Each stored item is a list of up to ``num_steps`` consecutive
    transitions of one environment, so an update can use n-step returns.
    An item is stored once ``num_steps`` transitions are pending; at the end
    of an episode the shorter tails are stored too, so every transition
    starts exactly one item.

    Args:
        capacity (int or None): maximum number of items; the oldest go
            first.
        num_steps (int): transitions per item (n of n-step returns).
    """

    def __init__(self, capacity=None, num_steps=1):
        self.capacity = check_capacity(type(self).__name__, capacity)
        self.num_steps = check_num_steps(type(self).__name__, num_steps)
        self.memory = self._new_memory()
        self.last_n_transitions = collections.defaultdict(
            lambda: collections.deque([], maxlen=self.num_steps))

    def _new_memory(self):
        return RandomAccessQueue(maxlen=self.capacity)

    def append(self, state, action, reward, next_state=None,
               next_action=None, is_state_terminal=False, env_id=0,
               **kwargs):
        """Store a transition of environment ``env_id``; see
        :meth:`AbstractReplayBuffer.append`."""
        pending = self.last_n_transitions[env_id]
        pending.append(make_transition(state, action, reward, next_state,
                                       next_action, is_state_terminal,
                                       kwargs))
        if is_state_terminal:
            self._flush(pending)
        elif len(pending) == self.num_steps:
            self.memory.append(list(pending))

    def _flush(self, pending):
        # Store every tail of ``pending`` not stored yet; a full window
        # was already stored when its last transition arrived.
        if len(pending) == self.num_steps and \
                not pending[-1]['is_state_terminal']:
            pending.popleft()
        while pending:
            self.memory.append(list(pending))
            pending.popleft()

    def stop_current_episode(self, env_id=0):
        """End ``env_id``'s episode: store its remaining shorter tails."""
        if env_id in self.last_n_transitions:
            self._flush(self.last_n_transitions[env_id])

    def sample(self, num_experiences):
        """Return ``num_experiences`` distinct items chosen uniformly."""
        n = check_sample_size(type(self).__name__ + '.sample',
                              num_experiences, len(self.memory))
        return self.memory.sample(n)

    def __len__(self):
        return len(self.memory)

    def _meta(self):
        return {'class': type(self).__name__, 'capacity': self.capacity,
                'num_steps': self.num_steps}

    def save(self, filename):
        """Write the stored items to ``filename`` (npz, no pickle).

        Episodes still in progress are not saved. Observations that are
        array-like (e.g. LazyFrames) come back as plain arrays.

        Raises:
            TypeError: a transition holds a value that is not an array,
                number, bool, string, None or a container of those.
        """
        _storage.save_sequences(filename, type(self).__name__ + '.save',
                                list(self.memory), self._meta())

    def load(self, filename):
        """Replace the stored items with those saved in ``filename``.

        The buffer keeps its own capacity: when the file holds more items,
        the newest ones are kept.

        Raises:
            ValueError: the file is not a saved replay buffer.
        """
        sequences, _, _ = _storage.load_sequences(
            filename, type(self).__name__ + '.load')
        self.memory = self._new_memory()
        self.memory.extend(sequences)
