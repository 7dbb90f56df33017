"""leaky_relu: slope 0.2 by default, any real slope, the gradient at 0 is
that of the positive side."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestLeakyReLU:

    def test_default_slope(self, dtype):
        y = F.leaky_relu(typed([-2, -0.5, 0, 3], dtype))
        assert y.dtype == dtype
        assert_close(y, [-0.4, -0.1, 0, 3], dtype)

    @pytest.mark.parametrize('slope', [0.0, 0.5, -1.0, 2])
    def test_slope(self, dtype, slope):
        x = typed([-2, -1, 1, 2], dtype)
        assert_close(F.leaky_relu(x, slope=slope),
                     [-2 * slope, -slope, 1, 2], dtype)

    @pytest.mark.parametrize('slope', [0.0, 0.3, -1.0])
    def test_gradient(self, dtype, slope):
        x = chainer.Variable(typed([-2, 0, 2], dtype))
        gx, = grads(F.leaky_relu(x, slope), (x,), typed([1, 2, 3], dtype))
        assert_close(gx, [slope, 2, 3], dtype)

    def test_second_derivative_is_zero(self, dtype):
        x = chainer.Variable(typed([-1, 2], dtype))
        gy = chainer.Variable(numpy.ones(2, dtype=dtype))
        gx, = chainer.grad([F.leaky_relu(x)], [x], [gy],
                           enable_double_backprop=True)
        ggx, ggy = chainer.grad([gx], [x, gy], [numpy.ones(2, dtype=dtype)])
        assert ggx is None or not ggx.array.any()
        assert_close(ggy, [0.2, 1], dtype)

    def test_slope_must_be_a_number(self, dtype):
        with pytest.raises(TypeError, match='leaky_relu.*slope'):
            F.leaky_relu(typed([1], dtype), slope='0.1')


def test_gradient_at_nan_is_the_output_gradient():
    # NaN is not below 0: Chainer passes its gradient through unscaled.
    x = chainer.Variable(numpy.array([numpy.nan, -1.0, 1.0]))
    y = F.leaky_relu(x, 0.2)
    y.grad = numpy.ones(3)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [1.0, 0.2, 1.0])
