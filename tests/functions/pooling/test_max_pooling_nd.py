"""max_pooling_nd: any number of spatial axes; agrees with max_pooling_2d
on 2-D input."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _distinct(dtype, shape, seed):
    values = numpy.random.RandomState(seed).permutation(
        int(numpy.prod(shape)))
    return (values.reshape(shape) / 4).astype(dtype)


@dtype_param
class TestMaxPoolingND:

    def test_1d(self, dtype):
        x = numpy.array([[[3, 1, 4, 1, 5, 9, 2]]], dtype)
        assert_close(F.max_pooling_nd(x, 2), [[[3, 4, 9, 2]]], dtype)
        assert_close(F.max_pooling_nd(x, 3, 2, 1, cover_all=False),
                     [[[3, 4, 9, 9]]], dtype)

    def test_2d_agrees_with_max_pooling_2d(self, dtype):
        x = _distinct(dtype, (2, 3, 6, 5), 0)
        y, idx = F.max_pooling_nd(x, (3, 2), (2, 1), (1, 0),
                                  return_indices=True)
        y2, idx2 = F.max_pooling_2d(x, (3, 2), (2, 1), (1, 0),
                                    return_indices=True)
        assert_close(y, y2.array, dtype)
        assert (idx == idx2).all()

    def test_3d(self, dtype):
        x = _distinct(dtype, (1, 2, 4, 4, 4), 0)
        y = F.max_pooling_nd(x, 2)
        assert y.shape == (1, 2, 2, 2, 2)
        expected = x.astype(numpy.float64).reshape(
            1, 2, 2, 2, 2, 2, 2, 2).max(axis=(3, 5, 7))
        assert_close(y, expected, dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(_distinct(dtype, (1, 1, 2, 2, 2), 0))
        gx, = grads(F.max_pooling_nd(x, 2), (x,))
        assert gx.sum() == 1
        assert gx.ravel()[x.array.argmax()] == 1
