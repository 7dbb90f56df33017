"""The examples run as a user runs them, in a subprocess: a short
configuration of each completes in seconds and writes its outputs; the
slow test trains the shapes detector in full and checks its mAP."""
import json
import os
import subprocess
import sys

import pytest

import chainer_core

EXAMPLES = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(__file__))), 'examples')

pytest.importorskip('matplotlib')


def _device():
    """The examples' default device where installed, else NumPy."""
    devices = [str(d) for d in chainer_core.backend.available_devices()]
    return 'native:0' if 'native:0' in devices else '@numpy'


def _run(script, out, *args, timeout=120):
    subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, script), '--out', str(out),
         '--device', _device(), *args],
        check=True, timeout=timeout, cwd=str(out.parent),
        env=dict(os.environ, MPLBACKEND='Agg'))
    with open(os.path.join(str(out), 'log')) as f:
        return json.load(f)


def test_ssd_shapes(tmp_path):
    out = tmp_path / 'result'
    log = _run('ssd/train_shapes.py', out, '--iteration', '4',
               '--eval-interval', '2', '--batchsize', '4', '--n-test', '4')
    assert [entry['iteration'] for entry in log] == [2, 4]
    assert 0 <= log[-1]['validation/main/map'] <= 1
    for name in ('model.npz', 'detections.png',
                 'detection_iter=2_idx=0.png', 'detection_iter=4_idx=3.png'):
        assert (out / name).is_file(), name


def test_ssd_shapes_with_ssd_augmentation_in_the_main_process(tmp_path):
    out = tmp_path / 'result'
    _run('ssd/train_shapes.py', out, '--iteration', '2', '--batchsize', '4',
         '--n-test', '4', '--ssd-augment', '--loaderjob', '0')
    assert (out / 'detections.png').is_file()


def test_digits(tmp_path):
    pytest.importorskip('sklearn')
    out = tmp_path / 'result'
    log = _run('classification/train_digits.py', out, '--epoch', '1')
    assert 0 <= log[-1]['validation/main/accuracy'] <= 1
    with open(str(out / 'predictions.txt')) as f:
        lines = f.read().splitlines()
    assert lines[0] == 'label predicted probability' and len(lines) == 9
    assert (out / 'model.npz').is_file()


def test_shapes_segmentation(tmp_path):
    out = tmp_path / 'result'
    log = _run('segmentation/train_shapes_segmentation.py', out,
               '--iteration', '4', '--eval-interval', '2', '--batchsize', '4',
               '--n-train', '16', '--n-test', '4')
    assert [entry['iteration'] for entry in log] == [2, 4]
    assert 0 <= log[-1]['validation/main/pixel_accuracy'] <= 1
    for name in ('model.npz', 'segmentation.png'):
        assert (out / name).is_file(), name


@pytest.mark.slow
def test_ssd_shapes_reaches_its_map(tmp_path):
    out = tmp_path / 'result'
    log = _run('ssd/train_shapes.py', out, timeout=900)
    assert log[-1]['validation/main/map'] >= 0.7
