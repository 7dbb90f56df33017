"""pad_sequence: the longest length by default, a given length and
padding value, and gradients cut back to each sequence."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _xs(dtype):
    return [numpy.arange(2 * n).reshape(n, 2).astype(dtype) + 1
            for n in (2, 3, 1)]


@dtype_param
class TestPadSequence:

    def test_longest_by_default(self, dtype):
        y = F.pad_sequence(_xs(dtype))
        assert y.shape == (3, 3, 2)
        assert y.dtype == dtype
        assert_close(y[1], _xs(dtype)[1], dtype)
        assert_close(y[0, 2], [0, 0], dtype)
        assert_close(y[2, 1:], numpy.zeros((2, 2)), dtype)

    def test_length_and_padding(self, dtype):
        y = F.pad_sequence(_xs(dtype), length=4, padding=-1)
        assert y.shape == (3, 4, 2)
        assert_close(y[2], [[1, 2], [-1, -1], [-1, -1], [-1, -1]], dtype)

    def test_integer_sequences(self, dtype):
        y = F.pad_sequence([numpy.array([1, 2], dtype=numpy.int32),
                            numpy.array([3], dtype=numpy.int32)], padding=-1)
        assert y.dtype == numpy.int32
        numpy.testing.assert_array_equal(y.array, [[1, 2], [3, -1]])

    def test_gradients(self, dtype):
        xs = [chainer.Variable(x) for x in _xs(dtype)]
        gy = numpy.arange(18).reshape(3, 3, 2).astype(dtype)
        gxs = grads(F.pad_sequence(xs, padding=5), xs, gy)
        for i, (x, gx) in enumerate(zip(xs, gxs)):
            assert_close(gx, gy[i, :len(x)], dtype)

    def test_length_too_short(self, dtype):
        with pytest.raises(TypeError, match='length'):
            F.pad_sequence(_xs(dtype), length=2)
