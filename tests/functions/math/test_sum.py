"""sum and sum_to: Chainer's result shapes (a 0-dim array for a full sum),
axis handling, and gradients broadcast back over the summed axes."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype, shape=(2, 3, 4)):
    return numpy.arange(numpy.prod(shape)).reshape(shape).astype(dtype) / 8


@dtype_param
class TestSum:

    def test_full_sum_is_a_0dim_array(self, dtype):
        y = F.sum(_x(dtype))
        assert y.shape == ()
        assert type(y.array) is numpy.ndarray
        assert y.dtype == dtype
        assert_close(y, _x(numpy.float64).sum(), dtype)

    @pytest.mark.parametrize('axis, keepdims, shape', [
        (None, True, (1, 1, 1)),
        (1, False, (2, 4)),
        (1, True, (2, 1, 4)),
        ((0, 2), False, (3,)),
        ((2, 0), True, (1, 3, 1)),
        (-1, False, (2, 3)),
        ((), False, (2, 3, 4)),
    ])
    def test_shapes(self, dtype, axis, keepdims, shape):
        y = F.sum(_x(dtype), axis=axis, keepdims=keepdims)
        assert y.shape == shape
        expected = _x(numpy.float64).sum(axis=axis, keepdims=keepdims)
        assert_close(y, expected, dtype)

    def test_axis_order_does_not_matter(self, dtype):
        assert_close(F.sum(_x(dtype), axis=(2, 0)),
                     F.sum(_x(dtype), axis=(0, 2)).array, dtype)

    def test_gradient_broadcasts_over_summed_axes(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.array([1, 2, 3], dtype=dtype)
        gx, = grads(F.sum(x, axis=(0, 2)), (x,), gy)
        assert gx.shape == (2, 3, 4)
        assert_close(gx, numpy.broadcast_to(gy[:, None], (2, 3, 4)), dtype)

    def test_gradient_of_full_sum_is_ones(self, dtype):
        x = chainer.Variable(_x(dtype))
        y = F.sum(x)
        y.backward()
        assert_close(x.grad, numpy.ones((2, 3, 4)), dtype)


@dtype_param
class TestSumTo:

    @pytest.mark.parametrize('shape, axes', [
        ((3, 4), (0,)),
        ((4,), (0, 1)),
        ((1, 3, 1), (0, 2)),
        ((2, 1, 4), (1,)),
    ])
    def test_sums_the_broadcast_axes(self, dtype, shape, axes):
        y = F.sum_to(_x(dtype), shape)
        assert y.shape == shape
        expected = _x(numpy.float64).sum(axis=axes, keepdims=True)
        assert_close(y, expected.reshape(shape), dtype)

    def test_own_shape_is_identity(self, dtype):
        y = F.sum_to(_x(dtype), (2, 3, 4))
        assert_close(y, _x(dtype), dtype)

    def test_gradient_is_broadcast(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.array([[1], [2], [3]], dtype=dtype)
        gx, = grads(F.sum_to(x, (3, 1)), (x,), gy)
        assert_close(gx, numpy.broadcast_to(gy, (2, 3, 4)), dtype)
