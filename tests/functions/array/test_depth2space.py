"""depth2space: Chainer's channel order (block position major, channel
minor), r = 1, and the gradient through space2depth."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestDepth2Space:

    def test_channel_order(self, dtype):
        # Channels (i*r + j)*C + c with C = 1: the four channels of each
        # pixel become its 2x2 block, row by row.
        x = numpy.arange(8).reshape(1, 4, 1, 2).astype(dtype)
        y = F.depth2space(x, 2)
        assert y.shape == (1, 1, 2, 4)
        assert_close(y[0, 0], [[0, 2, 1, 3], [4, 6, 5, 7]], dtype)

    def test_two_output_channels(self, dtype):
        x = numpy.arange(8).reshape(1, 8, 1, 1).astype(dtype)
        y = F.depth2space(x, 2)
        assert_close(y[0, 0], [[0, 2], [4, 6]], dtype)
        assert_close(y[0, 1], [[1, 3], [5, 7]], dtype)

    def test_inverse_of_space2depth(self, dtype):
        x = numpy.random.RandomState(0).uniform(-1, 1, (2, 9, 2, 3)).astype(
            dtype)
        assert_close(F.space2depth(F.depth2space(x, 3), 3), x, dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(numpy.zeros((1, 4, 1, 2), dtype=dtype))
        gy = numpy.arange(8).reshape(1, 1, 2, 4).astype(dtype)
        gx, = grads(F.depth2space(x, 2), (x,), gy)
        assert_close(gx[0, :, 0], [[0, 2], [1, 3], [4, 6], [5, 7]], dtype)

    def test_channels_must_divide(self, dtype):
        with pytest.raises(TypeError, match='r'):
            F.depth2space(numpy.zeros((1, 3, 2, 2), dtype=dtype), 2)
