"""tensordot: the forms of ``axes``, agreement with NumPy, gradients in
each operand's axis order, mixed dtypes."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check

from .. import DTYPES, assert_close, grads


def _m(dtype, shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize('dtype', DTYPES)
class TestTensorDot:

    @pytest.mark.parametrize('a_shape, b_shape, axes', [
        ((5, 3, 2), (3, 2, 4), 2),
        ((2, 3), (3, 4), 1),
        ((2, 3), (4,), 0),
        ((2, 3, 4), (4, 3, 5), ((1, 2), (1, 0))),
        ((3, 2), (2, 3), ([-1], [0])),
        ((3, 4), (4, 3), (1, 0)),
    ])
    def test_matches_numpy(self, dtype, a_shape, b_shape, axes):
        a, b = _m(dtype, a_shape, 1), _m(dtype, b_shape, 2)
        y = F.tensordot(a, b, axes=axes)
        expected = numpy.tensordot(a.astype(float), b.astype(float), axes)
        assert y.shape == expected.shape and y.dtype == dtype
        assert_close(y, expected, dtype)

    def test_gradients_keep_the_axis_order(self, dtype):
        a = chainer.Variable(_m(dtype, (2, 3, 4), 1))
        b = chainer.Variable(_m(dtype, (4, 5, 3), 2))
        ga, gb = grads(F.tensordot(a, b, axes=([2, 1], [0, 2])), (a, b))
        assert ga.shape == (2, 3, 4) and gb.shape == (4, 5, 3)
        # With gy = 1: ga[i, j, k] = sum_l b[k, l, j].
        b64 = b.array.astype(float)
        assert_close(ga, numpy.broadcast_to(b64.sum(axis=1).T, (2, 3, 4)),
                     dtype)


@pytest.mark.parametrize('a_shape, b_shape, axes', [
    ((2, 3, 4), (4, 3, 5), ((2, 1), (0, 1))),
    ((3, 4), (2, 4), ([1], [1])),
    ((2, 3), (4,), 0),
])
def test_second_order(a_shape, b_shape, axes):
    a, b = _m(numpy.float64, a_shape, 1), _m(numpy.float64, b_shape, 2)
    fn = lambda x, y: F.tensordot(x, y, axes=axes)  # NOQA
    gy = _m(numpy.float64, fn(a, b).shape, 3)
    gradient_check.check_backward(fn, (a, b), gy)
    gradient_check.check_double_backward(
        fn, (a, b), gy, (_m(numpy.float64, a_shape, 4),
                         _m(numpy.float64, b_shape, 5)))


def test_mixed_dtypes():
    a = chainer.Variable(_m(numpy.float16, (2, 3)))
    b = chainer.Variable(_m(numpy.float32, (3, 2)))
    y = F.tensordot(a, b, axes=1)
    assert y.dtype == numpy.float32
    ga, gb = grads(y, (a, b))
    assert ga.dtype == numpy.float16 and gb.dtype == numpy.float32


@pytest.mark.parametrize('axes, error', [
    (3, ValueError), (-1, ValueError), ('1', TypeError),
    (([0], [0, 1]), ValueError), (([0, 0], [0, 1]), ValueError),
    (([2], [0]), ValueError), ((0.5, 0), TypeError),
])
def test_bad_axes(axes, error):
    with pytest.raises(error, match='tensordot'):
        F.tensordot(numpy.ones((2, 3)), numpy.ones((3, 2)), axes=axes)
