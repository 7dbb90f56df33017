"""tile: NumPy's handling of more or fewer reps than axes, zero reps, and
gradients summed over the tiles."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(6).reshape(2, 3).astype(dtype)


@dtype_param
class TestTile:

    @pytest.mark.parametrize('reps', [2, (2,), (2, 3), (2, 1, 2), (0, 1),
                                      [1, 2]])
    def test_values(self, dtype, reps):
        assert_close(F.tile(_x(dtype), reps),
                     numpy.tile(_x(numpy.float64), reps), dtype)

    def test_gradient_sums_over_tiles(self, dtype):
        x = chainer.Variable(_x(dtype))
        y = F.tile(x, (2, 1, 2))
        gy = numpy.arange(numpy.prod(y.shape)).reshape(y.shape).astype(dtype)
        gx, = grads(y, (x,), gy)
        expected = gy.reshape(2, 1, 1, 2, 2, 3).sum(axis=(0, 2, 4))[0]
        assert_close(gx, expected, dtype)

    def test_zero_reps_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        gx, = grads(F.tile(x, (1, 0)), (x,))
        assert_close(gx, numpy.zeros((2, 3)), dtype)

    def test_negative_reps(self, dtype):
        with pytest.raises(ValueError, match='tile: reps'):
            F.tile(_x(dtype), -1)
