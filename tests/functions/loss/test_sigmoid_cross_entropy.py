"""sigmoid_cross_entropy: Chainer v7's example values, -1 labels ignored
(loss and gradient 0, left out of the count), normalize=False dividing by
the batch size, reduce='no', stability for large logits, and the gradient
sigmoid(x) - t with its second order."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

X = [[-2.0, 3.0, 0.5], [5.0, 2.0, -0.5]]
T = [[0, 1, 0], [1, 1, -1]]


def _t(values=T):
    return numpy.array(values, dtype=numpy.int32)


def _losses():
    x, t = numpy.array(X), numpy.array(T)
    p = 1 / (1 + numpy.exp(-x))
    out = -(t * numpy.log(p) + (1 - t) * numpy.log(1 - p))
    out[t == -1] = 0
    return out


@dtype_param
class TestSigmoidCrossEntropy:

    def test_mean_over_labels_not_ignored(self, dtype):
        loss = F.sigmoid_cross_entropy(typed(X, dtype), _t())
        assert loss.shape == () and loss.dtype == dtype
        assert_close(loss, _losses().sum() / 5, dtype)
        # Chainer's documented value for this input.
        assert_close(loss, 0.25664714, dtype if dtype != numpy.float64
                     else numpy.float32)

    def test_normalize_false_divides_by_batch_size(self, dtype):
        loss = F.sigmoid_cross_entropy(typed(X, dtype), _t(),
                                       normalize=False)
        assert_close(loss, _losses().sum() / 2, dtype)

    def test_reduce_no(self, dtype):
        loss = F.sigmoid_cross_entropy(typed(X, dtype), _t(), reduce='no')
        assert loss.shape == (2, 3) and loss.dtype == dtype
        assert_close(loss, _losses(), dtype)
        assert float(loss.array[1, 2]) == 0

    def test_custom_ignore_label(self, dtype):
        t = _t([[0, 1, 0], [1, 1, 7]])
        loss = F.sigmoid_cross_entropy(typed(X, dtype), t, ignore_label=7)
        assert_close(loss, _losses().sum() / 5, dtype)

    def test_all_ignored_gives_zero(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        loss = F.sigmoid_cross_entropy(x, _t([[-1] * 3] * 2))
        assert_close(loss, 0, dtype)
        assert_close(grads(loss, (x,))[0], numpy.zeros((2, 3)), dtype)

    def test_large_logits_are_finite(self, dtype):
        big = 6e4 if dtype == numpy.float16 else 1e4
        loss = F.sigmoid_cross_entropy(typed([[big, -big]], dtype),
                                       _t([[1, 0]]), reduce='no')
        assert_close(loss, [[0, 0]], dtype)
        loss = F.sigmoid_cross_entropy(typed([[100, -100]], dtype),
                                       _t([[0, 1]]), reduce='no')
        assert_close(loss, [[100, 100]], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        gx, = grads(F.sigmoid_cross_entropy(x, _t()), (x,))
        p = 1 / (1 + numpy.exp(-numpy.array(X)))
        expected = (p - numpy.array(T)) / 5
        expected[1, 2] = 0
        assert_close(gx, expected, dtype)

    def test_t_is_not_differentiated(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        t = chainer.Variable(_t())
        gx, gt = chainer.grad([F.sigmoid_cross_entropy(x, t)], [x, t])
        assert gx is not None and gt is None

    def test_second_order(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        gx, = chainer.grad([F.sigmoid_cross_entropy(x, _t(), reduce='no')],
                           [x], enable_double_backprop=True)
        ggx, = grads(F.sum(gx), (x,))
        p = 1 / (1 + numpy.exp(-numpy.array(X)))
        expected = p * (1 - p)
        expected[1, 2] = 0
        assert_close(ggx, expected, dtype)

    def test_bad_reduce(self, dtype):
        with pytest.raises(ValueError, match='reduce'):
            F.sigmoid_cross_entropy(typed(X, dtype), _t(), reduce='sum')
