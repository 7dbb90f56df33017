"""train_agent_async with two processes sharing a link's parameters."""
import os

import numpy as np
import pytest

import chainer_core
import chainer_core.links as L

from chainer_rl import experiments

from rl_experiment_standins import ChainEnv
from rl_experiment_standins import RecordingAgent
from rl_experiment_standins import read_scores_lines


class SharedCounterAgent(RecordingAgent):
    """Counts each process's training steps in its own row of a shared
    Linear's weight, so the parent can see them."""

    shared_attributes = ('model',)
    process_idx = None

    def __init__(self, fail_in_process=None):
        super().__init__()
        self.model = L.Linear(1, 2, initialW=np.zeros((2, 1), np.float32))
        self.fail_in_process = fail_in_process

    def act_and_train(self, obs, reward):
        if self.process_idx == self.fail_in_process:
            raise RuntimeError('planned failure')
        self.trained_steps += 1
        self.model.W.array[self.process_idx, 0] += 1
        return 0


def test_async_training_shares_parameters(tmp_path):
    outdir = str(tmp_path)
    agent = SharedCounterAgent()
    made = []

    def make_env(process_idx, test):
        made.append((process_idx, test))
        return ChainEnv(length=4)

    trained = experiments.train_agent_async(
        outdir=outdir, processes=2, make_env=make_env, steps=60,
        eval_interval=20, eval_n_steps=None, eval_n_episodes=1,
        agent=agent)
    assert trained is agent
    counts = agent.model.W.array[:, 0]
    # every step is counted in its process's row; the process that is not
    # the one reaching 60 may take one step more before it sees the count
    assert 60 <= counts.sum() <= 61 and (counts > 0).all()
    header, rows = read_scores_lines(outdir)
    assert header[:8] == ['steps', 'episodes', 'elapsed', 'mean', 'median',
                          'stdev', 'max', 'min']
    assert 1 <= len(rows) <= 3
    assert all(int(r[0]) >= 20 for r in rows)
    assert os.path.isdir(os.path.join(outdir, '60_finish'))
    assert os.path.isdir(os.path.join(outdir, 'best'))
    assert made == []  # envs are made in the worker processes


def test_async_with_make_agent_and_success(tmp_path):
    def make_agent(process_idx):
        return SharedCounterAgent()

    agent = experiments.train_agent_async(
        outdir=str(tmp_path), processes=2,
        make_env=lambda idx, test: ChainEnv(length=4), steps=10 ** 6,
        eval_interval=8, eval_n_steps=None, eval_n_episodes=1,
        successful_score=1.0, make_agent=make_agent)
    # greedy reward >= 1 per step: the first evaluation succeeds
    assert os.path.isdir(str(tmp_path / 'successful'))
    assert agent.model.W.array.sum() < 10 ** 6


def test_async_failure_is_reported(tmp_path):
    with pytest.raises(RuntimeError, match=r'process\(es\) \[1\] failed'), \
            pytest.warns(UserWarning, match='process 1'):
        experiments.train_agent_async(
            outdir=str(tmp_path), processes=2,
            make_env=lambda idx, test: ChainEnv(length=4), steps=40,
            eval_interval=None, agent=SharedCounterAgent(fail_in_process=1))
    with pytest.raises(ValueError, match='give agent or make_agent'):
        experiments.train_agent_async(
            outdir=str(tmp_path), processes=2,
            make_env=lambda idx, test: ChainEnv(), steps=4)


def test_shared_parameters_need_the_numpy_device():
    assert chainer_core.backend.get_device_from_array(
        SharedCounterAgent().model.W.array).xp is np
