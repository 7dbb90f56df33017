"""linear: y = x W^T + b, with n_batch_axes leading batch axes and the
remaining axes of x flattened into the input size."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _r(dtype, shape, seed):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _rows_times_w(x2d, W, b=None):
    """x2d W^T (+ b) by explicit sums, in float64."""
    y = (x2d.astype(numpy.float64)[:, None, :] * W[None, :, :]).sum(axis=2)
    return y if b is None else y + b


@dtype_param
class TestLinear:

    def test_without_bias_equals_zero_bias(self, dtype):
        x, W = _r(dtype, (4, 3), 0), _r(dtype, (2, 3), 1)
        y = F.linear(x, W)
        assert y.shape == (4, 2)
        assert y.dtype == dtype
        assert_close(y, F.linear(x, W, numpy.zeros(2, dtype)).array, dtype)
        assert_close(y, _rows_times_w(x, W), dtype)

    def test_trailing_axes_are_flattened(self, dtype):
        x, W, b = _r(dtype, (4, 2, 3), 0), _r(dtype, (5, 6), 1), \
            _r(dtype, (5,), 2)
        y = F.linear(x, W, b)
        assert y.shape == (4, 5)
        assert_close(y, _rows_times_w(x.reshape(4, 6), W, b), dtype)

    def test_n_batch_axes(self, dtype):
        x, W, b = _r(dtype, (2, 3, 4), 0), _r(dtype, (5, 4), 1), \
            _r(dtype, (5,), 2)
        y = F.linear(x, W, b, n_batch_axes=2)
        assert y.shape == (2, 3, 5)
        assert_close(y, _rows_times_w(x.reshape(6, 4), W, b).reshape(
            2, 3, 5), dtype)

    def test_n_batch_axes_flattens_the_rest(self, dtype):
        x, W = _r(dtype, (2, 3, 2, 2), 0), _r(dtype, (5, 4), 1)
        y = F.linear(x, W, n_batch_axes=2)
        assert y.shape == (2, 3, 5)
        assert_close(y, _rows_times_w(x.reshape(6, 4), W).reshape(2, 3, 5),
                     dtype)

    @pytest.mark.parametrize('x_shape, n_batch_axes, w_shape', [
        ((4, 3), 1, (2, 3)), ((4, 2, 3), 1, (2, 6)),
        ((2, 3, 4), 2, (5, 4))])
    def test_gradients_keep_input_shapes(self, dtype, x_shape, n_batch_axes,
                                         w_shape):
        x = chainer.Variable(_r(dtype, x_shape, 0))
        W = chainer.Variable(_r(dtype, w_shape, 1))
        b = chainer.Variable(_r(dtype, w_shape[:1], 2))
        y = F.linear(x, W, b, n_batch_axes=n_batch_axes)
        gx, gW, gb = grads(y, (x, W, b))
        assert gx.shape == x_shape and gW.shape == w_shape
        # With gy = 1: gx rows are the column sums of W, gb counts rows.
        rows = int(numpy.prod(x_shape[:n_batch_axes]))
        assert_close(gb, numpy.full(w_shape[:1], rows), dtype)
        assert_close(gx.reshape(rows, -1), numpy.broadcast_to(
            W.array.astype(numpy.float64).sum(axis=0), (rows, w_shape[1])),
            dtype)
