"""ReplayBuffer, PrioritizedReplayBuffer and the episodic buffers against
hand-computed contents, frequencies and weights."""
import collections

import numpy as np
import pytest

import chainer_core

from chainer_rl import replay_buffer
from chainer_rl import replay_buffers


def _append_episode(rbuf, rewards, terminal, env_id=0, start=0):
    for i, r in enumerate(rewards):
        last = i == len(rewards) - 1
        rbuf.append(state=start + i, action=i, reward=r,
                    next_state=start + i + 1,
                    is_state_terminal=terminal and last, env_id=env_id)
    if not terminal:
        rbuf.stop_current_episode(env_id=env_id)


def _rewards(item):
    return tuple(tr['reward'] for tr in item)


def _all_items(rbuf):
    return sorted(_rewards(item) for item in rbuf.memory)


def test_reexports_match_chainerrl_layout():
    assert replay_buffer.ReplayBuffer is replay_buffers.ReplayBuffer
    assert replay_buffer.PrioritizedReplayBuffer is \
        replay_buffers.PrioritizedReplayBuffer
    assert replay_buffer.EpisodicReplayBuffer is \
        replay_buffers.EpisodicReplayBuffer
    assert issubclass(replay_buffers.ReplayBuffer,
                      replay_buffer.AbstractReplayBuffer)
    assert issubclass(replay_buffers.EpisodicReplayBuffer,
                      replay_buffer.AbstractEpisodicReplayBuffer)


def test_nstep_items_of_a_terminated_episode():
    rbuf = replay_buffers.ReplayBuffer(num_steps=3)
    rbuf.append(0, 0, 1.0, 1)
    rbuf.append(1, 0, 2.0, 2)
    assert len(rbuf) == 0  # no full 3-step window yet
    rbuf.append(2, 0, 3.0, 3)
    assert _all_items(rbuf) == [(1.0, 2.0, 3.0)]
    rbuf.append(3, 0, 4.0, 4)
    rbuf.append(4, 0, 5.0, 5, is_state_terminal=True)
    # Every transition starts exactly one item; the tails are shorter.
    assert _all_items(rbuf) == [(1.0, 2.0, 3.0), (2.0, 3.0, 4.0),
                                (3.0, 4.0, 5.0), (4.0, 5.0), (5.0,)]
    # Stopping after a terminal transition adds nothing.
    rbuf.stop_current_episode()
    assert len(rbuf) == 5


def test_nstep_items_of_a_truncated_episode():
    rbuf = replay_buffers.ReplayBuffer(num_steps=3)
    _append_episode(rbuf, [10.0, 11.0, 12.0, 13.0], terminal=False)
    assert _all_items(rbuf) == [(10.0, 11.0, 12.0), (11.0, 12.0, 13.0),
                                (12.0, 13.0), (13.0,)]
    rbuf2 = replay_buffers.ReplayBuffer(num_steps=3)
    _append_episode(rbuf2, [7.0, 8.0], terminal=False)
    assert _all_items(rbuf2) == [(7.0, 8.0), (8.0,)]
    rbuf3 = replay_buffers.ReplayBuffer(num_steps=1)
    _append_episode(rbuf3, [1.0, 2.0], terminal=False)
    assert _all_items(rbuf3) == [(1.0,), (2.0,)]


def test_envs_are_chained_separately():
    rbuf = replay_buffers.ReplayBuffer(num_steps=2)
    for t in range(3):
        for env_id in (0, 1):
            rbuf.append(state=(env_id, t), action=0, reward=10 * env_id + t,
                        next_state=(env_id, t + 1), env_id=env_id)
    for item in rbuf.memory:
        assert len({tr['state'][0] for tr in item}) == 1
    assert _all_items(rbuf) == [(0, 1), (1, 2), (10, 11), (11, 12)]
    rbuf.stop_current_episode(env_id=1)
    assert _all_items(rbuf) == [(0, 1), (1, 2), (10, 11), (11, 12), (12,)]


