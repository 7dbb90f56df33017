"""Replay buffers with ChainerRL's interface: uniform n-step replay,
proportional prioritized replay, and their episodic versions."""
from chainer_rl.replay_buffers.episodic import EpisodicReplayBuffer  # NOQA
from chainer_rl.replay_buffers.prioritized import PrioritizedReplayBuffer  # NOQA
from chainer_rl.replay_buffers.prioritized import PriorityWeightError  # NOQA
from chainer_rl.replay_buffers.prioritized_episodic import PrioritizedEpisodicReplayBuffer  # NOQA
from chainer_rl.replay_buffers.replay_buffer import ReplayBuffer  # NOQA

__all__ = ['ReplayBuffer', 'PrioritizedReplayBuffer', 'PriorityWeightError',
           'EpisodicReplayBuffer', 'PrioritizedEpisodicReplayBuffer']
