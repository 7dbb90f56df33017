"""PixelwiseSoftmaxClassifier: the per-pixel softmax cross entropy of a
segmentation model, with ignored labels and class weights, on every
device."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from chainer_cv.links import PixelwiseSoftmaxClassifier


class _Scores(chainer.Link):
    """A predictor returning fixed scores times a learnable scale."""

    def __init__(self, scores):
        super().__init__()
        self.scores = scores
        with self.init_scope():
            self.scale = chainer.Parameter(numpy.ones((), numpy.float32))

    def forward(self, x):
        return F.broadcast_to(self.scale, self.scores.shape) * \
            self.device.send(self.scores)


def _data():
    rng = numpy.random.RandomState(0)
    scores = rng.normal(size=(2, 4, 3, 5)).astype(numpy.float32)
    labels = rng.randint(-1, 4, size=(2, 3, 5)).astype(numpy.int32)
    labels[0, 0, 0] = 2
    return scores, labels


def _reference(scores, labels, ignore_label, class_weight):
    """The mean over counted pixels of -w[t] log softmax(scores)[t]."""
    z = scores - scores.max(axis=1, keepdims=True)
    logp = z - numpy.log(numpy.exp(z).sum(axis=1, keepdims=True))
    total, count = 0.0, 0
    for b, i, j in numpy.ndindex(labels.shape):
        t = labels[b, i, j]
        if t == ignore_label:
            continue
        w = 1.0 if class_weight is None else class_weight[t]
        total -= w * logp[b, t, i, j]
        count += 1
    return total / count


@pytest.mark.parametrize('class_weight', [None, [0.5, 1.0, 2.0, 3.0]])
def test_loss_reports_and_gradients(class_weight, device):
    scores, labels = _data()
    model = PixelwiseSoftmaxClassifier(_Scores(scores), ignore_label=-1,
                                       class_weight=class_weight)
    model.to_device(device)
    reporter = chainer.Reporter()
    reporter.add_observer('main', model)
    observation = {}
    with reporter.scope(observation):
        loss = model(device.send(numpy.zeros((2, 3, 3, 5), numpy.float32)),
                     device.send(labels))
    cw = None if class_weight is None else numpy.asarray(class_weight)
    expected = _reference(scores.astype(numpy.float64), labels, -1, cw)
    value = chainer.backend.CpuDevice().send(loss.array)
    numpy.testing.assert_allclose(float(value), expected, rtol=1e-5)
    assert model.loss is loss
    assert model.y.shape == scores.shape
    assert 'main/loss' in observation
    model.cleargrads()
    loss.backward()
    assert model.predictor.scale.grad is not None


def test_class_weight_moves_with_the_link(device):
    scores, _ = _data()
    model = PixelwiseSoftmaxClassifier(_Scores(scores),
                                       class_weight=[1, 2, 3, 4])
    model.to_device(device)
    assert device.is_array_supported(model.class_weight)
    assert model.class_weight.dtype == numpy.float32


def test_ignore_label_other_than_minus_one():
    scores, labels = _data()
    labels = numpy.where(labels < 0, 3, labels).astype(numpy.int32)
    model = PixelwiseSoftmaxClassifier(_Scores(scores), ignore_label=3)
    loss = model(numpy.zeros((2, 3, 3, 5), numpy.float32), labels)
    expected = _reference(scores.astype(numpy.float64), labels, 3, None)
    numpy.testing.assert_allclose(float(loss.array), expected, rtol=1e-5)


def test_bad_class_weight():
    scores, labels = _data()
    with pytest.raises(ValueError, match='class_weight must be 1-dim'):
        PixelwiseSoftmaxClassifier(_Scores(scores),
                                   class_weight=[[1.0, 2.0]])
    model = PixelwiseSoftmaxClassifier(_Scores(scores),
                                       class_weight=[1.0, 2.0])
    with pytest.raises(ValueError, match='has 2 weights but the predictor '
                                         'gives scores of 4 classes'):
        model(numpy.zeros((2, 3, 3, 5), numpy.float32), labels)
    with pytest.raises(TypeError, match='ignore_label must be an int'):
        PixelwiseSoftmaxClassifier(_Scores(scores), ignore_label=1.5)
