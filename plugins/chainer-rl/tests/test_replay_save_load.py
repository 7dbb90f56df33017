"""Replay buffers written to npz and read back, without pickle."""
import os
import pickle

import numpy as np
import pytest

from chainer_rl import replay_buffers


class _ArrayLike(object):
    """Stands for LazyFrames: converts to an array on demand."""

    def __init__(self, value):
        self.value = value

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.value, dtype=dtype)


def _fill(rbuf, n, start=0, terminal_every=4):
    for i in range(start, start + n):
        rbuf.append(
            state=np.full((2, 3), i, dtype=np.uint8), action=i % 3,
            reward=float(i) / 2, next_state=np.full((2, 3), i + 1,
                                                    dtype=np.uint8),
            next_action=None,
            is_state_terminal=(i % terminal_every == terminal_every - 1),
            extra={'tag': 'x', 'pair': (np.float32(i), [i, None])})


def _same(a, b):
    assert type(a) is type(b), (a, b)
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    else:
        assert a == b


def test_replay_buffer_round_trip(tmp_path):
    rbuf = replay_buffers.ReplayBuffer(capacity=100, num_steps=3)
    _fill(rbuf, 10)
    path = str(tmp_path / 'rbuf')
    rbuf.save(path)
    assert os.path.exists(path)  # written as named, no suffix added
    loaded = replay_buffers.ReplayBuffer(capacity=100, num_steps=3)
    loaded.load(path)
    # two finished episodes of 4; the last 2 transitions are pending
    assert len(loaded) == len(rbuf) == 8
    for a, b in zip(rbuf.memory, loaded.memory):
        _same(a, b)
    # overlapping n-step items share their transition dicts again
    items = list(loaded.memory)
    assert items[1][0] is items[0][1]


def test_load_keeps_own_capacity(tmp_path):
    rbuf = replay_buffers.ReplayBuffer()
    _fill(rbuf, 8, terminal_every=100)
    path = str(tmp_path / 'b.npz')
    rbuf.save(path)
    small = replay_buffers.ReplayBuffer(capacity=3)
    small.load(path)
    assert [item[0]['action'] for item in small.memory] == [2, 0, 1]
    assert [int(item[0]['state'][0, 0]) for item in small.memory] == \
        [5, 6, 7]


def test_mixed_shapes_none_and_array_likes(tmp_path):
    rbuf = replay_buffers.ReplayBuffer()
    rbuf.append(np.zeros(2), 0, 1, _ArrayLike([[1, 2], [3, 4]]))
    rbuf.append(np.zeros(5), np.int32(1), np.float32(0.5), None,
                is_state_terminal=True)
    rbuf.append('text', 1.5, True, (np.ones(1), {'a': 1}))
    path = str(tmp_path / 'mixed')
    rbuf.save(path)
    loaded = replay_buffers.ReplayBuffer()
    loaded.load(path)
    first, second, third = [item[0] for item in loaded.memory]
    np.testing.assert_array_equal(first['next_state'], [[1, 2], [3, 4]])
    assert second['next_state'] is None
    assert second['action'].dtype == np.int32
    assert isinstance(second['reward'], np.float32)
    assert second['is_state_terminal'] is True
    assert first['reward'] == 1 and type(first['reward']) is int
    assert third['state'] == 'text' and third['reward'] is True
    assert isinstance(third['next_state'], tuple)
    assert third['next_state'][1] == {'a': 1}


def test_unstorable_values_are_refused(tmp_path):
    rbuf = replay_buffers.ReplayBuffer()
    rbuf.append(np.zeros(2), 0, 0.0, np.zeros(2), policy=lambda x: x)
    with pytest.raises(TypeError, match=r"ReplayBuffer.save: transition"
                       r"\['policy'\] holds a"):
        rbuf.save(str(tmp_path / 'x'))
    rbuf2 = replay_buffers.ReplayBuffer()
    rbuf2.append(np.array([object()]), 0, 0.0, None)
    with pytest.raises(TypeError, match='dtype object'):
        rbuf2.save(str(tmp_path / 'y'))


