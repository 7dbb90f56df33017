"""huber_loss: Chainer v7's example values, the sum along the second axis
(also of 3-dim inputs), reduce='no', the gradient clip(x - t, -delta,
delta), and the second derivative (1 inside delta, 0 outside)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

X = [[-2.0, 3.0, 0.5], [5.0, 2.0, -0.5]]
T = [[-2.0, 3.0, 0.0], [10.0, 2.0, -0.5]]


@dtype_param
class TestHuberLoss:

    def test_reduce_no(self, dtype):
        y = F.huber_loss(typed(X, dtype), typed(T, dtype), delta=1.0,
                         reduce='no')
        assert y.shape == (2, 3) and y.dtype == dtype
        assert_close(y, [[0, 0, 0.125], [4.5, 0, 0]], dtype)

    def test_sum_along_second_axis_is_the_default(self, dtype):
        y = F.huber_loss(typed(X, dtype), typed(T, dtype), delta=1.0)
        assert y.shape == (2,)
        assert_close(y, [0.125, 4.5], dtype)

    def test_3d_sums_axis_1_only(self, dtype):
        x = numpy.arange(12).reshape(2, 3, 2).astype(dtype) / 4
        t = numpy.zeros((2, 3, 2), dtype)
        a = numpy.arange(12).reshape(2, 3, 2) / 4
        ref = numpy.where(a <= 1.5, a * a / 2, 1.5 * (a - 0.75))
        y = F.huber_loss(x, t, delta=1.5)
        assert y.shape == (2, 2)
        assert_close(y, ref.sum(axis=1), dtype)

    def test_quadratic_then_linear(self, dtype):
        a = [0.5, 1.0, 2.0, -3.0]
        y = F.huber_loss(typed(a, dtype), numpy.zeros(4, dtype), delta=1.0,
                         reduce='no')
        assert_close(y, [0.125, 0.5, 1.5, 2.5], dtype)

    def test_gradient_is_the_clipped_difference(self, dtype):
        x = chainer.Variable(typed([[0.5, 1.5, -2.0, -0.25]], dtype))
        t = chainer.Variable(numpy.zeros((1, 4), dtype))
        gx, gt = grads(F.huber_loss(x, t, delta=1.0), (x, t))
        assert_close(gx, [[0.5, 1, -1, -0.25]], dtype)
        assert_close(gt, [[-0.5, -1, 1, 0.25]], dtype)

    def test_second_derivative(self, dtype):
        x = chainer.Variable(typed([[0.5, 1.5, -2.0, -0.25]], dtype))
        gx, = chainer.grad([F.huber_loss(x, numpy.zeros((1, 4), dtype),
                                         delta=1.0)],
                           [x], enable_double_backprop=True)
        ggx, = grads(F.sum(gx), (x,))
        assert_close(ggx, [[1, 0, 0, 1]], dtype)

    def test_bad_reduce(self, dtype):
        with pytest.raises(ValueError, match='reduce'):
            F.huber_loss(typed(X, dtype), typed(T, dtype), 1.0,
                         reduce='sum_each_data')
