"""train_agent / train_agent_with_evaluation and the single-env
evaluation on hand-computed schedules."""
import logging
import os

import gymnasium
import numpy as np
import pytest

from chainer_rl import experiments
from chainer_rl.experiments.evaluator import run_evaluation_episodes

from rl_experiment_standins import ChainEnv
from rl_experiment_standins import RecordingAgent
from rl_experiment_standins import read_scores_lines
from rl_experiment_standins import saved_steps


def _stops(agent):
    return [c for c in agent.calls if c[0] == 'stop_episode_and_train']


def test_schedule_scores_and_saved_agents(tmp_path):
    outdir = str(tmp_path / 'out')
    agent = RecordingAgent()
    hook_steps = []
    agent_out, history = experiments.train_agent_with_evaluation(
        agent, ChainEnv(length=5), steps=23, eval_n_steps=None,
        eval_n_episodes=2, eval_interval=10, outdir=outdir,
        checkpoint_freq=7, eval_env=ChainEnv(length=3),
        step_hooks=[lambda env, ag, t: hook_steps.append(t)])
    assert agent_out is agent
    assert hook_steps == list(range(1, 24))
    assert agent.trained_steps == 23
    # episodes end at t = 5, 10, 15, 20 (terminal) and 23 (budget)
    assert [(c[1], c[2]) for c in _stops(agent)] == [
        (5.0, True), (5.0, True), (5.0, True), (5.0, True), (3.0, False)]
    # the first act_and_train of an episode gets reward 0
    assert agent.calls[0] == ('act_and_train', 0.0, 0)
    header, rows = read_scores_lines(outdir)
    assert header == ['steps', 'episodes', 'elapsed', 'mean', 'median',
                      'stdev', 'max', 'min', 'trained_steps', 'constant']
    # evaluations after the episodes ending at t = 10 and t = 20; greedy
    # reward 1 + trained // 10 per step over 3-step episodes
    assert [r[0] for r in rows] == ['10', '20']
    assert [r[1] for r in rows] == ['2', '4']
    assert [float(r[3]) for r in rows] == [6.0, 9.0]
    assert [float(r[5]) for r in rows] == [0.0, 0.0]
    assert [r[8] for r in rows] == ['10', '20']
    assert [h['eval_score'] for h in history] == [6.0, 9.0]
    assert history[1]['trained_steps'] == 20
    assert sorted(os.listdir(outdir)) == [
        '14_checkpoint', '21_checkpoint', '23_finish', '7_checkpoint',
        'best', 'scores.txt']
    assert saved_steps(os.path.join(outdir, 'best')) == 20
    assert saved_steps(os.path.join(outdir, '23_finish')) == 23


def test_truncation_is_not_terminal(tmp_path):
    agent = RecordingAgent()
    env = gymnasium.wrappers.TimeLimit(ChainEnv(length=5),
                                       max_episode_steps=3)
    experiments.train_agent(agent, env, steps=7, outdir=str(tmp_path))
    # truncated at 3 and 6, cut by the budget at 7: never terminal
    assert [(c[1], c[2]) for c in _stops(agent)] == [
        (3.0, False), (3.0, False), (1.0, False)]
    agent = RecordingAgent()
    experiments.train_agent(agent, ChainEnv(length=5), steps=5,
                            outdir=str(tmp_path), max_episode_len=2)
    assert [(c[1], c[2]) for c in _stops(agent)] == [
        (2.0, False), (2.0, False), (1.0, False)]


def test_step_offset_and_successful_score(tmp_path):
    agent = RecordingAgent()
    hook_steps = []
    _, history = experiments.train_agent_with_evaluation(
        agent, ChainEnv(length=5), steps=40, eval_n_steps=None,
        eval_n_episodes=1, eval_interval=10, outdir=str(tmp_path),
        step_offset=12, successful_score=6.0,
        step_hooks=[lambda env, ag, t: hook_steps.append(t)])
    assert agent.t == 12  # set to the offset
    assert hook_steps[0] == 13
    # episodes end at t = 17, 22, ...; the first evaluation is due at
    # t >= 20 (the interval boundary after the offset), so at t = 22,
    # after 10 trained steps: greedy reward 2 over the training env's
    # 5-step episodes gives 10 >= 6, and training stops there
    assert [h['eval_score'] for h in history] == [10.0]
    assert hook_steps[-1] == 22
    assert os.path.isdir(str(tmp_path / '22_finish'))