def test_capacity_drops_oldest_items():
    rbuf = replay_buffers.ReplayBuffer(capacity=3)
    for i in range(5):
        rbuf.append(state=i, action=0, reward=float(i), next_state=i + 1)
    assert len(rbuf) == 3
    assert [item[0]['state'] for item in rbuf.memory] == [2, 3, 4]
    np.random.seed(0)
    got = sorted(item[0]['state'] for item in rbuf.sample(3))
    assert got == [2, 3, 4]
    with pytest.raises(ValueError, match='ReplayBuffer.sample'):
        rbuf.sample(4)


def test_uniform_sample_is_distinct_and_uniform():
    np.random.seed(1)
    rbuf = replay_buffers.ReplayBuffer()
    for i in range(10):
        rbuf.append(state=i, action=0, reward=0.0, next_state=i + 1)
    counts = collections.Counter()
    for _ in range(2000):
        batch = rbuf.sample(3)
        states = [item[0]['state'] for item in batch]
        assert len(set(states)) == 3
        counts.update(states)
    # each state is in a 3-of-10 sample with probability 0.3
    for i in range(10):
        assert abs(counts[i] / 2000 - 0.3) < 0.04


@pytest.mark.parametrize('bad', [0, -1, 1.5, True, 'x'])
def test_bad_arguments_are_named(bad):
    with pytest.raises(ValueError, match='ReplayBuffer: capacity'):
        replay_buffers.ReplayBuffer(capacity=bad)
    with pytest.raises(ValueError, match='num_steps'):
        replay_buffers.ReplayBuffer(num_steps=bad)


def test_batch_experiences_nstep_returns():
    gamma = 0.5
    rbuf = replay_buffers.ReplayBuffer(num_steps=3)
    obs = [np.full(2, i, dtype=np.float32) for i in range(6)]
    rewards = [1.0, 2.0, 3.0, 4.0, 5.0]
    for i, r in enumerate(rewards):
        rbuf.append(obs[i], i, r, obs[i + 1], next_action=i + 1,
                    is_state_terminal=(i == 4))
    items = sorted(rbuf.memory, key=lambda it: it[0]['action'])
    batch = replay_buffer.batch_experiences(items, np, lambda x: x, gamma)
    # [1,2,3]: 1 + .5*2 + .25*3 = 2.75; [2,3,4]: 2 + 1.5 + 1 = 4.5;
    # [3,4,5] (ends terminal): 3 + 2 + 1.25 = 6.25; [4,5]: 6.5; [5]: 5
    np.testing.assert_allclose(
        batch['reward'], [2.75, 4.5, 6.25, 6.5, 5.0])
    np.testing.assert_allclose(batch['discount'],
                               [0.125, 0.125, 0.125, 0.25, 0.5])
    np.testing.assert_array_equal(batch['is_state_terminal'],
                                  [0, 0, 1, 1, 1])
    np.testing.assert_array_equal(batch['action'], [0, 1, 2, 3, 4])
    np.testing.assert_array_equal(batch['state'][:, 0], [0, 1, 2, 3, 4])
    np.testing.assert_array_equal(batch['next_state'][:, 0],
                                  [3, 4, 5, 5, 5])
    np.testing.assert_array_equal(batch['next_action'], [3, 4, 5, 5, 5])
    assert batch['reward'].dtype == np.float32
    assert batch['state'].dtype == np.float32

    items[0][-1]['next_action'] = None
    batch = replay_buffer.batch_experiences(items, np, lambda x: x, gamma)
    assert 'next_action' not in batch
    with pytest.raises(ValueError, match='batch_experiences'):
        replay_buffer.batch_experiences([], np, lambda x: x, gamma)


def test_batch_experiences_on_every_device(device):
    rbuf = replay_buffers.ReplayBuffer(num_steps=2)
    for i in range(3):
        rbuf.append(np.full(3, i, dtype=np.float32), i, 1.0,
                    np.full(3, i + 1, dtype=np.float32))
    rbuf.stop_current_episode()
    items = sorted(rbuf.memory, key=lambda it: it[0]['action'])
    batch = replay_buffer.batch_experiences(items, device.xp,
                                            lambda x: x * 2, 0.9)
    cpu = chainer_core.backend.CpuDevice()
    assert chainer_core.backend.get_device_from_array(
        batch['state']) == device
    # items [0,1], [1,2], [2]: rewards 1 + .9, 1 + .9, 1
    np.testing.assert_allclose(cpu.send(batch['reward']), [1.9, 1.9, 1.0],
                               rtol=1e-6)
    np.testing.assert_allclose(cpu.send(batch['state'])[:, 0], [0, 2, 4])
    np.testing.assert_allclose(cpu.send(batch['discount']),
                               [0.81, 0.81, 0.9], rtol=1e-6)
    # PFRL passes the device itself
    batch = replay_buffer.batch_experiences(items, device, lambda x: x, 0.9)
    assert chainer_core.backend.get_device_from_array(
        batch['reward']) == device


