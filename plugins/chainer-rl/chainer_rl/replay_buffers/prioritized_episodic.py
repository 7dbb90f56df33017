"""Episodic replay whose episodes are drawn in proportion to priorities."""
import collections

from chainer_rl import replay_buffer
from chainer_rl.replay_buffers import _storage
from chainer_rl.replay_buffers._structures import PrioritizedQueue
from chainer_rl.replay_buffers._structures import RandomAccessQueue
from chainer_rl.replay_buffers.episodic import EpisodicReplayBuffer
from chainer_rl.replay_buffers.episodic import check_max_len
from chainer_rl.replay_buffers.prioritized import PriorityWeightError
from chainer_rl.replay_buffers.prioritized import _check_number
from chainer_rl.replay_buffers.prioritized import load_with_priorities
from chainer_rl.replay_buffers.replay_buffer import check_capacity
from chainer_rl.replay_buffers.replay_buffer import check_sample_size


class PrioritizedEpisodicReplayBuffer(EpisodicReplayBuffer,
                                      PriorityWeightError):
    """Episodic replay with prioritized episode sampling.

    ``sample_episodes`` draws episodes in proportion to their priorities
    (mixed with uniform draws by ``uniform_ratio``) and, with
    ``return_sample_weights``, returns ``(episodes, weights)``; then
    ``update_errors`` must give one error per sampled episode.

    Args:
        capacity (int or None): maximum number of transitions; whole
            episodes are dropped, oldest first.
        alpha, beta0, betasteps, eps, normalize_by_max, error_min,
        error_max: see :class:`PriorityWeightError`.
        default_priority_func (callable or None): priority of a new episode
            from its transitions (None: the largest priority so far).
        uniform_ratio (float): fraction of uniformly drawn episodes.
        wait_priority_after_sampling (bool): sampled episodes are not drawn
            again until ``update_errors``.
        return_sample_weights (bool): return importance weights too.
    """

    def __init__(self, capacity=None, alpha=0.6, beta0=0.4, betasteps=2e5,
                 eps=1e-8, normalize_by_max=True, default_priority_func=None,
                 uniform_ratio=0, wait_priority_after_sampling=True,
                 return_sample_weights=True, error_min=None,
                 error_max=None):
        owner = type(self).__name__
        self.capacity = check_capacity(owner, capacity)
        if default_priority_func is not None and \
                not callable(default_priority_func):
            raise TypeError('{}: default_priority_func must be callable or '
                            'None, got {!r}'.format(owner,
                                                    default_priority_func))
        self.current_episode = collections.defaultdict(list)
        self.episodic_memory = PrioritizedQueue(
            capacity=None,
            wait_priority_after_sampling=wait_priority_after_sampling)
        self.memory = RandomAccessQueue(maxlen=self.capacity)
        self.capacity_left = self.capacity
        self.default_priority_func = default_priority_func
        self.uniform_ratio = _check_number(owner, 'uniform_ratio',
                                           uniform_ratio, low=0.0, high=1.0)
        self.return_sample_weights = return_sample_weights
        PriorityWeightError.__init__(
            self, alpha, beta0, betasteps, eps, normalize_by_max,
            error_min=error_min, error_max=error_max)

    def sample_episodes(self, n_episodes, max_len=None):
        """Draw ``n_episodes`` distinct episodes by priority; returns
        ``(episodes, weights)`` when ``return_sample_weights``."""
        owner = type(self).__name__ + '.sample_episodes'
        n = check_sample_size(owner, n_episodes, len(self.episodic_memory))
        max_len = check_max_len(owner, max_len)
        episodes, probabilities, min_prob = self.episodic_memory.sample(
            n, uniform_ratio=self.uniform_ratio)
        if max_len is not None:
            episodes = [replay_buffer.random_subseq(ep, max_len)
                        for ep in episodes]
        if self.return_sample_weights:
            weights = self.weights_from_probabilities(probabilities,
                                                      min_prob)
            return episodes, weights
        return episodes

    def update_errors(self, errors):
        """Set the priorities of the last sampled episodes from errors."""
        self.episodic_memory.set_last_priority(
            self.priority_from_errors(errors))

    def _store_episode(self, episode, priority=None):
        if priority is None and self.default_priority_func is not None:
            priority = self.default_priority_func(episode)
        self.memory.extend([tr] for tr in episode)
        self.episodic_memory.append(episode, priority=priority)
        if self.capacity_left is not None:
            self.capacity_left -= len(episode)
        while self.capacity_left is not None and self.capacity_left < 0:
            dropped = self.episodic_memory.popleft()
            self.capacity_left += len(dropped)

    def stop_current_episode(self, env_id=0):
        """End ``env_id``'s episode and store it (if it has transitions)."""
        episode = self.current_episode.pop(env_id, None)
        if episode:
            self._store_episode(episode)

    def save(self, filename):
        """Write the episodes and their priorities to ``filename`` (npz, no
        pickle)."""
        _storage.save_sequences(
            filename, type(self).__name__ + '.save',
            list(self.episodic_memory),
            {'class': type(self).__name__, 'capacity': self.capacity,
             'max_priority': self.episodic_memory.max_priority,
             'beta': self.beta},
            arrays={'priority': self.episodic_memory.min_priorities()})

    def load(self, filename):
        """Replace the episodes and priorities with those in ``filename``
        (a plain EpisodicReplayBuffer file gets the largest priority)."""
        owner = type(self).__name__ + '.load'
        sequences, meta, priority = load_with_priorities(filename, owner)
        self.episodic_memory = PrioritizedQueue(
            capacity=None,
            wait_priority_after_sampling=(
                self.episodic_memory.wait_priority_after_sampling))
        max_p = meta.get('max_priority') if isinstance(meta, dict) else None
        if isinstance(max_p, (int, float)) and max_p > 0:
            self.episodic_memory.max_priority = float(max_p)
        self.memory = RandomAccessQueue(maxlen=self.capacity)
        self.capacity_left = self.capacity
        for i, episode in enumerate(sequences):
            self._store_episode(
                episode, None if priority is None else float(priority[i]))