def test_exception_saves_the_agent(tmp_path):
    agent = RecordingAgent(fail_at=4)
    with pytest.raises(RuntimeError, match='planned failure'):
        experiments.train_agent(agent, ChainEnv(), steps=10,
                                outdir=str(tmp_path))
    assert saved_steps(str(tmp_path / '3_except')) == 4


def test_arguments_are_checked(tmp_path):
    with pytest.raises(ValueError, match='exactly one of n_steps and '
                       'n_episodes'):
        experiments.train_agent_with_evaluation(
            RecordingAgent(), ChainEnv(), steps=5, eval_n_steps=3,
            eval_n_episodes=3, eval_interval=2, outdir=str(tmp_path))
    with pytest.raises(ValueError, match='Evaluator: eval_interval'):
        experiments.train_agent_with_evaluation(
            RecordingAgent(), ChainEnv(), steps=5, eval_n_steps=None,
            eval_n_episodes=3, eval_interval=0, outdir=str(tmp_path))
    with pytest.raises(TypeError, match='train_agent: env must be a single'):
        from chainer_rl import envs
        experiments.train_agent(RecordingAgent(),
                                envs.SerialVectorEnv([ChainEnv()]), steps=3,
                                outdir=str(tmp_path))
    with pytest.raises(TypeError, match='step hook must be callable'):
        experiments.train_agent(RecordingAgent(), ChainEnv(), steps=3,
                                outdir=str(tmp_path), step_hooks=[3])


def test_evaluation_budgets():
    agent = RecordingAgent()
    # 3-step episodes, greedy reward 1: 7 steps give two whole episodes;
    # the third, cut by the budget, does not count
    assert run_evaluation_episodes(ChainEnv(length=3), agent, n_steps=7,
                                   n_episodes=None) == [3.0, 3.0]
    # nothing finished within the budget: the partial episode counts
    assert run_evaluation_episodes(ChainEnv(length=3), agent, n_steps=2,
                                   n_episodes=None) == [2.0]
    assert run_evaluation_episodes(ChainEnv(length=4), agent, n_steps=None,
                                   n_episodes=3,
                                   max_episode_len=2) == [2.0, 2.0, 2.0]
    stats = experiments.eval_performance(ChainEnv(length=2), agent, None, 2)
    assert stats == dict(episodes=2, mean=2.0, median=2.0, stdev=0.0,
                         max=2.0, min=2.0)
    stops = [c for c in agent.calls if c[0] == 'stop_episode']
    assert len(stops) == 3 + 1 + 3 + 2
    assert not [c for c in agent.calls if c[0] == 'act_and_train']


class HeuristicCartPole(RecordingAgent):
    """Pushes toward the side the pole falls to: balances CartPole."""

    def act_and_train(self, obs, reward):
        self.trained_steps += 1
        return self.act(obs)

    def act(self, obs):
        return int(obs[2] + 0.5 * obs[3] > 0)


def test_cartpole_time_limit_and_logging(tmp_path, caplog):
    env = gymnasium.make('CartPole-v1', max_episode_steps=50)
    env.reset(seed=0)
    eval_env = gymnasium.make('CartPole-v1', max_episode_steps=50)
    eval_env.reset(seed=1)
    agent = HeuristicCartPole()
    logger = logging.getLogger('test_cartpole')
    with caplog.at_level(logging.INFO, logger='test_cartpole'):
        _, history = experiments.train_agent_with_evaluation(
            agent, env, steps=200, eval_n_steps=None, eval_n_episodes=2,
            eval_interval=100, outdir=str(tmp_path), eval_env=eval_env,
            logger=logger)
    # every episode is truncated at 50 steps, so never terminal
    stops = _stops(agent)
    assert len(stops) == 4 and not any(c[2] for c in stops)
    assert [h['eval_score'] for h in history] == [50.0, 50.0]
    assert any('R:50.0' in rec.getMessage() for rec in caplog.records)
    assert np.isclose(experiments.read_scores(str(tmp_path))['mean'],
                      [50.0, 50.0]).all()
