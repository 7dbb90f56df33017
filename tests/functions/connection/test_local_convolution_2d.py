"""local_convolution_2d: unshared filters per output position; the output
size comes from W, and shared filters reproduce convolution_2d."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _r(dtype, shape, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@dtype_param
class TestLocalConvolution2D:

    def test_shared_filters_give_a_convolution(self, dtype):
        x, w = _r(dtype, (2, 3, 7, 6), 0), _r(dtype, (4, 3, 3, 2), 1)
        W = numpy.broadcast_to(w[:, None, None], (4, 3, 3, 3, 3, 2)).copy()
        y = F.local_convolution_2d(x, W, stride=2)
        assert y.shape == (2, 4, 3, 3)
        assert_close(y, F.convolution_2d(x, w, stride=2).array, dtype)

    def test_each_position_has_its_own_filter(self, dtype):
        x = numpy.ones((1, 1, 3, 3), dtype)
        W = numpy.arange(4, dtype=dtype).reshape(1, 2, 2, 1, 1, 1)
        b = numpy.full((1, 2, 2), 0.5, dtype)
        y = F.local_convolution_2d(x, W, b)
        assert_close(y[0, 0], [[0.5, 1.5], [2.5, 3.5]], dtype)

    def test_input_beyond_the_last_window_is_ignored(self, dtype):
        x, W = _r(dtype, (1, 2, 6, 6), 0), _r(dtype, (2, 2, 2, 2, 2, 2), 1)
        assert_close(F.local_convolution_2d(x, W),
                     F.local_convolution_2d(x[:, :, :3, :3].copy(), W).array,
                     dtype)

    def test_gradients(self, dtype):
        x = chainer.Variable(_r(dtype, (2, 2, 4, 4), 0))
        W = chainer.Variable(_r(dtype, (3, 2, 2, 2, 3, 3), 1))
        b = chainer.Variable(_r(dtype, (3, 2, 2), 2))
        gx, gW, gb = grads(F.local_convolution_2d(x, W, b), (x, W, b))
        assert_close(gb, numpy.full((3, 2, 2), 2), dtype)
        # gW at position (i, j) is the batch sum of the patch there.
        xs = x.array.astype(numpy.float64)
        assert_close(gW[1, 1, 0], xs[:, :, 1:4, 0:3].sum(axis=0), dtype)
        # Each pixel collects the filters of the positions that read it.
        Ws = W.array.astype(numpy.float64).sum(axis=0)
        assert_close(gx[0, 1, 0, 0], Ws[0, 0, 1, 0, 0], dtype)
        assert_close(gx[1, 0, 1, 1], Ws[0, 0, 0, 1, 1] + Ws[0, 1, 0, 1, 0]
                     + Ws[1, 0, 0, 0, 1] + Ws[1, 1, 0, 0, 0], dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_r(dtype, (1, 2, 4, 4), 0))
        W = chainer.Variable(_r(dtype, (2, 2, 2, 2, 3, 3), 1))
        y = F.local_convolution_2d(x, W)
        gx, = chainer.grad([y], [x], enable_double_backprop=True)
        gW, = chainer.grad([F.sum(gx * gx)], [W])
        assert gW.shape == W.shape and numpy.abs(gW.array).max() > 0
