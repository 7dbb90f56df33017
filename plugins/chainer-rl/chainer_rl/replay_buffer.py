"""Replay buffer interfaces, minibatch assembly and the update schedule.

The buffers themselves live in :mod:`chainer_rl.replay_buffers`; their
classes are also reachable from here (``chainer_rl.replay_buffer.
ReplayBuffer``) as in ChainerRL, where older code imports them this way.
"""
import abc
import importlib

import numpy as np

import chainer_core


__all__ = ['AbstractReplayBuffer', 'AbstractEpisodicReplayBuffer',
           'ReplayUpdater', 'batch_experiences',
           'batch_recurrent_experiences', 'batch_states', 'random_subseq',
           'ReplayBuffer', 'PrioritizedReplayBuffer', 'PriorityWeightError',
           'EpisodicReplayBuffer', 'PrioritizedEpisodicReplayBuffer']

# Re-exported lazily: the buffers' modules import this one for the base
# classes, so an eager import here would be circular.
_REEXPORTED = ('ReplayBuffer', 'PrioritizedReplayBuffer',
               'PriorityWeightError', 'EpisodicReplayBuffer',
               'PrioritizedEpisodicReplayBuffer')


def __getattr__(name):
    if name in _REEXPORTED:
        value = getattr(importlib.import_module('chainer_rl.replay_buffers'),
                        name)
        globals()[name] = value
        return value
    raise AttributeError('module chainer_rl.replay_buffer has no attribute '
                         '{!r}'.format(name))


class AbstractReplayBuffer(object, metaclass=abc.ABCMeta):
    """What agents need from a replay buffer (ChainerRL's interface)."""

    @abc.abstractmethod
    def append(self, state, action, reward, next_state=None,
               next_action=None, is_state_terminal=False, env_id=0,
               **kwargs):
        """Store one transition.

        Args:
            state: s_t.
            action: a_t.
            reward: r_t.
            next_state: s_{t+1} (may be None when terminal).
            next_action: a_{t+1} (None for off-policy methods).
            is_state_terminal (bool): whether s_{t+1} is terminal.
            env_id (hashable): which environment produced the transition,
                so transitions of parallel environments are not chained.
            **kwargs: further values stored with the transition.
        """

    @abc.abstractmethod
    def sample(self, n):
        """Return ``n`` stored transitions chosen at random, each a list of
        one or more consecutive transition dicts."""

    @abc.abstractmethod
    def __len__(self):
        """Number of stored transitions."""

    @abc.abstractmethod
    def save(self, filename):
        """Write the buffer's contents to ``filename``."""

    @abc.abstractmethod
    def load(self, filename):
        """Replace the buffer's contents with those saved in ``filename``."""

    @abc.abstractmethod
    def stop_current_episode(self, env_id=0):
        """Mark the end of the current episode of ``env_id`` (for episodes
        cut short without a terminal state)."""


class AbstractEpisodicReplayBuffer(AbstractReplayBuffer):
    """A replay buffer that can also hand out whole episodes."""

    @abc.abstractmethod
    def sample_episodes(self, n_episodes, max_len=None):
        """Return ``n_episodes`` episodes (lists of transition dicts) chosen
        at random, each cut to a random window of at most ``max_len``."""

    @property
    @abc.abstractmethod
    def n_episodes(self):
        """Number of stored episodes."""


def random_subseq(seq, subseq_len):
    """A uniformly placed window of ``subseq_len`` items of ``seq`` (the
    whole of ``seq`` when it is not longer)."""
    if subseq_len is None or len(seq) <= subseq_len:
        return seq
    start = np.random.randint(0, len(seq) - subseq_len + 1)
    return seq[start:start + subseq_len]


def _device_of_xp(xp):
    if xp is np or xp is None:
        return None
    for device in chainer_core.backend.available_devices():
        if getattr(device, 'xp', None) is xp:
            return device
    return None


def _local_batch_states(states, xp, phi):
    features = [phi(s) for s in states]
    device = _device_of_xp(xp)
    batch = chainer_core.dataset.concat_examples(features, device=device)
    if device is None and xp is not None and xp is not np:
        batch = xp.asarray(batch)
    return batch


