"""mean and average: shapes and values over axes, gradients, weights
(also differentiated), the sum of weights (``returned``), and Chainer's
rules for weights."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype, shape=(2, 3, 4)):
    return numpy.arange(numpy.prod(shape)).reshape(shape).astype(dtype) / 8


@dtype_param
class TestMean:

    @pytest.mark.parametrize('axis, keepdims, shape', [
        (None, False, ()),
        (None, True, (1, 1, 1)),
        (1, False, (2, 4)),
        ((0, 2), True, (1, 3, 1)),
        (-1, False, (2, 3)),
        ((), False, (2, 3, 4)),
    ])
    def test_shapes_and_values(self, dtype, axis, keepdims, shape):
        y = F.mean(_x(dtype), axis=axis, keepdims=keepdims)
        assert y.shape == shape and y.dtype == dtype
        assert_close(y, _x(numpy.float64).mean(axis=axis, keepdims=keepdims),
                     dtype)

    def test_gradient_is_one_over_the_count(self, dtype):
        x = chainer.Variable(_x(dtype))
        gx, = grads(F.mean(x, axis=(0, 2)), (x,))
        assert_close(gx, numpy.full((2, 3, 4), 1 / 8), dtype)


@dtype_param
class TestAverage:

    def test_without_weights_is_the_mean(self, dtype):
        assert_close(F.average(_x(dtype), axis=1),
                     _x(numpy.float64).mean(axis=1), dtype)

    def test_weights_along_one_axis(self, dtype):
        x = _x(dtype, (3, 4))
        w = numpy.array([1, 2, 3, 4], dtype=dtype)
        y = F.average(x, axis=1, weights=w)
        assert y.shape == (3,) and y.dtype == dtype
        x64 = _x(numpy.float64, (3, 4))
        assert_close(y, (x64 * [1, 2, 3, 4]).sum(axis=1) / 10, dtype)

    def test_weights_over_all_elements(self, dtype):
        x = _x(dtype, (2, 3))
        w = numpy.arange(1, 7).reshape(2, 3).astype(dtype)
        y = F.average(x, weights=w)
        assert y.shape == ()
        x64 = _x(numpy.float64, (2, 3))
        assert_close(y, (x64 * numpy.arange(1, 7).reshape(2, 3)).sum() / 21,
                     dtype)

    def test_keepdims_and_negative_axis(self, dtype):
        x = _x(dtype, (3, 4))
        w = numpy.ones(4, dtype=dtype)
        y = F.average(x, axis=-1, weights=w, keepdims=True)
        assert y.shape == (3, 1)
        assert_close(y, _x(numpy.float64, (3, 4)).mean(axis=1,
                                                       keepdims=True), dtype)

    def test_gradients_reach_the_weights(self, dtype):
        x = chainer.Variable(numpy.array([1, 3], dtype=dtype))
        w = chainer.Variable(numpy.array([1, 1], dtype=dtype))
        gx, gw = grads(F.average(x, axis=0, weights=w), (x, w))
        # y = (w0 x0 + w1 x1) / (w0 + w1) = 2: dy/dw_i = (x_i - y) / 2.
        assert_close(gx, [0.5, 0.5], dtype)
        assert_close(gw, [-0.5, 0.5], dtype)

    def test_returned_gives_the_sum_of_weights(self, dtype):
        x = _x(dtype, (3, 4))
        w = numpy.array([1, 2, 3, 4], dtype=dtype)
        y, total = F.average(x, axis=1, weights=w, returned=True)
        assert total.shape == y.shape == (3,)
        assert_close(total, [10, 10, 10], dtype)
        y, count = F.average(x, axis=0, returned=True)
        assert count.shape == (4,) and count.dtype == dtype
        assert_close(count, [3, 3, 3, 3], dtype)


def test_weights_need_one_axis():
    with pytest.raises(ValueError, match='average'):
        F.average(numpy.ones((2, 3)), axis=(0, 1), weights=numpy.ones((2, 3)))


@pytest.mark.parametrize('axis, w_shape', [(1, (2,)), (None, (3,)),
                                           (0, (2, 3))])
def test_weights_shape_must_match(axis, w_shape):
    with pytest.raises(ValueError, match='weights'):
        F.average(numpy.ones((2, 3)), axis=axis, weights=numpy.ones(w_shape))


def test_mean_with_weights_is_the_weighted_average():
    x = numpy.arange(6.0).reshape(2, 3)
    w = numpy.array([1.0, 2.0, 3.0])
    numpy.testing.assert_allclose(
        F.mean(x, 1, w).array, [(0 + 2 + 6) / 6.0, (3 + 8 + 15) / 6.0])
    numpy.testing.assert_allclose(
        F.mean(x, axis=1, weights=w, keepdims=True).array,
        [[8 / 6.0], [26 / 6.0]])
