"""rollaxis: NumPy's placement rule (before ``start``), ``start`` equal to
ndim, and the gradient through the inverse permutation."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(120).reshape(2, 3, 4, 5).astype(dtype)


@dtype_param
class TestRollaxis:

    @pytest.mark.parametrize('axis, start, shape', [
        (3, 0, (5, 2, 3, 4)),
        (0, 4, (3, 4, 5, 2)),
        (0, 2, (3, 2, 4, 5)),
        (3, 1, (2, 5, 3, 4)),
        (-1, -3, (2, 5, 3, 4)),
        (1, 1, (2, 3, 4, 5)),
        (1, 2, (2, 3, 4, 5)),
    ])
    def test_shapes(self, dtype, axis, start, shape):
        y = F.rollaxis(_x(dtype), axis, start)
        assert y.shape == shape
        assert_close(y, numpy.rollaxis(_x(numpy.float64), axis, start),
                     dtype)

    def test_default_start_is_front(self, dtype):
        assert F.rollaxis(_x(dtype), 2).shape == (4, 2, 3, 5)

    @pytest.mark.parametrize('axis, start', [(3, 1), (0, 4), (-2, 0)])
    def test_gradient_is_the_inverse_permutation(self, dtype, axis, start):
        x = chainer.Variable(_x(dtype))
        y = F.rollaxis(x, axis, start)
        gy = numpy.random.RandomState(0).uniform(-1, 1, y.shape).astype(
            dtype)
        gx, = grads(y, (x,), gy)
        # The gradient sends each element back where it came from.
        order = numpy.rollaxis(numpy.arange(120).reshape(2, 3, 4, 5), axis,
                               start).ravel()
        expected = numpy.empty(120)
        expected[order] = gy.ravel()
        assert_close(gx, expected.reshape(2, 3, 4, 5), dtype)

    def test_start_out_of_range(self, dtype):
        with pytest.raises(TypeError, match='start'):
            F.rollaxis(_x(dtype), 0, 5)