def test_batch_recurrent_experiences_is_time_major():
    ep_a = [dict(state=np.float32(i), action=i, reward=float(i),
                 next_state=np.float32(i + 1), next_action=None,
                 is_state_terminal=(i == 2)) for i in range(3)]
    ep_b = [dict(state=np.float32(10 + i), action=10 + i,
                 reward=float(10 + i), next_state=np.float32(11 + i),
                 next_action=None, is_state_terminal=False)
            for i in range(2)]
    batch = replay_buffer.batch_recurrent_experiences(
        [ep_a, ep_b], None, np, lambda x: x, 0.9)
    np.testing.assert_array_equal(batch['action'], [0, 10, 1, 11, 2])
    np.testing.assert_array_equal(batch['is_state_terminal'],
                                  [0, 0, 0, 0, 1])
    np.testing.assert_allclose(batch['discount'], [0.9] * 5)
    np.testing.assert_array_equal(batch['state'][1], [10, 11])
    with pytest.raises(ValueError, match='decreasing length'):
        replay_buffer.batch_recurrent_experiences(
            [ep_b, ep_a], None, np, lambda x: x, 0.9)


def test_random_subseq_bounds():
    np.random.seed(0)
    seq = list(range(5))
    starts = collections.Counter()
    for _ in range(3000):
        sub = replay_buffer.random_subseq(seq, 3)
        assert sub == list(range(sub[0], sub[0] + 3))
        starts[sub[0]] += 1
    assert sorted(starts) == [0, 1, 2]
    for s in range(3):
        assert abs(starts[s] / 3000 - 1 / 3) < 0.04
    assert replay_buffer.random_subseq(seq, 9) == seq


# -- prioritized ----------------------------------------------------------

def _prioritized_with_errors(errors, **kwargs):
    rbuf = replay_buffers.PrioritizedReplayBuffer(**kwargs)
    for i in range(len(errors)):
        rbuf.append(state=i, action=0, reward=0.0, next_state=i + 1)
    batch = rbuf.sample(len(errors))
    rbuf.update_errors([errors[item[0]['state']] for item in batch])
    return rbuf


def test_prioritized_frequencies_follow_priority_to_the_alpha():
    np.random.seed(3)
    errors = [0.1, 0.2, 0.4, 0.8]
    alpha, eps = 0.6, 0.01
    rbuf = _prioritized_with_errors(errors, alpha=alpha, eps=eps)
    prio = [(0.11) ** 0.6, (0.21) ** 0.6, (0.41) ** 0.6, (0.81) ** 0.6]
    np.testing.assert_allclose(rbuf.memory.priorities(), prio)
    expected = np.array(prio) / sum(prio)
    counts = np.zeros(4)
    n = 20000
    for _ in range(n):
        item, = rbuf.sample(1)
        s = item[0]['state']
        counts[s] += 1
        rbuf.update_errors([errors[s]])
    np.testing.assert_allclose(counts / n, expected, atol=0.012)


def test_prioritized_sample_is_without_replacement():
    np.random.seed(4)
    rbuf = _prioritized_with_errors([0.01, 0.01, 1.0], alpha=1.0, eps=0.0)
    for _ in range(50):
        batch = rbuf.sample(2)
        states = [item[0]['state'] for item in batch]
        assert len(set(states)) == 2
        rbuf.update_errors([[0.01, 0.01, 1.0][s] for s in states])


