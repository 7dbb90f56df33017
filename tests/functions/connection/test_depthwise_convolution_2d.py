"""depthwise_convolution_2d: each channel convolved with its own filters,
output channel c * M + m for filter m of channel c."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _r(dtype, shape, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@dtype_param
class TestDepthwiseConvolution2D:

    def test_channel_order(self, dtype):
        x, W, b = _r(dtype, (2, 3, 5, 5), 0), _r(dtype, (2, 3, 3, 3), 1), \
            _r(dtype, (6,), 2)
        y = F.depthwise_convolution_2d(x, W, b, stride=2, pad=1)
        assert y.shape == (2, 6, 3, 3)
        for c in range(3):
            for m in range(2):
                single = F.convolution_2d(x[:, c:c + 1], W[m:m + 1, c:c + 1],
                                          b[c * 2 + m:c * 2 + m + 1],
                                          stride=2, pad=1)
                assert_close(y[:, c * 2 + m], single.array[:, 0], dtype)

    def test_multiplier_1_keeps_channels_apart(self, dtype):
        x = numpy.zeros((1, 2, 3, 3), dtype)
        x[0, 0] = 1
        W = numpy.ones((1, 2, 3, 3), dtype)
        y = F.depthwise_convolution_2d(x, W)
        assert_close(y[0, :, 0, 0], [9, 0], dtype)

    def test_gradients(self, dtype):
        x = chainer.Variable(_r(dtype, (2, 2, 4, 4), 0))
        W = chainer.Variable(_r(dtype, (3, 2, 2, 2), 1))
        b = chainer.Variable(_r(dtype, (6,), 2))
        gx, gW, gb = grads(F.depthwise_convolution_2d(x, W, b), (x, W, b))
        assert_close(gb, numpy.full(6, 18), dtype)
        # Filter m of channel c sees the 3x3 patches of channel c only.
        xs = x.array.astype(numpy.float64)
        expected = numpy.array([[[xs[:, c, u:u + 3, v:v + 3].sum()
                                  for v in range(2)] for u in range(2)]
                                for c in range(2)])
        for m in range(3):
            assert_close(gW[m], expected, dtype)
        assert gx.shape == x.shape

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_r(dtype, (1, 2, 4, 4), 0))
        W = chainer.Variable(_r(dtype, (2, 2, 3, 3), 1))
        y = F.depthwise_convolution_2d(x, W, pad=1)
        gx, = chainer.grad([y], [x], enable_double_backprop=True)
        gW, = chainer.grad([F.sum(gx * gx)], [W])
        assert gW.shape == W.shape and numpy.abs(gW.array).max() > 0