def batch_states(states, xp, phi):
    """Stack ``phi(s)`` for each state into a batch on ``xp``'s device.

    Uses ``chainer_rl.misc.batch_states`` when that module is installed, so
    agents and replay updates batch observations the same way.
    """
    try:
        module = importlib.import_module('chainer_rl.misc.batch_states')
        func = getattr(module, 'batch_states')
    except (ImportError, AttributeError):
        func = _local_batch_states
    return func(states, xp, phi)


def _array_module(xp):
    # PFRL passes a device where ChainerRL passes an array module.
    if isinstance(xp, str):
        xp = chainer_core.get_device(xp)
    if isinstance(xp, chainer_core.backend.Device):
        return xp.xp
    return xp


def _check_experiences(experiences, func):
    if not isinstance(experiences, (list, tuple)) or not experiences:
        raise ValueError('{}: experiences must be a non-empty list of lists '
                         'of transition dicts, got {!r}'.format(
                             func, type(experiences).__name__
                             if not isinstance(experiences, (list, tuple))
                             else experiences))
    for exp in experiences:
        if not isinstance(exp, (list, tuple)) or not exp:
            raise ValueError('{}: each experience must be a non-empty list '
                             'of transition dicts, got {!r}'.format(
                                 func, type(exp).__name__))
        for tr in exp:
            if not isinstance(tr, dict):
                raise ValueError('{}: transitions must be dicts, got {}'
                                 .format(func, type(tr).__name__))


def batch_experiences(experiences, xp, phi, gamma, batch_states=batch_states):
    """Turn sampled n-step transitions into arrays for an update.

    Each experience is a list of 1 to n consecutive transition dicts (as
    ``ReplayBuffer.sample`` returns them). The result holds, per
    experience: the first ``state`` and ``action``; ``reward`` = sum over
    k of gamma**k r_k; the last ``next_state``; ``is_state_terminal`` (1
    if any of its transitions ended the episode); ``discount`` =
    gamma**(number of transitions), the factor of the bootstrapped value;
    and ``next_action`` when every experience stores one.

    Args:
        experiences (list of lists of dicts): sampled transitions.
        xp: array module of the model (numpy or a device's module), or a
            device (PFRL's calling convention).
        phi (callable): feature extractor applied to every state.
        gamma (float): discount factor.
        batch_states (callable): ``(states, xp, phi) -> batch``.

    Returns:
        dict of batched arrays.
    """
    _check_experiences(experiences, 'batch_experiences')
    xp = _array_module(xp)
    # One pass over the experiences: a minibatch is hundreds of them, and
    # this runs for every update.
    states, actions, next_states = [], [], []
    rewards, discounts, terminals = [], [], []
    for exp in experiences:
        first, last = exp[0], exp[-1]
        states.append(first['state'])
        actions.append(first['action'])
        next_states.append(last['next_state'])
        if len(exp) == 1:
            rewards.append(float(first['reward']))
            discounts.append(gamma)
            terminals.append(bool(first['is_state_terminal']))
            continue
        total = 0.0
        factor = 1.0
        for tr in exp:
            total += factor * float(tr['reward'])
            factor *= gamma
        rewards.append(total)
        discounts.append(factor)
        terminals.append(any(tr['is_state_terminal'] for tr in exp))
    batch = {
        'state': batch_states(states, xp, phi),
        'action': xp.asarray(np.asarray(actions)),
        'reward': xp.asarray(np.asarray(rewards, dtype=np.float32)),
        'next_state': batch_states(next_states, xp, phi),
        'is_state_terminal': xp.asarray(np.asarray(terminals,
                                                   dtype=np.float32)),
        'discount': xp.asarray(np.asarray(discounts, dtype=np.float32)),
    }
    if all(exp[-1].get('next_action') is not None for exp in experiences):
        batch['next_action'] = xp.asarray(np.asarray(
            [exp[-1]['next_action'] for exp in experiences]))
    return batch


def _time_first(sequences):
    longest = max(len(s) for s in sequences)
    return [s[t] for t in range(longest) for s in sequences if len(s) > t]


