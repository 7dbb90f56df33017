"""softmax_cross_entropy: Chainer v7's treatment of ignore_label (loss and
gradient zero, excluded from the mean's count), normalize=False,
reduce='no', class_weight, the double-backprop switch, and soft targets
(cross entropy and KL divergence)."""
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


# Soft targets: row 1 splits its mass between classes 0 and 1.
SOFT = [[0, 0, 1], [0.5, 0.5, 0], [1, 0, 0], [0, 1, 0]]
SOFT_LOSS = [math.log(2), (math.log(2) + math.log(4)) / 2, math.log(3),
             math.log(3)]


def _soft(dtype):
    return typed(SOFT, dtype)


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

    def test_soft_target(self, dtype):
        loss = F.softmax_cross_entropy(_x(dtype), _soft(dtype), reduce='no')
        assert loss.shape == (4,)
        assert loss.dtype == dtype
        assert_close(loss, SOFT_LOSS, dtype)

    def test_soft_target_mean_divides_by_positions(self, dtype):
        # normalize does not apply to soft targets.
        for normalize in (True, False):
            loss = F.softmax_cross_entropy(_x(dtype), _soft(dtype),
                                           normalize=normalize)
            assert loss.shape == ()
            assert_close(loss, sum(SOFT_LOSS) / 4, dtype)

    def test_soft_target_kl_divergence(self, dtype):
        # KL(t || softmax(x)) = cross entropy + sum t log(t + 1e-7): log 2
        # less for row 1, and log(1 + 1e-7) more for the one-hot rows.
        loss = F.softmax_cross_entropy(_x(dtype), _soft(dtype), reduce='no',
                                       soft_target_loss='kl-divergence')
        one = math.log(1 + 1e-7)
        assert_close(loss, [SOFT_LOSS[0] + one,
                            SOFT_LOSS[1] + math.log(0.5 + 1e-7),
                            SOFT_LOSS[2] + one, SOFT_LOSS[3] + one], dtype)

    def test_soft_target_of_one_hot_rows_matches_labels(self, dtype):
        t = numpy.eye(3)[[2, 1, 0, 0]].astype(dtype)
        soft = F.softmax_cross_entropy(_x(dtype), t, reduce='no')
        hard = F.softmax_cross_entropy(
            _x(dtype), numpy.array([2, 1, 0, 0], dtype=numpy.int32),
            reduce='no')
        assert_close(soft, hard.array, dtype)

    def test_soft_target_gradient_is_y_minus_t(self, dtype):
        x = _x(dtype)
        t = _soft(dtype)
        gx, = grads(F.softmax_cross_entropy(x, t), (x,))
        p = numpy.exp(numpy.array(X)) / numpy.exp(numpy.array(X)).sum(
            axis=1, keepdims=True)
        assert_close(gx, (p - t.astype(numpy.float64)) / 4, dtype)

    def test_soft_target_is_not_differentiated(self, dtype):
        x, t = _x(dtype), chainer.Variable(_soft(dtype))
        gx, gt = chainer.grad([F.softmax_cross_entropy(x, t)], [x, t])
        assert gx is not None and gt is None

    def test_soft_target_class_weight(self, dtype):
        w = typed([1, 2, 3], dtype)
        loss = F.softmax_cross_entropy(_x(dtype), _soft(dtype),
                                       class_weight=w, reduce='no')
        expected = [3 * SOFT_LOSS[0],
                    (math.log(2) * 1 + math.log(4) * 2) / 2,
                    math.log(3), math.log(3) * 2]
        assert_close(loss, expected, dtype)

    def test_soft_target_double_backprop(self, dtype):
        x1, x2 = _x(dtype), _x(dtype)
        fused = F.softmax_cross_entropy(x1, _soft(dtype))
        twice = F.softmax_cross_entropy(x2, _soft(dtype),
                                        enable_double_backprop=True)
        assert_close(twice, fused.array, dtype)
        gx, = chainer.grad([twice], [x2], enable_double_backprop=True)
        assert_close(gx, grads(fused, (x1,))[0], dtype)
        ggx, = grads(F.sum(gx * gx), (x2,))
        assert ggx.shape == (4, 3)

    def test_soft_target_second_order_needs_the_switch(self, dtype):
        x = _x(dtype)
        gx, = chainer.grad([F.softmax_cross_entropy(x, _soft(dtype))], [x],
                           enable_double_backprop=True)
        with pytest.raises(RuntimeError, match='enable_double_backprop'):
            chainer.grad([F.sum(gx * gx)], [x])

    def test_soft_target_of_another_shape(self, dtype):
        with pytest.raises(TypeError, match='t'):
            F.softmax_cross_entropy(_x(dtype), typed([[1, 0], [0, 1]],
                                                     dtype))

    def test_bad_soft_target_loss(self, dtype):
        with pytest.raises(ValueError, match='soft_target_loss'):
            F.softmax_cross_entropy(_x(dtype), _soft(dtype),
                                    soft_target_loss='mse')
