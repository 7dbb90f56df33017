"""concat: Chainer's default axis 1, negative axes, and gradients split
back to each input (double backprop through split_axis)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _arange(shape, dtype, start=0):
    return (start + numpy.arange(numpy.prod(shape))).reshape(shape).astype(
        dtype)


@dtype_param
class TestConcat:

    def test_default_axis_is_1(self, dtype):
        a, b = _arange((2, 1), dtype), _arange((2, 3), dtype, 10)
        y = F.concat((a, b))
        assert y.shape == (2, 4)
        assert_close(y, numpy.concatenate((a, b), axis=1), dtype)

    def test_negative_axis_and_lists(self, dtype):
        xs = [_arange((2, 3, 1), dtype), _arange((2, 3, 2), dtype)]
        assert F.concat(xs, axis=-1).shape == (2, 3, 3)

    def test_gradient_goes_to_each_input(self, dtype):
        a = chainer.Variable(_arange((2, 1), dtype))
        b = chainer.Variable(_arange((2, 3), dtype))
        gy = _arange((2, 4), dtype)
        ga, gb = grads(F.concat((a, b)), (a, b), gy)
        assert_close(ga, gy[:, :1], dtype)
        assert_close(gb, gy[:, 1:], dtype)

    def test_empty_piece(self, dtype):
        a = chainer.Variable(_arange((2, 0), dtype))
        b = chainer.Variable(_arange((2, 3), dtype))
        ga, gb = grads(F.concat((a, b)), (a, b))
        assert ga.shape == (2, 0)
        assert_close(gb, numpy.ones((2, 3)), dtype)

    def test_double_backprop(self, dtype):
        a = chainer.Variable(_arange((2, 1), dtype))
        b = chainer.Variable(_arange((2, 2), dtype))
        y = F.concat((a, b))
        gy = chainer.Variable(numpy.ones((2, 3), dtype=dtype))
        ga, gb = chainer.grad([y], [a, b], [gy], enable_double_backprop=True)
        ggy, = grads(F.concat((ga * 2, gb * 3)), (gy,))
        assert_close(ggy, [[2, 3, 3], [2, 3, 3]], dtype)

    def test_xs_must_be_a_sequence(self, dtype):
        with pytest.raises(TypeError, match='concat: xs'):
            F.concat(numpy.zeros((2, 3), dtype=dtype))
