"""ReplayUpdater's schedule."""
import pytest

from chainer_rl import replay_buffer
from chainer_rl import replay_buffers


def _buffer(n_transitions, episode_len=2):
    rbuf = replay_buffers.EpisodicReplayBuffer()
    for i in range(n_transitions):
        rbuf.append(state=i, action=0, reward=0.0, next_state=i + 1,
                    is_state_terminal=(i % episode_len == episode_len - 1))
    return rbuf


def test_updates_follow_start_size_and_interval():
    calls = []
    rbuf = _buffer(0)
    updater = replay_buffer.ReplayUpdater(
        rbuf, calls.append, batchsize=2, episodic_update=False,
        n_times_update=3, replay_start_size=4, update_interval=2)
    done = []
    for t in range(1, 9):
        rbuf.append(state=t, action=0, reward=0.0, next_state=t + 1,
                    is_state_terminal=True)
        done.append(updater.update_if_necessary(t))
    # buffer size t; updates at even t once it holds 4
    assert done == [False, False, False, True, False, True, False, True]
    assert len(calls) == 9
    assert all(len(batch) == 2 and len(batch[0]) == 1 for batch in calls)


def test_episodic_updates_wait_for_enough_episodes():
    calls = []
    rbuf = _buffer(6, episode_len=3)  # 2 episodes
    updater = replay_buffer.ReplayUpdater(
        rbuf, calls.append, batchsize=3, episodic_update=True,
        n_times_update=1, replay_start_size=1, update_interval=1,
        episodic_update_len=2)
    assert not updater.update_if_necessary(1)
    for i in range(3):
        rbuf.append(state=i, action=0, reward=0.0, next_state=i,
                    is_state_terminal=(i == 2))
    assert updater.update_if_necessary(2)
    episodes, = calls
    assert len(episodes) == 3 and all(len(ep) == 2 for ep in episodes)


@pytest.mark.parametrize('name,value', [('batchsize', 0),
                                        ('update_interval', 0),
                                        ('replay_start_size', -1)])
def test_bad_arguments(name, value):
    kwargs = dict(batchsize=1, episodic_update=False, n_times_update=1,
                  replay_start_size=1, update_interval=1)
    kwargs[name] = value
    with pytest.raises(ValueError, match='ReplayUpdater: ' + name):
        replay_buffer.ReplayUpdater(_buffer(0), lambda b: None, **kwargs)
