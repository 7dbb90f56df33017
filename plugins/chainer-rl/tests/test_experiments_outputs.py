"""prepare_output_dir, hooks, plot_scores and collect_demonstrations."""
import argparse
import json
import os
import subprocess

import numpy as np
import pytest

from chainer_rl import experiments

from rl_experiment_standins import ChainEnv
from rl_experiment_standins import RecordingAgent


def test_prepare_output_dir_outside_git(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv('RL_TEST_MARKER', 'marker-value')
    args = argparse.Namespace(lr=0.01, env='CartPole-v1', gpu=None)
    outdir = experiments.prepare_output_dir(
        args, user_specified_dir=str(tmp_path / 'results'),
        argv=['train.py', '--lr', '0.01'], time_format='run%Y')
    assert os.path.dirname(outdir) == str(tmp_path / 'results')
    assert os.path.basename(outdir).startswith('run')
    with open(os.path.join(outdir, 'args.txt')) as f:
        assert json.load(f) == {'lr': 0.01, 'env': 'CartPole-v1',
                                'gpu': None}
    with open(os.path.join(outdir, 'command.txt')) as f:
        assert f.read() == 'train.py --lr 0.01'
    with open(os.path.join(outdir, 'environ.txt')) as f:
        assert json.load(f)['RL_TEST_MARKER'] == 'marker-value'
    assert not experiments.is_under_git_control()
    assert sorted(os.listdir(outdir)) == ['args.txt', 'command.txt',
                                          'environ.txt']
    with pytest.raises(RuntimeError, match='exists'):
        experiments.prepare_output_dir(
            {}, user_specified_dir=str(tmp_path / 'results'),
            time_format='run%Y')
    (tmp_path / 'afile').write_text('x')
    with pytest.raises(RuntimeError, match='not a directory'):
        experiments.prepare_output_dir({}, str(tmp_path / 'afile'))
    tmp_out = experiments.prepare_output_dir({'a': 1})
    try:
        assert os.path.exists(os.path.join(tmp_out, 'args.txt'))
    finally:
        for name in os.listdir(tmp_out):
            os.remove(os.path.join(tmp_out, name))
        os.rmdir(tmp_out)
    with pytest.raises(TypeError, match='prepare_output_dir: args'):
        experiments.prepare_output_dir([1, 2])


def test_prepare_output_dir_records_git(tmp_path, monkeypatch):
    repo = tmp_path / 'repo'
    repo.mkdir()
    monkeypatch.chdir(repo)
    git = ['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com']
    subprocess.run(git + ['init', '-q'], check=True)
    (repo / 'f.txt').write_text('one\n')
    subprocess.run(git + ['add', 'f.txt'], check=True)
    subprocess.run(git + ['commit', '-q', '-m', 'first'], check=True)
    (repo / 'f.txt').write_text('two\n')
    head = subprocess.run(['git', 'rev-parse', 'HEAD'], check=True,
                          stdout=subprocess.PIPE).stdout
    outdir = experiments.prepare_output_dir(
        {}, user_specified_dir=str(tmp_path / 'out'))
    with open(os.path.join(outdir, 'git-head.txt'), 'rb') as f:
        assert f.read() == head
    with open(os.path.join(outdir, 'git-diff.txt')) as f:
        assert '+two' in f.read()
    with open(os.path.join(outdir, 'git-log.txt')) as f:
        assert 'first' in f.read()
    assert os.path.exists(os.path.join(outdir, 'git-status.txt'))


def test_linear_interpolation_hook():
    values = []
    hook = experiments.LinearInterpolationHook(
        11, 1.0, 0.0, lambda env, agent, value: values.append(value))
    for step in (1, 6, 11, 20):
        hook(None, None, step)
    np.testing.assert_allclose(values, [1.0, 0.5, 0.0, 0.0])
    assert isinstance(hook, experiments.StepHook)
    with pytest.raises(TypeError, match='setter'):
        experiments.LinearInterpolationHook(10, 1, 0, None)
    with pytest.raises(ValueError, match='total_steps'):
        experiments.LinearInterpolationHook(0, 1, 0, lambda *a: None)


def test_plot_scores(tmp_path):
    with open(str(tmp_path / 'scores.txt'), 'w') as f:
        f.write('steps\tepisodes\telapsed\tmean\tmedian\tstdev\tmax\tmin'
                '\tloss\n')
        f.write('100\t3\t1.5\t10.0\t10.0\t1.0\t12.0\t8.0\tNone\n')
        f.write('200\t7\t3.0\t20.0\t21.0\t2.0\t25.0\t15.0\t0.25\n')
    scores = experiments.read_scores(str(tmp_path))
    np.testing.assert_array_equal(scores['steps'], [100, 200])
    assert np.isnan(scores['loss'][0]) and scores['loss'][1] == 0.25
    png = str(tmp_path / 'curve.png')
    assert experiments.plot_scores(str(tmp_path), png) == png
    with open(png, 'rb') as f:
        assert f.read(8) == b'\x89PNG\r\n\x1a\n'
    experiments.plot_scores(str(tmp_path / 'scores.txt'),
                            str(tmp_path / 'c2.png'), title='x')
    assert os.path.getsize(str(tmp_path / 'c2.png')) > 1000
    with pytest.raises(FileNotFoundError, match='read_scores'):
        experiments.plot_scores(str(tmp_path / 'missing'), png)


def test_collect_demonstrations(tmp_path):
    agent = RecordingAgent()
    path = experiments.collect_demonstrations(
        agent, ChainEnv(length=3), steps=None, episodes=2,
        outdir=str(tmp_path))
    assert path == str(tmp_path / 'demos.npz')
    demos = experiments.load_demonstrations(path)
    assert len(demos) == 6
    assert [float(d['obs'][0]) for d in demos] == [0, 1, 2, 0, 1, 2]
    assert [float(d['new_obs'][0]) for d in demos] == [1, 2, 3, 1, 2, 3]
    assert [d['done'] for d in demos] == [False, False, True] * 2
    assert all(d['action'] == 1 and d['reward'] == 1.0 for d in demos)
    assert demos[1]['info'] == {'t': 2}
    assert len([c for c in agent.calls if c[0] == 'stop_episode']) == 2

    demos = experiments.load_demonstrations(experiments.collect_demonstrations(
        RecordingAgent(), ChainEnv(length=3), steps=4, episodes=None,
        outdir=str(tmp_path), max_episode_len=2))
    assert [float(d['obs'][0]) for d in demos] == [0, 1, 0, 1]
    assert [d['reset'] for d in demos] == [False, True, False, True]
    assert not any(d['done'] for d in demos)
    with pytest.raises(ValueError, match='exactly one of'):
        experiments.collect_demonstrations(RecordingAgent(), ChainEnv(),
                                           None, None, str(tmp_path))
