"""shift: where each channel group moves (checked against Chainer 7.8.1:
row-major window offsets with the centre and the last swapped, leftover
channels unshifted), dilation, the gradient, and bad arguments."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads


def _where(y):
    return [tuple(numpy.argwhere(y[0, c] != 0)[0]) for c in range(y.shape[1])]


@pytest.mark.parametrize('dtype', DTYPES)
class TestShift:

    def test_offsets(self, dtype):
        x = numpy.zeros((1, 11, 5, 5), dtype)
        x[0, :, 2, 2] = numpy.arange(1, 12)
        y = F.shift(x).array
        assert y.dtype == dtype
        assert _where(y) == [(1, 1), (1, 2), (1, 3), (2, 1), (3, 3), (2, 3),
                             (3, 1), (3, 2), (2, 2), (2, 2), (2, 2)]
        numpy.testing.assert_array_equal(y.sum(axis=(0, 2, 3)),
                                         numpy.arange(1, 12))

    def test_dilate_and_groups(self, dtype):
        x = numpy.zeros((1, 6, 7, 7), dtype)
        x[0, :, 3, 3] = 1
        assert _where(F.shift(x, (1, 3), 2).array) == [
            (3, 1), (3, 1), (3, 5), (3, 5), (3, 3), (3, 3)]

    def test_gradient_shifts_back(self, dtype):
        x = chainer.Variable(numpy.zeros((1, 9, 3, 3), dtype))
        gy = numpy.zeros((1, 9, 3, 3), dtype)
        gy[0, 0, 0, 0] = 1
        gx, = grads(F.shift(x), (x,), gy)
        expected = numpy.zeros((1, 9, 3, 3))
        expected[0, 0, 1, 1] = 1
        assert_close(gx, expected, dtype)


@pytest.mark.parametrize('kwargs', [dict(ksize=2), dict(ksize=(3, 4)),
                                    dict(dilate=(1, 2, 3))])
def test_bad_arguments(kwargs):
    with pytest.raises((TypeError, ValueError), match='shift'):
        F.shift(numpy.zeros((1, 12, 4, 4), 'f'), **kwargs)
