"""Classifier: label position (label_key), loss and accuracy, reporting."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L
from chainer_core import reporter as reporter_module


class Pair(chainer.Chain):
    """A predictor taking two inputs."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.fc = L.Linear(3, 4)

    def forward(self, x, scale=1.0):
        return self.fc(x) * scale


def _data():
    x = numpy.random.RandomState(0).uniform(-1, 1, (5, 3)).astype(
        numpy.float32)
    t = numpy.array([0, 1, 2, 3, 1], numpy.int32)
    return x, t


class TestClassifier:

    def setup_method(self):
        self.predictor = Pair()
        self.model = L.Classifier(self.predictor)
        self.x, self.t = _data()

    def test_loss_and_attributes(self):
        loss = self.model(self.x, self.t)
        y = self.predictor(self.x)
        numpy.testing.assert_allclose(
            loss.array, F.softmax_cross_entropy(y, self.t).array, rtol=1e-6)
        numpy.testing.assert_allclose(self.model.y.array, y.array)
        assert self.model.loss is loss
        numpy.testing.assert_allclose(
            self.model.accuracy.array, F.accuracy(y, self.t).array)

    def test_registers_predictor(self):
        assert self.model.predictor is self.predictor
        assert [n for n, _ in self.model.namedparams()] == [
            '/predictor/fc/W', '/predictor/fc/b']

    def test_reports(self):
        reporter = reporter_module.Reporter()
        reporter.add_observer('main', self.model)
        observation = {}
        with reporter.scope(observation):
            self.model(self.x, self.t)
        assert sorted(observation) == ['main/accuracy', 'main/loss']
        numpy.testing.assert_allclose(observation['main/loss'].array,
                                      self.model.loss.array)

    def test_without_accuracy(self):
        self.model.compute_accuracy = False
        reporter = reporter_module.Reporter()
        reporter.add_observer('main', self.model)
        observation = {}
        with reporter.scope(observation):
            self.model(self.x, self.t)
        assert list(observation) == ['main/loss']
        assert self.model.accuracy is None

    def test_label_key_int(self):
        model = L.Classifier(self.predictor, label_key=0)
        loss = model(self.t, self.x)
        expected = F.softmax_cross_entropy(self.predictor(self.x), self.t)
        numpy.testing.assert_allclose(loss.array, expected.array, rtol=1e-6)

    def test_label_key_middle_keeps_other_arguments(self):
        model = L.Classifier(self.predictor, label_key=1)
        model(self.x, self.t, 2.0)
        numpy.testing.assert_allclose(
            model.y.array, self.predictor(self.x).array * 2, rtol=1e-6)

    def test_label_key_str(self):
        model = L.Classifier(self.predictor, label_key='label')
        model(self.x, scale=3.0, label=self.t)
        numpy.testing.assert_allclose(
            model.y.array, self.predictor(self.x).array * 3, rtol=1e-6)

    def test_label_key_errors(self):
        with pytest.raises(TypeError):
            L.Classifier(self.predictor, label_key=1.5)
        with pytest.raises(ValueError):
            L.Classifier(self.predictor, label_key=3)(self.x, self.t)
        with pytest.raises(ValueError):
            L.Classifier(self.predictor, label_key='t')(self.x, self.t)

    def test_custom_functions(self):
        calls = []

        def lossfun(y, t):
            calls.append('loss')
            return F.sum(y) * 0

        def accfun(y, t):
            calls.append('acc')
            return F.accuracy(y, t)

        model = L.Classifier(self.predictor, lossfun=lossfun, accfun=accfun)
        assert model(self.x, self.t).array == 0
        assert calls == ['loss', 'acc']

    def test_backward_and_update(self):
        opt = chainer.optimizers.SGD(lr=0.5).setup(self.model)
        before = self.model(self.x, self.t).array
        for _ in range(5):
            self.model.cleargrads()
            self.model(self.x, self.t).backward()
            opt.update()
        assert self.model(self.x, self.t).array < before

    def test_copy_and_round_trip(self, tmp_path):
        path = str(tmp_path / 'model.npz')
        chainer.serializers.save_npz(path, self.model)
        other = L.Classifier(Pair())
        chainer.serializers.load_npz(path, other)
        numpy.testing.assert_array_equal(other(self.x, self.t).array,
                                         self.model(self.x, self.t).array)
        with numpy.load(path) as npz:
            assert sorted(npz.files) == ['predictor/fc/W', 'predictor/fc/b']
        copied = self.model.copy('copy')
        assert copied.lossfun is self.model.lossfun
        assert copied.predictor.fc.W.array is not self.predictor.fc.W.array