def test_importance_weights_and_beta_annealing():
    np.random.seed(5)
    errors = [0.1, 0.25, 0.5, 1.0]
    rbuf = _prioritized_with_errors(errors, alpha=1.0, eps=0.0,
                                    beta0=0.4, betasteps=2)
    # the first sample (all items at priority 1) took one beta step
    assert rbuf.beta == pytest.approx(0.7)
    p = np.array(errors)  # priorities: alpha = 1, eps = 0
    batch = rbuf.sample(3)
    states = [item[0]['state'] for item in batch]
    probs = p[states] / p.sum()
    weights = [item[0]['weight'] for item in batch]
    np.testing.assert_allclose(weights, (probs / probs.min()) ** -0.7,
                               rtol=1e-9)
    assert max(weights) == pytest.approx(1.0)
    assert rbuf.beta == pytest.approx(1.0)
    rbuf.update_errors([errors[s] for s in states])
    rbuf.sample(1)
    assert rbuf.beta == 1.0  # capped


def test_importance_weights_memory_and_unnormalized():
    np.random.seed(6)
    errors = [0.1, 0.3, 0.5, 0.7]
    pr = np.array(errors)  # alpha=1, eps=0
    for norm in ('memory', False):
        rbuf = _prioritized_with_errors(errors, alpha=1.0, eps=0.0,
                                        beta0=0.5, betasteps=None,
                                        normalize_by_max=norm)
        batch = rbuf.sample(2)
        states = [item[0]['state'] for item in batch]
        probs = pr[states] / pr.sum()
        weights = [item[0]['weight'] for item in batch]
        if norm == 'memory':
            expected = (probs / (0.1 / pr.sum())) ** -0.5
        else:
            expected = (4 * probs) ** -0.5
        np.testing.assert_allclose(weights, expected, rtol=1e-9)
        rbuf.update_errors([errors[s] for s in states])


def test_error_clipping_and_new_item_priority():
    rbuf = _prioritized_with_errors([5.0, -3.0], alpha=0.5, eps=0.01,
                                    error_min=0, error_max=1)
    np.testing.assert_allclose(sorted(rbuf.memory.priorities()),
                               [0.01 ** 0.5, 1.01 ** 0.5])
    assert rbuf.memory.max_priority == pytest.approx(1.01 ** 0.5)
    rbuf.append(state=9, action=0, reward=0.0, next_state=10)
    assert rbuf.memory.priorities()[-1] == pytest.approx(1.01 ** 0.5)


def test_prioritized_protocol_errors():
    rbuf = _prioritized_with_errors([0.5, 0.5])
    rbuf.sample(1)
    with pytest.raises(RuntimeError, match='update_errors'):
        rbuf.sample(1)
    with pytest.raises(ValueError, match='expected 1 errors'):
        rbuf.update_errors([0.1, 0.2])
    rbuf.update_errors([0.1])
    with pytest.raises(RuntimeError, match='no sample waiting'):
        rbuf.update_errors([0.1])
    with pytest.raises(ValueError, match='alpha'):
        replay_buffers.PrioritizedReplayBuffer(alpha=-1)
    with pytest.raises(ValueError, match='normalize_by_max'):
        replay_buffers.PrioritizedReplayBuffer(normalize_by_max='x')


def test_prioritized_capacity_and_growth():
    np.random.seed(7)
    rbuf = replay_buffers.PrioritizedReplayBuffer(capacity=5, alpha=1.0,
                                                  eps=0.0, error_max=None)
    for i in range(12):
        rbuf.append(state=i, action=0, reward=0.0, next_state=i + 1)
    assert [item[0]['state'] for item in rbuf.memory] == list(range(7, 12))
    batch = rbuf.sample(5)
    rbuf.update_errors([float(item[0]['state']) for item in batch])
    np.testing.assert_allclose(rbuf.memory.priorities(), [7, 8, 9, 10, 11])
    assert rbuf.memory.total_priority() == pytest.approx(45.0)
    # Unbounded: the trees double past their initial size.
    big = replay_buffers.PrioritizedReplayBuffer()
    for i in range(40):
        big.append(state=i, action=0, reward=0.0, next_state=i + 1)
    assert len(big) == 40
    assert big.memory.total_priority() == pytest.approx(40.0)
    assert [item[0]['state'] for item in big.memory] == list(range(40))


