"""accuracy: Chainer v7's example values, ignore_label (left out of the
count, 0 when all are ignored), spatial labels, trailing axes of size 1,
a 0-dim result of y's dtype, and no gradient."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

Y = [[0.1, 0.7, 0.2], [8.0, 1.0, 2.0], [-8.0, 1.0, 2.0],
     [-8.0, -1.0, -2.0]]    # predictions 1, 0, 2, 1


def _t(values):
    return numpy.array(values, dtype=numpy.int32)


@dtype_param
class TestAccuracy:

    def test_all_correct(self, dtype):
        acc = F.accuracy(typed(Y, dtype), _t([1, 0, 2, 1]))
        assert acc.shape == () and acc.dtype == dtype
        assert_close(acc, 1, dtype)

    def test_half_correct(self, dtype):
        assert_close(F.accuracy(typed(Y, dtype), _t([1, 0, 0, 0])), 0.5,
                     dtype)

    def test_ignore_label(self, dtype):
        acc = F.accuracy(typed(Y, dtype), _t([1, 0, 0, 0]), ignore_label=0)
        assert_close(acc, 1, dtype)
        acc = F.accuracy(typed(Y, dtype), _t([1, -1, 0, -1]),
                         ignore_label=-1)
        assert_close(acc, 0.5, dtype)

    def test_all_ignored_gives_zero(self, dtype):
        acc = F.accuracy(typed(Y, dtype), _t([-1] * 4), ignore_label=-1)
        assert_close(acc, 0, dtype)

    def test_spatial_labels(self, dtype):
        y = typed(numpy.array(Y).reshape(2, 2, 3).transpose(0, 2, 1), dtype)
        assert_close(F.accuracy(y, _t([[1, 0], [2, 0]])), 0.75, dtype)

    def test_trailing_axes_of_size_one(self, dtype):
        y = typed(numpy.array(Y)[:, :, None, None], dtype)
        assert_close(F.accuracy(y, _t([1, 0, 0, 1])), 0.75, dtype)

    def test_not_differentiable(self, dtype):
        y = chainer.Variable(typed(Y, dtype))
        acc = F.accuracy(y, _t([1, 0, 0, 0]))
        gy, = chainer.grad([acc], [y])
        assert gy is None
