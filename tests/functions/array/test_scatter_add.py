"""scatter_add: every value added where an index repeats, the input left
untouched, and gradients (b's re-indexed from gy)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _a(dtype):
    return numpy.arange(12).reshape(3, 4).astype(dtype)


@dtype_param
class TestScatterAdd:

    def test_repeated_rows_accumulate(self, dtype):
        a = _a(dtype)
        b = numpy.ones((3, 4), dtype=dtype)
        y = F.scatter_add(a, [0, 2, 0], b)
        expected = _a(numpy.float64)
        expected[0] += 2
        expected[2] += 1
        assert_close(y, expected, dtype)
        assert_close(a, _a(numpy.float64), dtype)

    def test_basic_index(self, dtype):
        b = numpy.full(3, 10, dtype=dtype)
        y = F.scatter_add(_a(dtype), (slice(None), 1), b)
        assert_close(y[:, 1], [11, 15, 19], dtype)

    def test_gradients(self, dtype):
        a = chainer.Variable(_a(dtype))
        b = chainer.Variable(numpy.ones((2,), dtype=dtype))
        gy = numpy.arange(12).reshape(3, 4).astype(dtype)
        ga, gb = grads(F.scatter_add(a, ([1, 1], [3, 3]), b), (a, b), gy)
        assert_close(ga, gy, dtype)
        assert_close(gb, [7, 7], dtype)

    def test_b_is_not_broadcast(self, dtype):
        with pytest.raises(ValueError, match='scatter_add: b'):
            F.scatter_add(_a(dtype), 0, numpy.ones(1, dtype=dtype))