def test_prioritized_nstep():
    rbuf = replay_buffers.PrioritizedReplayBuffer(num_steps=2)
    _append_episode(rbuf, [1.0, 2.0, 3.0], terminal=True)
    assert _all_items(rbuf) == [(1.0, 2.0), (2.0, 3.0), (3.0,)]


# -- episodic -------------------------------------------------------------

def test_episodic_capacity_drops_whole_episodes():
    rbuf = replay_buffers.EpisodicReplayBuffer(capacity=6)
    _append_episode(rbuf, [1.0, 1.0, 1.0], terminal=True, start=0)
    _append_episode(rbuf, [2.0, 2.0], terminal=False, start=10)
    assert (len(rbuf), rbuf.n_episodes) == (5, 2)
    _append_episode(rbuf, [3.0, 3.0], terminal=True, start=20)
    # 7 transitions > 6: the oldest episode (3 transitions) goes
    assert (len(rbuf), rbuf.n_episodes) == (4, 2)
    assert [ep[0]['state'] for ep in rbuf.episodic_memory] == [10, 20]
    assert sorted(item[0]['reward'] for item in rbuf.memory) == \
        [2.0, 2.0, 3.0, 3.0]
    # transitions of an unfinished episode are not sampled yet
    rbuf.append(state=99, action=0, reward=9.0, next_state=100)
    assert len(rbuf) == 4
    assert all(len(item) == 1 for item in rbuf.sample(4))


def test_sample_episodes_windows():
    np.random.seed(8)
    rbuf = replay_buffers.EpisodicReplayBuffer()
    _append_episode(rbuf, [0.0] * 5, terminal=True, start=0)
    _append_episode(rbuf, [0.0] * 2, terminal=True, start=100)
    starts = collections.Counter()
    for _ in range(1500):
        eps = rbuf.sample_episodes(2, max_len=3)
        assert len(eps) == 2
        for ep in eps:
            states = [tr['state'] for tr in ep]
            if states[0] >= 100:
                assert states == [100, 101]  # shorter than max_len: whole
            else:
                assert len(states) == 3
                assert states == list(range(states[0], states[0] + 3))
                starts[states[0]] += 1
    assert sorted(starts) == [0, 1, 2]
    for s in range(3):
        assert abs(starts[s] / 1500 - 1 / 3) < 0.05
    full = rbuf.sample_episodes(1)
    assert len(full[0]) in (2, 5)
    with pytest.raises(ValueError, match='sample_episodes'):
        rbuf.sample_episodes(3)
    with pytest.raises(ValueError, match='max_len'):
        rbuf.sample_episodes(1, max_len=0)


def test_prioritized_episodic_sampling_and_weights():
    np.random.seed(9)
    rbuf = replay_buffers.PrioritizedEpisodicReplayBuffer(
        alpha=1.0, eps=0.0, beta0=0.5, betasteps=None)
    for k in range(3):
        _append_episode(rbuf, [float(k)] * (k + 1), terminal=True,
                        start=10 * k)
    episodes, weights = rbuf.sample_episodes(3)
    assert weights == [1.0, 1.0, 1.0]  # all at the initial priority
    errors = {0: 1.0, 10: 2.0, 20: 5.0}
    rbuf.update_errors([errors[ep[0]['state']] for ep in episodes])
    counts = collections.Counter()
    n = 6000
    for _ in range(n):
        (ep,), (w,) = rbuf.sample_episodes(1)
        counts[ep[0]['state']] += 1
        assert w == pytest.approx(1.0)  # batch of one: its own max
        rbuf.update_errors([errors[ep[0]['state']]])
    for s, e in errors.items():
        assert abs(counts[s] / n - e / 8.0) < 0.02


def test_prioritized_episodic_capacity():
    rbuf = replay_buffers.PrioritizedEpisodicReplayBuffer(capacity=4)
    _append_episode(rbuf, [1.0] * 3, terminal=True, start=0)
    _append_episode(rbuf, [2.0] * 2, terminal=True, start=10)
    assert rbuf.n_episodes == 1
    assert len(rbuf) == 4  # transitions keep the newest 4
    assert rbuf.capacity_left == 2
