"""space2depth: blocks become channels in Chainer's order, and the
gradient through depth2space."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestSpace2Depth:

    def test_block_to_channels(self, dtype):
        x = numpy.arange(8).reshape(1, 1, 2, 4).astype(dtype)
        y = F.space2depth(x, 2)
        assert y.shape == (1, 4, 1, 2)
        # Channel i*2 + j holds position (i, j) of each 2x2 block.
        assert_close(y[0, :, 0], [[0, 2], [1, 3], [4, 6], [5, 7]], dtype)

    def test_channels_stay_minor(self, dtype):
        x = numpy.stack([numpy.zeros((2, 2)), numpy.ones((2, 2))])[None]
        y = F.space2depth(x.astype(dtype), 2)
        assert_close(y[0, :, 0, 0], [0, 1, 0, 1, 0, 1, 0, 1], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(numpy.zeros((1, 1, 2, 4), dtype=dtype))
        gy = numpy.arange(8).reshape(1, 4, 1, 2).astype(dtype)
        gx, = grads(F.space2depth(x, 2), (x,), gy)
        assert_close(gx[0, 0], [[0, 2, 1, 3], [4, 6, 5, 7]], dtype)

    def test_size_must_divide(self, dtype):
        with pytest.raises(TypeError, match='Space2Depth'):
            F.space2depth(numpy.zeros((1, 1, 2, 3), dtype=dtype), 2)
