"""lstm: gates a, i, f, o interleaved per unit along axis 1; x may have
fewer rows than c_prev, whose remaining rows pass through unchanged."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)
_TOL = {numpy.dtype(numpy.float16): dict(atol=5e-2, rtol=5e-2),
        numpy.dtype(numpy.float32): dict(atol=2e-3, rtol=2e-3),
        numpy.dtype(numpy.float64): dict(atol=1e-6, rtol=1e-5)}


def _sigmoid(t):
    return 1 / (1 + numpy.exp(-t))


def _gates(a, i, f, o):
    """x of one row and len(a) units, gates interleaved per unit."""
    return numpy.stack([a, i, f, o], axis=1).reshape(1, -1)


@dtype_param
class TestLSTM:

    def test_gate_order_is_a_i_f_o_per_unit(self, dtype):
        a, i, f, o = (numpy.array(v) for v in
                      ([0.5, -1], [1, 0.25], [-0.5, 2], [0.3, -0.7]))
        c_prev = numpy.array([[0.8, -0.6]])
        c, h = F.lstm(c_prev.astype(dtype),
                      _gates(a, i, f, o).astype(dtype))
        assert c.dtype == dtype and h.dtype == dtype
        c_ref = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c_prev
        assert_close(c, c_ref, dtype)
        assert_close(h, _sigmoid(o) * numpy.tanh(c_ref), dtype)

    def test_saturated_gates(self, dtype):
        # Input gate shut, forget gate open: the cell keeps c_prev; output
        # gate open: h = tanh(c).
        big = 30
        x = _gates([1], [-big], [big], [big]).astype(dtype)
        c, h = F.lstm(typed([[0.5]], dtype), x)
        assert_close(c, [[0.5]], dtype)
        assert_close(h, [[numpy.tanh(0.5)]], dtype)

    def test_shorter_x_passes_the_other_rows_through(self, dtype):
        rng = numpy.random.RandomState(0)
        c_prev = chainer.Variable(rng.uniform(-1, 1, (4, 3)).astype(dtype))
        x = chainer.Variable(rng.uniform(-1, 1, (2, 12)).astype(dtype))
        c, h = F.lstm(c_prev, x)
        assert c.shape == (4, 3) and h.shape == (2, 3)
        numpy.testing.assert_array_equal(c.array[2:], c_prev.array[2:])
        full_c, full_h = F.lstm(c_prev.array[:2], x.array)
        assert_close(c.array[:2], full_c.array, dtype)
        assert_close(h, full_h.array, dtype)
        gc = rng.uniform(-1, 1, (4, 3)).astype(dtype)
        gc_prev, = grads(c, (c_prev,), gc)
        assert_close(gc_prev[2:], gc[2:], dtype)

    def test_gradient_of_h_alone(self, dtype):
        # Only h used: the c gradient is absent.
        c_prev = chainer.Variable(typed([[0.3]], dtype))
        x = chainer.Variable(_gates([0.2], [0.1], [-0.4], [0.6]).astype(
            dtype))
        _, h = F.lstm(c_prev, x)
        gc_prev, gx = grads(h, (c_prev, x))
        a, i, f, o = numpy.tanh(0.2), _sigmoid(0.1), _sigmoid(-0.4), \
            _sigmoid(0.6)
        c = a * i + f * 0.3
        dc = o * (1 - numpy.tanh(c) ** 2)
        assert_close(gc_prev, [[dc * f]], dtype)
        assert_close(gx, [[dc * i * (1 - a * a), dc * a * i * (1 - i),
                           dc * 0.3 * f * (1 - f),
                           numpy.tanh(c) * o * (1 - o)]], dtype)

    def test_gradient_of_c_alone(self, dtype):
        c_prev = chainer.Variable(typed([[0.3]], dtype))
        x = chainer.Variable(_gates([0.2], [0.1], [-0.4], [0.6]).astype(
            dtype))
        c, _ = F.lstm(c_prev, x)
        gc_prev, gx = grads(c, (c_prev, x))
        a, i, f = numpy.tanh(0.2), _sigmoid(0.1), _sigmoid(-0.4)
        assert_close(gc_prev, [[f]], dtype)
        assert_close(gx, [[i * (1 - a * a), a * i * (1 - i),
                           0.3 * f * (1 - f), 0]], dtype)

    def test_third_order(self, dtype):
        # The second-order gradient is itself differentiable: check the
        # double backprop of the first-order gradient of h.
        rng = numpy.random.RandomState(2)

        def grad_of_h(c_prev, x):
            _, h = F.lstm(c_prev, x)
            return chainer.grad([h], [c_prev, x],
                                [numpy.ones(h.shape, dtype=dtype)],
                                enable_double_backprop=True)

        inputs = (rng.uniform(-1, 1, (3, 2)).astype(dtype),
                  rng.uniform(-1, 1, (2, 8)).astype(dtype))
        gys = tuple(rng.uniform(-1, 1, a.shape).astype(dtype)
                    for a in inputs)
        ggs = tuple(rng.uniform(-1, 1, a.shape).astype(dtype)
                    for a in inputs)
        tol = _TOL[numpy.dtype(dtype)]
        gradient_check.check_double_backward(
            grad_of_h, inputs, gys, ggs, dtype=numpy.float64, **tol)
