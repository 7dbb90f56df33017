"""tree_lstm: x is N + 3 consecutive blocks a, i, o, f_1 ... f_N (not
interleaved); first-order gradients only."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _sigmoid(t):
    return 1 / (1 + numpy.exp(-t))


@dtype_param
class TestTreeLSTM:

    @pytest.mark.parametrize('n', [1, 2, 3])
    def test_blocks(self, dtype, n):
        rng = numpy.random.RandomState(n)
        cs = [rng.uniform(-1, 1, (2, 3)) for _ in range(n)]
        x = rng.uniform(-1, 1, (2, 3 * (n + 3)))
        c, h = F.tree_lstm(*[a.astype(dtype) for a in cs + [x]])
        assert c.shape == h.shape == (2, 3)
        assert c.dtype == dtype and h.dtype == dtype
        blocks = [x[:, 3 * k:3 * (k + 1)] for k in range(n + 3)]
        c_ref = numpy.tanh(blocks[0]) * _sigmoid(blocks[1])
        for k in range(n):
            c_ref = c_ref + _sigmoid(blocks[3 + k]) * cs[k]
        assert_close(c, c_ref, dtype)
        assert_close(h, _sigmoid(blocks[2]) * numpy.tanh(c_ref), dtype)

    def test_one_child_is_lstm_with_reordered_gates(self, dtype):
        rng = numpy.random.RandomState(0)
        c_prev = rng.uniform(-1, 1, (2, 3)).astype(dtype)
        x = rng.uniform(-1, 1, (2, 12)).astype(dtype)
        a, i, o, f = (x[:, 3 * k:3 * (k + 1)] for k in range(4))
        x_lstm = numpy.stack([a, i, f, o], axis=2).reshape(2, 12)
        c, h = F.tree_lstm(c_prev, x)
        c2, h2 = F.lstm(c_prev, x_lstm)
        assert_close(c, c2.array, dtype)
        assert_close(h, h2.array, dtype)

    def test_gradients_match_lstm(self, dtype):
        rng = numpy.random.RandomState(1)
        c_prev = rng.uniform(-1, 1, (2, 3)).astype(dtype)
        x = rng.uniform(-1, 1, (2, 12)).astype(dtype)
        order = [0, 1, 3, 2]  # tree_lstm's a, i, o, f as lstm's a, i, f, o
        x_lstm = numpy.stack([x[:, 3 * k:3 * (k + 1)] for k in order],
                             axis=2).reshape(2, 12)
        cv, xv = chainer.Variable(c_prev), chainer.Variable(x)
        c, h = F.tree_lstm(cv, xv)
        gc, gx = grads(c + h, (cv, xv))
        cl, xl = chainer.Variable(c_prev), chainer.Variable(x_lstm)
        c2, h2 = F.lstm(cl, xl)
        gc2, gx2 = grads(c2 + h2, (cl, xl))
        assert_close(gc, gc2, dtype)
        gx2 = gx2.reshape(2, 3, 4)
        for k, j in enumerate(order):
            assert_close(gx[:, 3 * k:3 * (k + 1)], gx2[:, :, j], dtype)

    def test_double_backprop_is_refused(self, dtype):
        c_prev = chainer.Variable(numpy.zeros((1, 2), dtype=dtype))
        x = chainer.Variable(numpy.zeros((1, 8), dtype=dtype))
        _, h = F.tree_lstm(c_prev, x)
        gx, = chainer.grad([h], [x], [numpy.ones((1, 2), dtype=dtype)],
                           enable_double_backprop=True)
        with pytest.raises(RuntimeError, match='tree_lstm'):
            chainer.grad([gx], [x], [numpy.ones((1, 8), dtype=dtype)])
