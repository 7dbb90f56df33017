"""The examples run as scripts: examples/mnist/train_mnist.py with its
default settings reaches 95% test accuracy on the digits in a few epochs;
examples/cnn/train_cnn.py learns them too."""
import ast
import json
import os
import subprocess
import sys


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = '''
import runpy, sys
import numpy
numpy.random.seed(int(sys.argv[1]))
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name='__main__')
'''
PNG = b'\x89PNG\r\n\x1a\n'


def _train(tmp_path, example, *args):
    """Run the example (NumPy seeded with 0) into ``tmp_path/out``; its
    stdout and log entries."""
    runner = tmp_path / 'seeded.py'
    runner.write_text(RUNNER)
    script = os.path.join(REPO, 'examples', example)
    out = tmp_path / 'out'
    # The device is named: the examples must not depend on which backend
    # plugins happen to be installed.
    proc = subprocess.run(
        [sys.executable, str(runner), '0', script, '--device', '@numpy',
         '--out', str(out)] + list(args),
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    with open(out / 'log') as f:
        return proc.stdout, json.load(f), out


def test_mnist_default_settings_reach_95_percent(tmp_path):
    stdout, log, out = _train(tmp_path, 'mnist/train_mnist.py',
                              '--epoch', '3')
    assert [e['epoch'] for e in log] == [1, 2, 3]
    assert log[-1]['validation/main/accuracy'] >= 0.95
    assert log[-1]['main/loss'] < log[0]['main/loss']
    assert '# unit: 1000' in stdout and '# Minibatch-size: 100' in stdout
    header = [line for line in stdout.splitlines()
              if line.startswith('epoch')]
    assert header and 'validation/main/accuracy' in header[0]
    for name in ('loss.png', 'accuracy.png'):
        assert (out / name).read_bytes()[:8] == PNG
    assert sorted(n for n in os.listdir(out)
                  if n.startswith('snapshot')) == ['snapshot_iter_44']


def test_cnn_learns_the_digits(tmp_path):
    stdout, log, out = _train(tmp_path, 'cnn/train_cnn.py', '--epoch', '3',
                              '--noplot')
    assert [e['epoch'] for e in log] == [1, 2, 3]
    assert log[-1]['validation/main/accuracy'] >= 0.95
    assert log[-1]['main/loss'] < log[0]['main/loss'] / 3
    assert not os.path.exists(out / 'loss.png')
    assert os.path.exists(out / 'snapshot_iter_87')


def _flags(example):
    """The option strings of the example's argument parser."""
    with open(os.path.join(REPO, 'examples', example)) as f:
        tree = ast.parse(f.read())
    flags = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and \
                getattr(node.func, 'attr', None) == 'add_argument':
            flags.update(a.value for a in node.args
                         if isinstance(a, ast.Constant))
    return flags


def test_same_flags():
    flags = _flags('cnn/train_cnn.py')
    assert flags == _flags('mnist/train_mnist.py')
    assert {'--batchsize', '--epoch', '--frequency', '--device', '--out',
            '--resume', '--autoload', '--unit', '--noplot',
            '--dataset'} <= flags
