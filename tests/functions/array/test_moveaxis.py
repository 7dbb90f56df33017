"""moveaxis: ints or tuples, negative axes, order of the untouched axes,
and the gradient moved back."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(120).reshape(2, 3, 4, 5).astype(dtype)


@dtype_param
class TestMoveaxis:

    @pytest.mark.parametrize('source, destination, shape', [
        (0, -1, (3, 4, 5, 2)),
        (-1, 0, (5, 2, 3, 4)),
        ((0, 1), (-1, -2), (4, 5, 3, 2)),
        ((3, 0), (1, 2), (3, 5, 2, 4)),
        ((), (), (2, 3, 4, 5)),
    ])
    def test_shapes_and_values(self, dtype, source, destination, shape):
        y = F.moveaxis(_x(dtype), source, destination)
        assert y.shape == shape
        assert_close(y, numpy.moveaxis(_x(numpy.float64), source,
                                       destination), dtype)

    def test_gradient_moves_back(self, dtype):
        x = chainer.Variable(_x(dtype))
        y = F.moveaxis(x, (0, 3), (2, 0))
        gy = numpy.arange(120).reshape(y.shape).astype(dtype)
        gx, = grads(y, (x,), gy)
        assert_close(gx, numpy.moveaxis(gy, (2, 0), (0, 3)), dtype)

    def test_repeated_destination(self, dtype):
        with pytest.raises(TypeError, match='destination'):
            F.moveaxis(_x(dtype), (0, 1), (2, -2))

    def test_lists_are_accepted(self, dtype):
        assert F.moveaxis(_x(dtype), [0], [1]).shape == (3, 2, 4, 5)
