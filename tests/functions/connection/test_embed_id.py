"""embed_id: row lookup, ignore_label rows of zeros, gradients that add up
over repeated ids, and range checks."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _W(dtype):
    return numpy.arange(12, dtype=dtype).reshape(4, 3) / 4


@dtype_param
class TestEmbedID:

    def test_picks_rows(self, dtype):
        x = numpy.array([[3, 0], [1, 1]], numpy.int32)
        y = F.embed_id(x, _W(dtype))
        assert y.shape == (2, 2, 3) and y.dtype == dtype
        assert_close(y, _W(numpy.float64)[x], dtype)

    def test_ignore_label_gives_zero_rows(self, dtype):
        x = numpy.array([2, -1, 0], numpy.int64)
        y = F.embed_id(x, _W(dtype), ignore_label=-1)
        assert_close(y, [_W(numpy.float64)[2], [0, 0, 0],
                         _W(numpy.float64)[0]], dtype)

    def test_ignore_label_may_be_a_valid_id(self, dtype):
        y = F.embed_id(numpy.array([1, 2], numpy.int32), _W(dtype),
                       ignore_label=1)
        assert_close(y, [[0, 0, 0], _W(numpy.float64)[2]], dtype)

    def test_gradient_adds_repeated_ids(self, dtype):
        W = chainer.Variable(_W(dtype))
        x = numpy.array([1, 3, 1, -1], numpy.int32)
        gy = numpy.arange(12, dtype=dtype).reshape(4, 3)
        gW, = grads(F.embed_id(x, W, ignore_label=-1), (W,), gy)
        assert_close(gW, [[0, 0, 0], [6, 8, 10], [0, 0, 0], [3, 4, 5]],
                     dtype)

    def test_no_gradient_for_x(self, dtype):
        x = chainer.Variable(numpy.array([0, 1], numpy.int32))
        W = chainer.Variable(_W(dtype))
        gx, gW = grads(F.embed_id(x, W), (x, W))
        assert gx is None and gW.shape == (4, 3)

    @pytest.mark.parametrize('ids', [[0, 4], [-1, 0]])
    def test_out_of_range_ids_are_refused(self, dtype, ids):
        with pytest.raises(ValueError, match='embed_id'):
            F.embed_id(numpy.array(ids, numpy.int32), _W(dtype))

    def test_double_backprop(self, dtype):
        W = chainer.Variable(_W(dtype))
        gy = chainer.Variable(numpy.ones((2, 3), dtype))
        x = numpy.array([2, 2], numpy.int32)
        gW, = chainer.grad([F.embed_id(x, W)], [W], [gy],
                           enable_double_backprop=True)
        ggy, = chainer.grad([F.sum(gW * gW)], [gy])
        # d/dgy sum(gW^2) = 2 gW[x]; gW[2] = gy[0] + gy[1] = 2.
        assert_close(ggy, numpy.full((2, 3), 4), dtype)
