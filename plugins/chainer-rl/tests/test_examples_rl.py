"""Each example script runs end to end for a few steps in its own process
and leaves scores.txt, the learning curve and the best agent in --outdir.
The small replay starts and update intervals make the agents update within
those steps."""
import os
import subprocess
import sys

import pytest

from chainer_rl import experiments


EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'examples')

COMMON = ['--steps', '200', '--eval-interval', '100', '--eval-n-episodes',
          '1']

CASES = {
    'quickstart': ['--episodes', '2', '--device', '@numpy'],
    'train_dqn_cartpole': ['--replay-start-size', '64', '--minibatch-size',
                           '16', '--update-interval', '32',
                           '--n-times-update', '2',
                           '--target-update-interval', '64'],
    'train_ppo_cartpole': ['--num-envs', '2', '--n-steps', '16',
                           '--minibatch-size', '16', '--epochs', '2'],
    'train_sac_pendulum': ['--replay-start-size', '64', '--minibatch-size',
                           '16', '--n-hidden-channels', '16'],
    'train_td3_pendulum': ['--replay-start-size', '64', '--minibatch-size',
                           '16', '--n-hidden-channels', '16'],
    'train_a2c_vector': ['--num-envs', '2'],
    'train_a2c_vector --multiprocess': ['--num-envs', '2', '--multiprocess'],
}


@pytest.mark.parametrize('case', sorted(CASES))
def test_example_runs_and_writes_outputs(case, tmp_path):
    script = case.split()[0]
    outdir = tmp_path / 'out'
    cmd = [sys.executable, os.path.join(EXAMPLES, script + '.py'),
           '--seed', '1', '--outdir', str(outdir)] + COMMON + CASES[case]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                          cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]

    scores = experiments.read_scores(str(outdir))
    # An evaluation is due every 100 steps and runs at the next episode's
    # end (Pendulum's episodes take 200 steps: one evaluation).
    assert 1 <= len(scores['mean']) <= 2
    assert list(scores['steps']) == sorted(scores['steps'])
    assert scores['steps'][-1] <= 200
    png = outdir / 'scores.png'
    with open(str(png), 'rb') as f:
        assert f.read(8) == b'\x89PNG\r\n\x1a\n'
    assert (outdir / 'best').is_dir()
    assert os.listdir(str(outdir / 'best'))
    assert str(outdir / 'scores.txt') in proc.stdout
    assert str(png) in proc.stdout
    if script == 'quickstart':
        assert (outdir / 'agent' / 'model.npz').exists()
    else:
        # The default device is the best installed one.
        import chainer_core
        assert 'Device: {}'.format(chainer_core.get_device(None)) in \
            proc.stdout


def test_examples_default_outdir_is_results_name():
    # Each script's --outdir defaults to results/<its name>.
    sys.path.insert(0, EXAMPLES)
    try:
        import example_utils
    finally:
        sys.path.remove(EXAMPLES)
    parser = example_utils.make_parser('', 'x_y', steps=10, eval_interval=5)
    args = parser.parse_args([])
    assert args.outdir == os.path.join('results', 'x_y')
    assert args.device is None and args.eval_n_episodes == 10
    assert (args.steps, args.eval_interval) == (10, 5)


def test_example_without_matplotlib_skips_the_curve(tmp_path):
    # A matplotlib that fails to import stands for one not installed.
    fake = tmp_path / 'site'
    (fake / 'matplotlib').mkdir(parents=True)
    (fake / 'matplotlib' / '__init__.py').write_text(
        'raise ImportError("no matplotlib here")\n')
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(
        [str(fake)] + [p for p in env.get('PYTHONPATH', '').split(os.pathsep)
                       if p])
    outdir = tmp_path / 'out'
    cmd = [sys.executable, os.path.join(EXAMPLES, 'train_ppo_cartpole.py'),
           '--outdir', str(outdir)] + COMMON + CASES['train_ppo_cartpole']
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                          env=env, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert 'No learning curve: matplotlib is not installed' in proc.stdout
    assert (outdir / 'scores.txt').exists()
    assert not (outdir / 'scores.png').exists()