def test_loading_a_stranger_file_runs_no_code(tmp_path):
    marker = tmp_path / 'was_run'

    class Evil(object):
        def __reduce__(self):
            return (open, (str(marker), 'w'))

    path = str(tmp_path / 'evil.npz')
    with open(path, 'wb') as f:
        np.savez(f, __meta__=np.array([Evil()], dtype=object))
    with pytest.raises(ValueError, match='ReplayBuffer.load'):
        replay_buffers.ReplayBuffer().load(path)
    assert not marker.exists()

    raw = str(tmp_path / 'raw.pkl')
    with open(raw, 'wb') as f:
        pickle.dump(Evil(), f)
    with pytest.raises(ValueError, match='not a replay buffer file'):
        replay_buffers.ReplayBuffer().load(raw)
    assert not marker.exists()

    other = str(tmp_path / 'other.npz')
    np.savez(other, a=np.zeros(3))
    with pytest.raises(ValueError, match='__meta__'):
        replay_buffers.EpisodicReplayBuffer().load(other)


def test_prioritized_round_trip_keeps_priorities(tmp_path):
    np.random.seed(0)
    rbuf = replay_buffers.PrioritizedReplayBuffer(alpha=1.0, eps=0.0,
                                                  num_steps=2)
    _fill(rbuf, 6, terminal_every=100)
    batch = rbuf.sample(5)
    rbuf.update_errors([0.1 * (1 + item[0]['action']) for item in batch])
    path = str(tmp_path / 'p')
    rbuf.save(path)
    loaded = replay_buffers.PrioritizedReplayBuffer(alpha=1.0, eps=0.0,
                                                    num_steps=2)
    loaded.load(path)
    np.testing.assert_allclose(loaded.memory.priorities(),
                               rbuf.memory.priorities())
    assert loaded.memory.max_priority == rbuf.memory.max_priority
    # a plain buffer reads the same file, ignoring the priorities
    plain = replay_buffers.ReplayBuffer()
    plain.load(path)
    assert len(plain) == 5


def test_episodic_round_trips(tmp_path):
    np.random.seed(1)
    rbuf = replay_buffers.EpisodicReplayBuffer(capacity=50)
    _fill(rbuf, 10)
    rbuf.stop_current_episode()
    path = str(tmp_path / 'e')
    rbuf.save(path)
    loaded = replay_buffers.EpisodicReplayBuffer(capacity=50)
    loaded.load(path)
    assert (loaded.n_episodes, len(loaded)) == (3, 10)
    for a, b in zip(rbuf.episodic_memory, loaded.episodic_memory):
        _same(a, b)
    # the per-transition view holds the episodes' own dicts
    assert loaded.memory[0][0] is loaded.episodic_memory[0][0]

    prb = replay_buffers.PrioritizedEpisodicReplayBuffer(alpha=1.0)
    _fill(prb, 8)
    eps, _ = prb.sample_episodes(2)
    prb.update_errors([0.3, 0.7])
    prb.save(path)
    loaded = replay_buffers.PrioritizedEpisodicReplayBuffer(alpha=1.0)
    loaded.load(path)
    np.testing.assert_allclose(loaded.episodic_memory.priorities(),
                               prb.episodic_memory.priorities())
    assert loaded.n_episodes == 2 and len(loaded) == 8


def test_lazy_frames_are_written_once_and_stay_shared(tmp_path):
    from chainer_rl.wrappers.atari_wrappers import LazyFrames
    frames = [np.full((1, 5, 5), i, dtype=np.uint8) for i in range(12)]
    rbuf = replay_buffers.ReplayBuffer()
    for i in range(8):
        rbuf.append(LazyFrames(frames[i:i + 4], stack_axis=0), 0, 0.0,
                    LazyFrames(frames[i + 1:i + 5], stack_axis=0))
    path = str(tmp_path / 'lazy')
    rbuf.save(path)
    with np.load(path) as npz:
        stored = [npz[k] for k in npz.files if k.startswith('a')
                  and k[1:].isdigit()]
    # 12 distinct frames are stored, not 8 * 2 * 4 = 64
    assert sum(a.shape[0] for a in stored) == 12
    loaded = replay_buffers.ReplayBuffer()
    loaded.load(path)
    items = [item[0] for item in loaded.memory]
    assert type(items[0]['state']) is LazyFrames
    np.testing.assert_array_equal(np.asarray(items[3]['state'])[:, 0, 0],
                                  [3, 4, 5, 6])
    assert items[0]['next_state'].frames[0] is items[1]['state'].frames[0]
