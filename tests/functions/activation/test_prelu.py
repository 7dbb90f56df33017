"""prelu: W holds one slope per entry of x.shape[1:1 + W.ndim], broadcast
along the batch axis and the trailing axes."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestPReLU:

    def test_one_slope_per_channel(self, dtype):
        x = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 2, 2)).astype(
            dtype)
        W = typed([0.1, -0.5, 2], dtype)
        y = F.prelu(x, W)
        assert y.dtype == dtype and y.shape == x.shape
        xf = x.astype('f8')
        assert_close(y, numpy.where(xf >= 0, xf,
                                    W.astype('f8').reshape(1, 3, 1, 1) * xf),
                     dtype)

    def test_scalar_W(self, dtype):
        y = F.prelu(typed([[-2, 3]], dtype), typed(0.25, dtype))
        assert_close(y, [[-0.5, 3]], dtype)

    def test_gradients(self, dtype):
        x = chainer.Variable(typed([[-2, 0, 3], [-1, 4, -0.5]], dtype))
        W = chainer.Variable(typed([0.5, 0.25, -1], dtype))
        gy = typed([[1, 2, 3], [4, 5, 6]], dtype)
        gx, gW = grads(F.prelu(x, W), (x, W), gy)
        # x >= 0 passes gy; x < 0 passes W gy; gW sums x gy over x < 0.
        assert_close(gx, [[0.5, 2, 3], [2, 5, -6]], dtype)
        assert_close(gW, [-2 - 4, 0, -3], dtype)

    def test_second_derivatives(self, dtype):
        x = chainer.Variable(typed([[-2, 3]], dtype))
        W = chainer.Variable(typed([0.5, 0.5], dtype))
        gx, = chainer.grad([F.prelu(x, W)], [x], [typed([[1, 1]], dtype)],
                           enable_double_backprop=True)
        ggx, ggW = chainer.grad([gx], [x, W], [typed([[1, 1]], dtype)])
        assert ggx is None or not ggx.array.any()
        assert_close(ggW, [1, 0], dtype)
