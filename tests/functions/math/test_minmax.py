"""max, min, argmax, argmin: values and shapes over axes, gradients (every
tied extremum gets the gradient, as in Chainer), int32 indices (the first
on ties) that are not differentiated."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)
X = [[1, 5, 5], [7, -2, 0]]


@dtype_param
class TestMax:

    @pytest.mark.parametrize('axis, keepdims, expected', [
        (None, False, 7),
        (1, False, [5, 7]),
        (0, True, [[7, 5, 5]]),
        ((0, 1), False, 7),
        (-1, True, [[5], [7]]),
    ])
    def test_values(self, dtype, axis, keepdims, expected):
        y = F.max(typed(X, dtype), axis=axis, keepdims=keepdims)
        assert y.dtype == dtype
        assert y.shape == numpy.asarray(expected).shape
        assert_close(y, expected, dtype)

    def test_gradient_goes_to_every_tied_maximum(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        gx, = grads(F.max(x, axis=1), (x,), typed([2, 3], dtype))
        assert_close(gx, [[0, 2, 2], [3, 0, 0]], dtype)


@dtype_param
class TestMin:

    def test_values(self, dtype):
        y = F.min(typed(X, dtype), axis=0)
        assert_close(y, [1, -2, 0], dtype)
        assert_close(F.min(typed(X, dtype)), -2, dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([[1, 1], [0, 2]], dtype))
        gx, = grads(F.min(x, axis=1, keepdims=True), (x,))
        assert_close(gx, [[1, 1], [1, 0]], dtype)


@dtype_param
class TestArgMax:

    def test_indices_are_int32_and_first_on_ties(self, dtype):
        y = F.argmax(typed(X, dtype), axis=1)
        assert y.dtype == numpy.int32
        numpy.testing.assert_array_equal(y.array, [1, 0])

    def test_axis_none_indexes_the_flattened_input(self, dtype):
        y = F.argmax(typed(X, dtype))
        assert y.shape == () and type(y.array) is numpy.ndarray
        assert int(y.array) == 3

    def test_not_differentiated(self, dtype):
        x = chainer.Variable(typed(X, dtype))
        y = F.argmax(x, axis=0)
        z = F.sum(x * 1.0)
        gx, = chainer.grad([z], [x])
        assert y.creator is not None
        assert_close(gx.array, numpy.ones((2, 3)), dtype)


@dtype_param
class TestArgMin:

    def test_indices(self, dtype):
        y = F.argmin(typed(X, dtype), axis=0)
        assert y.dtype == numpy.int32
        numpy.testing.assert_array_equal(y.array, [0, 1, 1])
        assert int(F.argmin(typed(X, dtype)).array) == 4

    def test_axis_must_be_an_int(self, dtype):
        with pytest.raises(TypeError, match='argmin'):
            F.argmin(typed(X, dtype), axis=(0,))
