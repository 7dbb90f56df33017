"""gather: torch.gather's semantics (indices no larger than x along the
other axes, no broadcasting) and its gradient."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(12).reshape(3, 4).astype(dtype)


@dtype_param
class TestGather:

    def test_axis1(self, dtype):
        i = numpy.array([[0, 0], [1, 0]], dtype=numpy.int64)
        assert_close(F.gather(_x(dtype), 1, i), [[0, 0], [5, 4]], dtype)

    def test_axis0_reads_the_leading_columns(self, dtype):
        i = numpy.array([[2, 1]], dtype=numpy.int64)
        y = F.gather(_x(dtype), 0, i)
        assert y.shape == (1, 2)
        assert_close(y, [[8, 5]], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        i = numpy.array([[3, 3], [0, 1]])
        gx, = grads(F.gather(x, 1, i), (x,),
                    numpy.array([[1, 2], [3, 4]], dtype=dtype))
        assert_close(gx, [[0, 0, 0, 3], [3, 4, 0, 0], [0, 0, 0, 0]], dtype)

    def test_no_broadcasting(self, dtype):
        with pytest.raises(ValueError, match='gather: indices'):
            F.gather(numpy.zeros((1, 4), dtype=dtype), 1,
                     numpy.zeros((2, 1), dtype=numpy.int64))
