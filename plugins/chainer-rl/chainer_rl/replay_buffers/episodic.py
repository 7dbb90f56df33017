"""Replay of whole episodes, for recurrent models and off-policy
corrections that need trajectories (ACER, DRQN)."""
import collections

import numpy as np

from chainer_rl import replay_buffer
from chainer_rl.replay_buffers import _storage
from chainer_rl.replay_buffers._structures import RandomAccessQueue
from chainer_rl.replay_buffers.replay_buffer import check_capacity
from chainer_rl.replay_buffers.replay_buffer import check_sample_size
from chainer_rl.replay_buffers.replay_buffer import make_transition


def check_max_len(owner, max_len):
    """Validate a ``max_len`` argument (None or a positive integer)."""
    if max_len is None:
        return None
    if isinstance(max_len, bool) or not isinstance(
            max_len, (int, np.integer)) or max_len < 1:
        raise ValueError('{}: max_len must be None or an integer >= 1, got '
                         '{!r}'.format(owner, max_len))
    return int(max_len)


class EpisodicReplayBuffer(replay_buffer.AbstractEpisodicReplayBuffer):
    """Stores finished episodes; samples transitions or episodes.

    Transitions of an episode are kept aside until it ends (a terminal
    transition or ``stop_current_episode``). ``capacity`` counts
    transitions; when exceeded, whole episodes are dropped, oldest first.

    Args:
        capacity (int or None): maximum number of transitions.
    """

    def __init__(self, capacity=None):
        self.capacity = check_capacity(type(self).__name__, capacity)
        self.current_episode = collections.defaultdict(list)
        self.episodic_memory = RandomAccessQueue()
        self.memory = RandomAccessQueue()

    def append(self, state, action, reward, next_state=None,
               next_action=None, is_state_terminal=False, env_id=0,
               **kwargs):
        """Add a transition to ``env_id``'s current episode; a terminal
        transition ends the episode."""
        self.current_episode[env_id].append(make_transition(
            state, action, reward, next_state, next_action,
            is_state_terminal, kwargs))
        if is_state_terminal:
            self.stop_current_episode(env_id=env_id)

    def sample(self, n):
        """Return ``n`` distinct transitions, each as a one-item list."""
        n = check_sample_size(type(self).__name__ + '.sample', n,
                              len(self.memory))
        return self.memory.sample(n)

    def sample_episodes(self, n_episodes, max_len=None):
        """Return ``n_episodes`` distinct episodes, each cut to a uniformly
        placed window of at most ``max_len`` transitions."""
        owner = type(self).__name__ + '.sample_episodes'
        n = check_sample_size(owner, n_episodes, len(self.episodic_memory))
        max_len = check_max_len(owner, max_len)
        episodes = self.episodic_memory.sample(n)
        if max_len is not None:
            episodes = [replay_buffer.random_subseq(ep, max_len)
                        for ep in episodes]
        return episodes

    def __len__(self):
        return len(self.memory)

    @property
    def n_episodes(self):
        """Number of stored (finished) episodes."""
        return len(self.episodic_memory)

    def _store_episode(self, episode):
        self.episodic_memory.append(episode)
        for transition in episode:
            self.memory.append([transition])
        while self.capacity is not None and len(self.memory) > self.capacity:
            dropped = self.episodic_memory.popleft()
            for _ in range(len(dropped)):
                self.memory.popleft()

    def stop_current_episode(self, env_id=0):
        """End ``env_id``'s episode and store it (if it has transitions)."""
        episode = self.current_episode.pop(env_id, None)
        if episode:
            self._store_episode(episode)

    def save(self, filename):
        """Write the stored episodes to ``filename`` (npz, no pickle).

        Episodes still in progress are not saved.

        Raises:
            TypeError: a transition holds a value that cannot be stored as
                arrays.
        """
        _storage.save_sequences(filename, type(self).__name__ + '.save',
                                list(self.episodic_memory),
                                {'class': type(self).__name__,
                                 'capacity': self.capacity})

    def load(self, filename):
        """Replace the stored episodes with those saved in ``filename``
        (keeping this buffer's capacity: the newest episodes are kept)."""
        sequences, _, _ = _storage.load_sequences(
            filename, type(self).__name__ + '.load')
        self.episodic_memory = RandomAccessQueue()
        self.memory = RandomAccessQueue()
        for episode in sequences:
            self._store_episode(episode)
