"""Whole models exported on every installed device and run in ONNX
Runtime: the main job's MLP, a LeNet, an LSTM language model's step, an
n-step LSTM, and chainer-cv's ResNet-50 and VGG16 where chainer-cv is
installed."""
import importlib.util
import pathlib
import subprocess
import sys

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from onnx_check import check, DEFAULT_OPSET, f32, onnx, OPSETS

REPO = pathlib.Path(__file__).resolve().parents[2]
TOLERANCE = {'rtol': 1e-4, 'atol': 1e-4}


def _main_job():
    spec = importlib.util.spec_from_file_location(
        'train_mnist', str(REPO / 'examples' / 'mnist' / 'train_mnist.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class LeNet(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 6, 5, pad=2)
            self.conv2 = L.Convolution2D(6, 16, 5)
            self.fc1 = L.Linear(16 * 5 * 5, 120)
            self.fc2 = L.Linear(120, 84)
            self.fc3 = L.Linear(84, 10)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.conv1(x)), 2)
        h = F.max_pooling_2d(F.relu(self.conv2(h)), 2)
        h = F.dropout(F.relu(self.fc1(h)))
        return F.softmax(self.fc3(F.relu(self.fc2(h))))


class LanguageModelStep(chainer.Chain):
    """One step of an LSTM language model: the next word's scores and the
    new state, from a word and the state."""

    def __init__(self, n_vocab=20, n_units=8):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.lstm = L.StatelessLSTM(n_units, n_units)
            self.out = L.Linear(n_units, n_vocab)

    def forward(self, word, c, h):
        c, h = self.lstm(c, h, F.dropout(self.embed(word)))
        return self.out(F.dropout(h)), c, h


def _on(device, model, *args):
    model.to_device(device)
    return [device.send(a) for a in args]


@pytest.mark.parametrize('opset_version', OPSETS)
def test_main_job_mlp(chainer_device, opset_version):
    numpy.random.seed(0)
    model = _main_job().MLP(50, 10)
    args = _on(chainer_device, model, f32(5, 64))
    check(model, args, opset_version, **TOLERANCE)


@pytest.mark.parametrize('opset_version', OPSETS)
def test_lenet(chainer_device, opset_version):
    numpy.random.seed(0)
    model = LeNet()
    args = _on(chainer_device, model, f32(2, 1, 28, 28))
    onnx_model = check(model, args, opset_version, **TOLERANCE)
    assert [n.op_type for n in onnx_model.graph.node
            if n.op_type in ('Conv', 'MaxPool', 'Gemm')] == \
        ['Conv', 'MaxPool', 'Conv', 'MaxPool', 'Gemm', 'Gemm', 'Gemm']


@pytest.mark.parametrize('opset_version', OPSETS)
def test_lstm_language_model_step(chainer_device, opset_version):
    numpy.random.seed(0)
    model = LanguageModelStep()
    args = _on(chainer_device, model, numpy.array([3, 0, 19], numpy.int32),
               f32(3, 8, seed=1), f32(3, 8, seed=2))
    onnx_model = check(model, args, opset_version, **TOLERANCE,
                       input_names=['word', 'c', 'h'],
                       output_names=['scores', 'c_next', 'h_next'])
    assert [i.name for i in onnx_model.graph.input] == ['word', 'c', 'h']


@pytest.mark.parametrize('opset_version', OPSETS)
def test_stateful_lstm_step_after_a_warm_up(chainer_device, opset_version):
    # The state of the step before is a constant of the exported step.
    numpy.random.seed(0)
    model = L.LSTM(4, 6)
    args = _on(chainer_device, model, f32(2, 4))
    model(args[0])
    check(model, args, opset_version, **TOLERANCE)


@pytest.mark.parametrize('opset_version', OPSETS)
def test_n_step_lstm(chainer_device, opset_version):
    numpy.random.seed(0)
    model = L.NStepBiLSTM(2, 3, 4, 0.0)
    args = _on(chainer_device, model, f32(5, 3), f32(3, 3, seed=1))

    def forward(a, b):
        hy, cy, ys = model(None, None, [a, b])
        return [hy, cy] + list(ys)
    check(forward, args, opset_version, **TOLERANCE)


def _chainer_cv_model(name):
    links = pytest.importorskip(
        'chainer_cv.links',
        reason='chainer-cv is not installed (./plugins/chainer-cv)')
    numpy.random.seed(0)
    if name == 'ResNet50':
        return links.ResNet50(n_class=1000, pretrained_model=None,
                              arch='fb')
    return links.VGG16(n_class=1000, pretrained_model=None)


@pytest.mark.slow
def test_chainer_cv_resnet50(chainer_device):
    model = _chainer_cv_model('ResNet50')
    args = _on(chainer_device, model, f32(1, 3, 224, 224, low=0, high=255))
    check(model, args, None, **TOLERANCE)


@pytest.mark.slow
def test_chainer_cv_vgg16():
    # On the default device only: half a gigabyte of weights, half a
    # minute a run.
    model = _chainer_cv_model('VGG16')
    args = _on(chainer.get_device(), model,
               f32(1, 3, 224, 224, low=0, high=255))
    check(model, args, None, **TOLERANCE)


def test_main_job_exports_the_trained_model(tmp_path):
    pytest.importorskip('sklearn', reason='the main job trains on the '
                        "digits of scikit-learn (the 'digits' extra)")
    out = tmp_path / 'result'
    path = tmp_path / 'mlp.onnx'
    proc = subprocess.run(
        [sys.executable, str(REPO / 'examples' / 'mnist' / 'train_mnist.py'),
         '--epoch', '1', '--unit', '20', '--noplot', '--device', '@numpy',
         '--out', str(out), '--export-onnx', str(path)],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert 'ONNX model (opset {}) written to {}'.format(
        DEFAULT_OPSET, path) in proc.stdout
    difference = float(proc.stdout.split(
        'max difference from chainer-core ')[1].split()[0])
    assert difference < 1e-4
    model = onnx.load(str(path))
    assert sorted(t.name for t in model.graph.initializer) == [
        '/l{}/{}'.format(i, p) for i in (1, 2, 3) for p in 'Wb']
