"""crelu: relu(x) and relu(-x) joined along axis (1 by default); the
gradient of each half goes back with its sign."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestCReLU:

    def test_default_axis_is_1(self, dtype):
        y = F.crelu(typed([[-1, 0], [2, -3]], dtype))
        assert y.dtype == dtype
        assert_close(y, [[0, 0, 1, 0], [2, 0, 0, 3]], dtype)

    @pytest.mark.parametrize('axis', [0, 1, 2, -1, -3])
    def test_axis(self, dtype, axis):
        x = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 4)).astype(
            dtype)
        y = F.crelu(x, axis=axis)
        expected = numpy.concatenate((numpy.maximum(x, 0),
                                      numpy.maximum(-x, 0)), axis=axis)
        assert y.shape == expected.shape
        assert_close(y, expected, dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([[-2, 0, 3]], dtype))
        gy = typed([[1, 2, 3, 4, 5, 6]], dtype)
        gx, = grads(F.crelu(x), (x,), gy)
        # x > 0 takes the first half's gradient, x < 0 minus the second's,
        # x == 0 neither.
        assert_close(gx, [[-4, 0, 3]], dtype)

    def test_second_derivative_is_zero(self, dtype):
        x = chainer.Variable(typed([[-2, 3]], dtype))
        gy = chainer.Variable(typed([[1, 2, 3, 4]], dtype))
        gx, = chainer.grad([F.crelu(x)], [x], [gy],
                           enable_double_backprop=True)
        ggx, ggy = chainer.grad([gx], [x, gy], [typed([[1, 1]], dtype)])
        assert ggx is None or not ggx.array.any()
        assert_close(ggy, [[0, 1, -1, 0]], dtype)

    def test_axis_must_be_an_int(self, dtype):
        with pytest.raises(TypeError, match='crelu.*axis'):
            F.crelu(typed([[1]], dtype), axis=None)
