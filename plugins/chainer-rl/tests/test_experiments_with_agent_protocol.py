"""The runners driving an agent built on chainer_rl.agent.BatchAgent that
stores its experience in a ReplayBuffer and learns through ReplayUpdater."""
import os

import numpy as np

from chainer_rl import agent as agent_lib
from chainer_rl import envs
from chainer_rl import experiments
from chainer_rl import replay_buffer
from chainer_rl import replay_buffers

from rl_experiment_standins import ChainEnv


class ReplayingAgent(agent_lib.AttributeSavingMixin, agent_lib.BatchAgent):
    """Acts 0 while training, 1 greedily; replays 3-step transitions."""

    saved_attributes = ()

    def __init__(self):
        self.rbuf = replay_buffers.ReplayBuffer(num_steps=3)
        self.batches = []
        self.t = 0
        self.updater = replay_buffer.ReplayUpdater(
            self.rbuf, self._update, batchsize=4, episodic_update=False,
            n_times_update=1, replay_start_size=6, update_interval=2)
        self._last = None

    def _update(self, experiences):
        self.batches.append(replay_buffer.batch_experiences(
            experiences, np, lambda x: x, 0.5))

    def _batch_act_train(self, batch_obs):
        self._last = list(batch_obs)
        return [0] * len(batch_obs)

    def _batch_act_eval(self, batch_obs):
        return [1] * len(batch_obs)

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        for i, (obs, r, done, reset) in enumerate(
                zip(batch_obs, batch_reward, batch_done, batch_reset)):
            self.t += 1
            self.rbuf.append(self._last[i], 0, r + obs[0], obs,
                             is_state_terminal=bool(done), env_id=i)
            if done or reset:
                self.rbuf.stop_current_episode(env_id=i)
            self.updater.update_if_necessary(self.t)

    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        pass


def _chains(rbuf):
    return sorted(tuple(float(tr['state'][0]) for tr in item)
                  for item in rbuf.memory)


def test_single_env_training_fills_the_buffer(tmp_path):
    agent = ReplayingAgent()
    experiments.train_agent_with_evaluation(
        agent, ChainEnv(length=4), steps=10, eval_n_steps=None,
        eval_n_episodes=1, eval_interval=5, outdir=str(tmp_path),
        train_max_episode_len=3)
    # episodes cut at 3 steps (3, 3, 3) and the budget (1): states 0,1,2
    # each; the last episode's single transition is stored at its end
    assert len(agent.rbuf) == 10
    assert _chains(agent.rbuf).count((0.0, 1.0, 2.0)) == 3
    assert _chains(agent.rbuf).count((0.0,)) == 1
    # updates every 2 steps from 6 stored transitions on
    assert len(agent.batches) >= 2
    batch = agent.batches[-1]
    assert batch['state'].shape == (4, 1)
    # rewards are the next observations: a full window from state 0 has
    # returns 1 + .5 * 2 + .25 * 3
    full = batch['discount'] == 0.125
    np.testing.assert_allclose(batch['reward'][full], 2.75)
    assert os.path.isdir(str(tmp_path / 'best'))
    assert os.path.exists(str(tmp_path / '10_finish' / 'agent.json'))


def test_batch_training_keeps_envs_apart(tmp_path):
    agent = ReplayingAgent()
    env = envs.SerialVectorEnv([ChainEnv(length=2), ChainEnv(length=5)])
    experiments.train_agent_batch_with_evaluation(
        agent, env, steps=20, eval_n_steps=None, eval_n_episodes=2,
        eval_interval=10, outdir=str(tmp_path),
        eval_env=envs.SerialVectorEnv([ChainEnv(length=2)]))
    # env 0 episodes: 0,1 (5 of them); env 1: 0..4 twice
    chains = _chains(agent.rbuf)
    assert chains.count((0.0, 1.0)) == 5
    assert chains.count((0.0, 1.0, 2.0)) == 2
    assert chains.count((2.0, 3.0, 4.0)) == 2
    assert len(agent.rbuf) == 20
    for item in agent.rbuf.memory:
        states = [tr['state'][0] for tr in item]
        assert states == list(range(int(states[0]),
                                    int(states[0]) + len(states)))
    scores = experiments.read_scores(str(tmp_path))
    assert list(scores['steps']) == [10, 20]
    assert list(scores['mean']) == [2.0, 2.0]


def test_batch_training_on_worker_processes(tmp_path):
    agent = ReplayingAgent()
    env = envs.MultiprocessVectorEnv([lambda: ChainEnv(length=2),
                                      lambda: ChainEnv(length=3)])
    try:
        experiments.train_agent_batch(agent, env, steps=12,
                                      outdir=str(tmp_path))
    finally:
        env.close()
    chains = _chains(agent.rbuf)
    assert chains.count((0.0, 1.0)) == 3 and chains.count((0.0, 1.0, 2.0)) \
        == 2
    assert len(agent.rbuf) == 12
