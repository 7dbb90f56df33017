"""train_agent_batch(_with_evaluation) and the vector-env evaluation."""
import os

import gymnasium
import numpy as np
import pytest

from chainer_rl import envs
from chainer_rl import experiments

from rl_experiment_standins import ChainEnv
from rl_experiment_standins import RecordingBatchAgent
from rl_experiment_standins import read_scores_lines
from rl_experiment_standins import saved_steps


def _observed(agent, name='batch_observe_and_train'):
    return [(c[1], c[2]) for c in agent.calls if c[0] == name]


def test_batch_schedule(tmp_path):
    outdir = str(tmp_path)
    train_env = envs.SerialVectorEnv([
        gymnasium.wrappers.TimeLimit(ChainEnv(length=9), max_episode_steps=2),
        ChainEnv(length=3)])
    agent = RecordingBatchAgent()
    hook_steps = []
    _, history = experiments.train_agent_batch_with_evaluation(
        agent, train_env, steps=12, eval_n_steps=None, eval_n_episodes=1,
        eval_interval=4, outdir=outdir, checkpoint_freq=5,
        eval_env=ChainEnv(length=2),
        step_hooks=[lambda env, ag, t: hook_steps.append(t)])
    assert hook_steps == list(range(1, 13))
    observed = _observed(agent)
    assert len(observed) == 6
    # env 0 is truncated every 2 steps (reset, not done); env 1
    # terminates every 3 steps (done)
    assert [o[0] for o in observed] == [[False, False], [False, False],
                                        [False, True], [False, False],
                                        [False, False], [False, True]]
    assert [o[1] for o in observed] == [[False, False], [True, False],
                                        [False, False], [True, False],
                                        [False, False], [True, False]]
    # after an episode ends, only that env restarts (observation t = 0)
    acts = [c[1] for c in agent.calls if c[0] == 'batch_act_and_train']
    assert acts == [[0, 0], [1, 1], [0, 2], [1, 0], [0, 1], [1, 2]]
    # evaluations at t = 4, 8, 12 after 4, 8, 12 trained steps: greedy
    # reward 1 + trained // 10 over 2-step episodes
    header, rows = read_scores_lines(outdir)
    assert [r[0] for r in rows] == ['4', '8', '12']
    assert [float(r[3]) for r in rows] == [2.0, 2.0, 4.0]
    # episodes finished by then: 1 at t=4 (env 0), 3 at t=8, 5 at t=12
    assert [r[1] for r in rows] == ['1', '3', '5']
    assert [h['eval_score'] for h in history] == [2.0, 2.0, 4.0]
    assert sorted(os.listdir(outdir)) == ['10_checkpoint', '12_finish',
                                          '5_checkpoint', 'best',
                                          'scores.txt']
    assert saved_steps(os.path.join(outdir, 'best')) == 12


def test_batch_max_episode_len_and_success(tmp_path):
    agent = RecordingBatchAgent()
    env = envs.SerialVectorEnv([ChainEnv(length=9), ChainEnv(length=9)])
    _, history = experiments.train_agent_batch_with_evaluation(
        agent, env, steps=100, eval_n_steps=None, eval_n_episodes=1,
        eval_interval=10, outdir=str(tmp_path), max_episode_len=3,
        successful_score=4.0, eval_env=ChainEnv(length=2))
    observed = _observed(agent)
    assert observed[2] == ([False, False], [True, True])
    # the first evaluation (t = 10, 10 trained steps): greedy reward 2
    # over 2-step episodes = 4 >= 4, so training stops there
    assert [h['eval_score'] for h in history] == [4.0]
    assert os.path.isdir(str(tmp_path / '10_finish'))


def test_vector_evaluation_counts_episodes_in_starting_order():
    agent = RecordingBatchAgent()
    env = envs.SerialVectorEnv([ChainEnv(length=2), ChainEnv(length=5)])
    # episodes 0 (env 0, length 2) and 1 (env 1, length 5) start first;
    # episode 2 (env 0) ends at step 4 before episode 1 at step 5; the
    # first three started are 2, 5 and 2 steps long
    scores = experiments.batch_run_evaluation_episodes(
        env, agent, n_steps=None, n_episodes=3)
    assert scores == [2.0, 5.0, 2.0]
    # the agent is told at the end that every env's episode is over
    assert _observed(agent, 'batch_observe')[-1][1] == [True, True]
    # step budget 6: episode 0 (2 steps) fits; episode 1 reaches 4 more
    # steps at step 4, filling the budget before it ends
    assert experiments.batch_run_evaluation_episodes(
        env, agent, n_steps=6, n_episodes=None) == [2.0]
    # a budget below any episode: the partial first episode counts
    assert experiments.batch_run_evaluation_episodes(
        env, agent, n_steps=1, n_episodes=None) == [1.0]
    stats = experiments.eval_performance(env, agent, None, 3)
    assert stats['episodes'] == 3 and stats['max'] == 5.0
    assert stats['stdev'] == pytest.approx(np.std([2, 5, 2], ddof=1))


def test_batch_requires_a_vector_env(tmp_path):
    with pytest.raises(TypeError, match='train_agent_batch: env must be a '
                       'vector env'):
        experiments.train_agent_batch(RecordingBatchAgent(), ChainEnv(),
                                      steps=4, outdir=str(tmp_path))
    genv = gymnasium.vector.SyncVectorEnv([ChainEnv])
    with pytest.raises(TypeError, match='SerialVectorEnv'):
        experiments.train_agent_batch(RecordingBatchAgent(), genv, steps=4,
                                      outdir=str(tmp_path))
