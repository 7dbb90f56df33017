"""slstm: two children, each with gates a, i, f, o interleaved per unit;
the output gate is sigmoid(o1 + o2)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _sigmoid(t):
    return 1 / (1 + numpy.exp(-t))


def _gates(a, i, f, o):
    return numpy.stack([a, i, f, o], axis=1).reshape(1, -1)


@dtype_param
class TestSLSTM:

    def test_formula_and_gate_order(self, dtype):
        g1 = [numpy.array(v) for v in ([0.5, -1], [1, 0.2], [-0.5, 2],
                                       [0.3, -0.7])]
        g2 = [numpy.array(v) for v in ([-0.2, 0.4], [0.6, -1.5], [1.2, 0.1],
                                       [-0.9, 0.8])]
        c1 = numpy.array([[0.8, -0.6]])
        c2 = numpy.array([[-0.1, 0.4]])
        c, h = F.slstm(c1.astype(dtype), c2.astype(dtype),
                       _gates(*g1).astype(dtype), _gates(*g2).astype(dtype))
        assert c.dtype == dtype and h.dtype == dtype
        c_ref = (numpy.tanh(g1[0]) * _sigmoid(g1[1])
                 + numpy.tanh(g2[0]) * _sigmoid(g2[1])
                 + _sigmoid(g1[2]) * c1 + _sigmoid(g2[2]) * c2)
        assert_close(c, c_ref, dtype)
        assert_close(h, _sigmoid(g1[3] + g2[3]) * numpy.tanh(c_ref), dtype)

    def test_output_gates_share_their_gradient(self, dtype):
        rng = numpy.random.RandomState(0)
        c1, c2 = (chainer.Variable(rng.uniform(-1, 1, (2, 3)).astype(dtype))
                  for _ in range(2))
        x1, x2 = (chainer.Variable(rng.uniform(-1, 1, (2, 12)).astype(dtype))
                  for _ in range(2))
        _, h = F.slstm(c1, c2, x1, x2)
        gx1, gx2 = grads(h, (x1, x2))
        numpy.testing.assert_array_equal(gx1[:, 3::4], gx2[:, 3::4])

    def test_swapping_children_swaps_gradients(self, dtype):
        rng = numpy.random.RandomState(1)
        arrays = [rng.uniform(-1, 1, s).astype(dtype)
                  for s in ((2, 3), (2, 3), (2, 12), (2, 12))]
        vs = [chainer.Variable(a) for a in arrays]
        c, h = F.slstm(*vs)
        g = grads(c + h, vs)
        ws = [chainer.Variable(arrays[k]) for k in (1, 0, 3, 2)]
        c_s, h_s = F.slstm(*ws)
        assert_close(c_s, c.array, dtype)
        g_s = grads(c_s + h_s, ws)
        for k, j in enumerate((1, 0, 3, 2)):
            assert_close(g_s[k], g[j], dtype)