def batch_recurrent_experiences(experiences, model, xp, phi, gamma,
                                batch_states=batch_states):
    """Turn sampled episode windows into arrays for a recurrent update.

    ``experiences`` must be sorted by decreasing length (the order
    ``transpose_sequence`` needs). ``state`` and ``next_state`` are lists
    of per-episode batches; the per-step arrays (``action``, ``reward``,
    ``is_state_terminal``, ``discount`` = gamma, ``next_action``) are
    flattened time-major: step 0 of every episode, then step 1 of those
    long enough, and so on. When the transitions store ``recurrent_state``
    and ``next_recurrent_state``, those of each window's first step are
    joined by ``model.concatenate_recurrent_states``.
    """
    _check_experiences(experiences, 'batch_recurrent_experiences')
    xp = _array_module(xp)
    lengths = [len(ep) for ep in experiences]
    if any(a < b for a, b in zip(lengths, lengths[1:])):
        raise ValueError('batch_recurrent_experiences: experiences must be '
                         'sorted by decreasing length, got lengths {}'
                         .format(lengths))
    flat = _time_first(experiences)
    batch = {
        'state': [batch_states([tr['state'] for tr in ep], xp, phi)
                  for ep in experiences],
        'action': xp.asarray(np.asarray([tr['action'] for tr in flat])),
        'reward': xp.asarray(np.asarray([tr['reward'] for tr in flat],
                                        dtype=np.float32)),
        'next_state': [batch_states([tr['next_state'] for tr in ep], xp, phi)
                       for ep in experiences],
        'is_state_terminal': xp.asarray(np.asarray(
            [tr['is_state_terminal'] for tr in flat], dtype=np.float32)),
        'discount': xp.asarray(np.full(len(flat), gamma, dtype=np.float32)),
    }
    for key in ('recurrent_state', 'next_recurrent_state'):
        if model is not None and all(key in ep[0] for ep in experiences):
            batch[key] = model.concatenate_recurrent_states(
                [ep[0][key] for ep in experiences])
    if all(tr.get('next_action') is not None for tr in flat):
        batch['next_action'] = xp.asarray(np.asarray(
            [tr['next_action'] for tr in flat]))
    return batch


def _check_int(func, name, value, minimum, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or value < minimum:
        raise ValueError('{}: {} must be an integer >= {}{}, got {!r}'.format(
            func, name, minimum, ' or None' if allow_none else '', value))
    return int(value)


class ReplayUpdater(object):
    """Decides when an agent updates from its replay buffer.

    Every ``update_interval`` steps, once the buffer holds at least
    ``replay_start_size`` transitions (and, for episodic updates, at least
    ``batchsize`` episodes), ``update_func`` is called ``n_times_update``
    times with a fresh sample: a list of transitions, or a list of
    episodes cut to ``episodic_update_len`` when ``episodic_update``.

    Args:
        replay_buffer: the buffer to sample.
        update_func (callable): called with each sample.
        batchsize (int): transitions (or episodes) per sample.
        episodic_update (bool): sample episodes instead of transitions.
        n_times_update (int): updates per triggering step.
        replay_start_size (int): no update before the buffer is this large.
        update_interval (int): steps between updates.
        episodic_update_len (int or None): window length of the sampled
            episodes.
    """

    def __init__(self, replay_buffer, update_func, batchsize,
                 episodic_update, n_times_update, replay_start_size,
                 update_interval, episodic_update_len=None):
        name = 'ReplayUpdater'
        if not callable(update_func):
            raise TypeError('{}: update_func must be callable, got {!r}'
                            .format(name, update_func))
        self.replay_buffer = replay_buffer
        self.update_func = update_func
        self.batchsize = _check_int(name, 'batchsize', batchsize, 1)
        self.episodic_update = bool(episodic_update)
        self.episodic_update_len = _check_int(
            name, 'episodic_update_len', episodic_update_len, 1,
            allow_none=True)
        self.n_times_update = _check_int(name, 'n_times_update',
                                         n_times_update, 0)
        self.replay_start_size = _check_int(name, 'replay_start_size',
                                            replay_start_size, 0)
        self.update_interval = _check_int(name, 'update_interval',
                                          update_interval, 1)

    def update_if_necessary(self, iteration):
        """Update if step ``iteration`` is due; return whether it did."""
        if len(self.replay_buffer) < self.replay_start_size:
            return False
        if self.episodic_update and \
                self.replay_buffer.n_episodes < self.batchsize:
            return False
        if iteration % self.update_interval != 0:
            return False
        for _ in range(self.n_times_update):
            if self.episodic_update:
                sample = self.replay_buffer.sample_episodes(
                    self.batchsize, self.episodic_update_len)
            else:
                sample = self.replay_buffer.sample(self.batchsize)
            self.update_func(sample)
        return True
