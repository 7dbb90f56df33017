"""softmax_cross_entropy: Chainer v7's treatment of ignore_label (loss and
gradient zero, excluded from the mean's count), normalize=False,
reduce='no', class_weight, and the double-backprop switch."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

# Scores whose softmax is exact: a row (0, 0, log 2) gives (1/4, 1/4, 1/2),
# so the loss of each row is the log of a small integer.
X = [[0, 0, math.log(2)], [math.log(2), 0, 0], [0, 0, 0], [0, 0, 0]]
T = [2, 1, -1, 0]
LOSS = [math.log(2), math.log(4), 0, math.log(3)]   # -log P, 0 if ignored


def _x(dtype):
    return chainer.Variable(typed(X, dtype))


def _t():
    return numpy.array(T, dtype=numpy.int32)


@dtype_param
class TestSoftmaxCrossEntropy:

    def test_mean_over_labels_not_ignored(self, dtype):
        loss = F.softmax_cross_entropy(_x(dtype), _t())
        assert loss.shape == ()
        assert loss.dtype == dtype
        assert_close(loss, sum(LOSS) / 3, dtype)

    def test_normalize_false_divides_by_batch_size(self, dtype):
        loss = F.softmax_cross_entropy(_x(dtype), _t(), normalize=False)
        assert_close(loss, sum(LOSS) / 4, dtype)

    def test_reduce_no(self, dtype):
        loss = F.softmax_cross_entropy(_x(dtype), _t(), reduce='no')
        assert loss.shape == (4,)
        assert loss.dtype == dtype
        assert_close(loss, LOSS, dtype)

    def test_custom_ignore_label(self, dtype):
        t = numpy.array([2, 1, 7, 0], dtype=numpy.int32)
        loss = F.softmax_cross_entropy(_x(dtype), t, ignore_label=7)
        assert_close(loss, sum(LOSS) / 3, dtype)

    def test_all_ignored_gives_zero(self, dtype):
        x = _x(dtype)
        t = numpy.full(4, -1, dtype=numpy.int32)
        loss = F.softmax_cross_entropy(x, t)
        assert_close(loss, 0, dtype)
        gx, = grads(loss, (x,))
        assert_close(gx, numpy.zeros((4, 3)), dtype)

    def test_class_weight_scales_but_does_not_renormalise(self, dtype):
        w = typed([1, 2, 3], dtype)
        loss = F.softmax_cross_entropy(_x(dtype), _t(), class_weight=w,
                                       reduce='no')
        assert_close(loss, [3 * LOSS[0], 2 * LOSS[1], 0, LOSS[3]], dtype)
        mean = F.softmax_cross_entropy(_x(dtype), _t(), class_weight=w)
        assert_close(mean, (3 * LOSS[0] + 2 * LOSS[1] + LOSS[3]) / 3, dtype)

    def test_gradient(self, dtype):
        x = _x(dtype)
        gx, = grads(F.softmax_cross_entropy(x, _t()), (x,))
        p = numpy.exp(numpy.array(X)) / numpy.exp(numpy.array(X)).sum(
            axis=1, keepdims=True)
        onehot = numpy.zeros((4, 3))
        onehot[[0, 1, 3], [2, 1, 0]] = 1
        expected = (p - onehot) / 3
        expected[2] = 0
        assert_close(gx, expected, dtype)

    def test_spatial_labels(self, dtype):
        # Scores (N, C, d): class axis 1, one label per (n, d).
        x = typed(numpy.array(X).reshape(2, 2, 3).transpose(0, 2, 1), dtype)
        t = numpy.array([[2, 1], [-1, 0]], dtype=numpy.int32)
        loss = F.softmax_cross_entropy(x, t, reduce='no')
        assert loss.shape == (2, 2)
        assert_close(loss, numpy.reshape(LOSS, (2, 2)), dtype)

    def test_double_backprop_path_matches_fused(self, dtype):
        x1, x2 = _x(dtype), _x(dtype)
        fused = F.softmax_cross_entropy(x1, _t())
        twice = F.softmax_cross_entropy(x2, _t(),
                                        enable_double_backprop=True)
        assert twice.dtype == dtype
        assert_close(twice, fused.array, dtype)
        assert_close(grads(twice, (x2,))[0], grads(fused, (x1,))[0], dtype)

    def test_second_order_needs_the_switch(self, dtype):
        x = _x(dtype)
        gx, = chainer.grad([F.softmax_cross_entropy(x, _t())], [x],
                           enable_double_backprop=True)
        with pytest.raises(RuntimeError, match='enable_double_backprop'):
            chainer.grad([F.sum(gx * gx)], [x])

    def test_second_order_with_the_switch(self, dtype):
        x = _x(dtype)
        loss = F.softmax_cross_entropy(x, _t(), enable_double_backprop=True)
        gx, = chainer.grad([loss], [x], enable_double_backprop=True)
        ggx, = grads(F.sum(gx * gx), (x,))
        assert ggx.shape == (4, 3)
        assert not ggx[2].any()

    def test_label_out_of_range(self, dtype):
        t = numpy.array([2, 3, -1, 0], dtype=numpy.int32)
        with pytest.raises(ValueError, match='softmax_cross_entropy'):
            F.softmax_cross_entropy(_x(dtype), t)

    @pytest.mark.xfail(strict=True, raises=TypeError,
                       reason='soft targets (a float t of the shape of x, '
                       'Chainer v7) are not supported')
    def test_soft_target(self, dtype):
        t = typed([[0, 0, 1], [0.5, 0.5, 0], [1, 0, 0], [0, 1, 0]], dtype)
        loss = F.softmax_cross_entropy(_x(dtype), t, reduce='no')
        expected = [LOSS[0], (math.log(2) + math.log(4)) / 2,
                    math.log(3), math.log(3)]
        assert_close(loss, expected, dtype)
