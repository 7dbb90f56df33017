"""What the tests of the n_step functions share: a step-by-step reference
(every sequence on its own, one time step at a time, the cells written gate
by gate with linear, sigmoid and tanh, so that it is differentiable too) and
the checks common to every n_step function (:class:`NStepChecks`, made into
test classes by the test modules)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check

from .. import DTYPES

_TOL = {numpy.dtype(numpy.float16): dict(atol=2e-2, rtol=2e-2),
        numpy.dtype(numpy.float32): dict(atol=1e-5, rtol=1e-5),
        numpy.dtype(numpy.float64): dict(atol=1e-12, rtol=1e-10)}


def close(actual, expected, dtype=numpy.float64):
    if isinstance(actual, chainer.Variable):
        actual = actual.array
    if isinstance(expected, chainer.Variable):
        expected = expected.array
    numpy.testing.assert_allclose(
        numpy.asarray(actual, numpy.float64),
        numpy.asarray(expected, numpy.float64), **_TOL[numpy.dtype(dtype)])


# -- cells, one row at a time

def lstm_cell(x, h, c, w, b):
    def gate(k):
        return F.linear(x, w[k], b[k]) + F.linear(h, w[k + 4], b[k + 4])
    i, f, o = F.sigmoid(gate(0)), F.sigmoid(gate(1)), F.sigmoid(gate(3))
    c = f * c + i * F.tanh(gate(2))
    return o * F.tanh(c), c


def gru_cell(x, h, c, w, b):
    r = F.sigmoid(F.linear(x, w[0], b[0]) + F.linear(h, w[3], b[3]))
    z = F.sigmoid(F.linear(x, w[1], b[1]) + F.linear(h, w[4], b[4]))
    h_bar = F.tanh(F.linear(x, w[2], b[2]) + r * F.linear(h, w[5], b[5]))
    return (1 - z) * h_bar + z * h, None


def rnn_cell(activation):
    def cell(x, h, c, w, b):
        return activation(F.linear(x, w[0], b[0]) +
                          F.linear(h, w[1], b[1])), None
    return cell


def step_loop(cell, n_layers, direction, hx, cx, ws, bs, xs):
    """``(hy, cy, ys)`` of the time-major ``xs``, computed sequence by
    sequence and step by step (cy None without a cell state)."""
    n_sets = n_layers * direction
    rows = hx.shape[1]
    hy = [[None] * rows for _ in range(n_sets)]
    cy = [[None] * rows for _ in range(n_sets)]
    ys = [[None] * x.shape[0] for x in xs]
    for b in range(rows):
        seq = [F.get_item(x, slice(b, b + 1)) for x in xs if x.shape[0] > b]
        n = len(seq)
        for layer in range(n_layers):
            outs = []
            for d in range(direction):
                idx = layer * direction + d
                h = F.get_item(hx, (idx, slice(b, b + 1)))
                c = None if cx is None else \
                    F.get_item(cx, (idx, slice(b, b + 1)))
                out = [None] * n
                for t in (range(n) if d == 0 else reversed(range(n))):
                    h, c = cell(seq[t], h, c, ws[idx], bs[idx])
                    out[t] = h
                hy[idx][b], cy[idx][b] = h, c
                outs.append(out)
            seq = [F.concat([o[t] for o in outs], axis=1) for t in range(n)]
        for t in range(n):
            ys[t][b] = seq[t]
    hy = F.stack([F.concat(per_set, axis=0) for per_set in hy])
    if cx is not None:
        cy = F.stack([F.concat(per_set, axis=0) for per_set in cy])
    return hy, (cy if cx is not None else None), \
        tuple(F.concat(y, axis=0) for y in ys)


# -- arguments

def make_args(rng, dtype, n_weights, n_layers, direction, units, in_size,
              batches, rows=None, cell_state=False):
    """Random ``(hx, cx, ws, bs, xs)`` as arrays (cx None unless
    ``cell_state``)."""
    rows = batches[0] if rows is None else rows
    n_sets = n_layers * direction

    def r(*shape, scale=1.0):
        return (rng.uniform(-scale, scale, shape)).astype(dtype)

    hx = r(n_sets, rows, units)
    cx = r(n_sets, rows, units) if cell_state else None
    ws = [[r(units, (in_size if i < direction else units * direction)
             if j < n_weights // 2 else units, scale=0.8)
           for j in range(n_weights)] for i in range(n_sets)]
    bs = [[r(units, scale=0.5) for _ in range(n_weights)]
          for _ in range(n_sets)]
    xs = [r(b, in_size) for b in batches]
    return hx, cx, ws, bs, xs


dtype_param = pytest.mark.parametrize('dtype', DTYPES)


class NStepChecks:
    """Checks of one n_step function; subclasses set ``func`` (called as
    Chainer calls it), ``cell`` (a cell above), ``n_weights``,
    ``cell_state`` and ``direction``."""

    func = None
    cell = None
    n_weights = 0
    cell_state = False
    direction = 1
    kwargs = {}
    # Added to the biases: keeps relu units alive.
    bias_offset = 0.0

    def call(self, n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
        """``(hy, cy, ys)`` whatever the function returns (cy None)."""
        kwargs = dict(self.kwargs, **kwargs)
        func = type(self).func
        if self.cell_state:
            return func(n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                        **kwargs)
        hy, ys = func(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs)
        return hy, None, ys

    def args(self, dtype=numpy.float64, n_layers=2, units=3, in_size=2,
             batches=(3, 3, 2, 1), rows=None, seed=0):
        hx, cx, ws, bs, xs = make_args(
            numpy.random.RandomState(seed), dtype, self.n_weights, n_layers,
            self.direction, units, in_size, batches, rows, self.cell_state)
        bs = [[b + dtype(self.bias_offset) for b in bb] for bb in bs]
        return hx, cx, ws, bs, xs

    def reference(self, n_layers, hx, cx, ws, bs, xs):
        return step_loop(type(self).cell, n_layers, self.direction, hx, cx,
                         ws, bs, xs)

    # -- values

    @dtype_param
    @pytest.mark.parametrize('batches, rows', [
        ((3, 3, 2, 1), None), ((2, 2), None), ((1,), None),
        ((2, 1), 4)])
    def test_matches_the_step_loop(self, dtype, batches, rows):
        hx, cx, ws, bs, xs = self.args(dtype, batches=batches, rows=rows)
        hy, cy, ys = self.call(2, 0.0, hx, cx, ws, bs, xs)
        ref_hy, ref_cy, ref_ys = self.reference(2, hx, cx, ws, bs, xs)
        assert hy.shape == hx.shape and hy.dtype == dtype
        close(hy, ref_hy, dtype)
        if self.cell_state:
            assert cy.shape == cx.shape and cy.dtype == dtype
            close(cy, ref_cy, dtype)
        else:
            assert cy is None
        assert isinstance(ys, tuple) and len(ys) == len(xs)
        for y, ref, x in zip(ys, ref_ys, xs):
            assert isinstance(y, chainer.Variable)
            assert y.shape == (x.shape[0], hx.shape[2] * self.direction)
            assert y.dtype == dtype
            close(y, ref, dtype)

    def test_gradients_match_the_step_loop(self):
        hx, cx, ws, bs, xs = self.args()
        leaves = [chainer.Variable(a) for a in
                  [hx] + ([cx] if self.cell_state else []) +
                  [w for ww in ws for w in ww] + [b for bb in bs for b in bb]
                  + xs]

        def run(f):
            it = iter(leaves)
            v_hx = next(it)
            v_cx = next(it) if self.cell_state else None
            v_ws = [[next(it) for _ in ww] for ww in ws]
            v_bs = [[next(it) for _ in bb] for bb in bs]
            v_xs = [next(it) for _ in xs]
            hy, cy, ys = f(2, v_hx, v_cx, v_ws, v_bs, v_xs)
            outs = [hy] + ([cy] if cy is not None else []) + list(ys)
            rng = numpy.random.RandomState(1)
            gys = [rng.uniform(-1, 1, o.shape) for o in outs]
            return chainer.grad(outs, leaves, gys)

        got = run(lambda n, *a: self.call(n, 0.0, *a))
        expected = run(self.reference)
        for g, e in zip(got, expected):
            close(g, e)

    def test_each_sequence_alone(self):
        # A sequence's results do not depend on the others in the batch.
        hx, cx, ws, bs, xs = self.args(batches=(3, 2, 2, 1))
        hy, cy, ys = self.call(2, 0.0, hx, cx, ws, bs, xs)
        for b in range(3):
            one = [x[b:b + 1] for x in xs if x.shape[0] > b]
            hy1, cy1, ys1 = self.call(
                2, 0.0, hx[:, b:b + 1], None if cx is None else
                cx[:, b:b + 1], ws, bs, one)
            close(hy1, hy.array[:, b:b + 1])
            if cx is not None:
                close(cy1, cy.array[:, b:b + 1])
            for t, y in enumerate(ys1):
                close(y, ys[t].array[b:b + 1])

    def test_final_state_of_ended_sequences(self):
        # The top layer's final forward state of each sequence is its
        # output at its last step; the backward one, its output at step 0.
        hx, cx, ws, bs, xs = self.args(batches=(3, 2, 1))
        hy, _, ys = self.call(2, 0.0, hx, cx, ws, bs, xs)
        units = hx.shape[2]
        top = self.direction  # the first set of the second layer
        for b, length in enumerate((3, 2, 1)):
            close(hy.array[top, b], ys[length - 1].array[b, :units])
            if self.direction == 2:
                close(hy.array[top + 1, b], ys[0].array[b, units:])

    def test_extra_state_rows_pass_through(self):
        hx, cx, ws, bs, xs = self.args(batches=(2, 1), rows=4)
        hy, cy, ys = self.call(2, 0.0, hx, cx, ws, bs, xs)
        numpy.testing.assert_array_equal(hy.array[:, 2:], hx[:, 2:])
        if cx is not None:
            numpy.testing.assert_array_equal(cy.array[:, 2:], cx[:, 2:])
        hy2, _, ys2 = self.call(2, 0.0, hx[:, :2], None if cx is None
                                else cx[:, :2], ws, bs, xs)
        close(hy.array[:, :2], hy2)
        for y, y2 in zip(ys, ys2):
            close(y, y2)

    def test_no_time_steps(self):
        hx, cx, ws, bs, _ = self.args()
        hy, cy, ys = self.call(2, 0.0, hx, cx, ws, bs, [])
        assert ys == ()
        numpy.testing.assert_array_equal(hy.array, hx)
        if cx is not None:
            numpy.testing.assert_array_equal(cy.array, cx)

    def test_variables_and_arrays_agree(self):
        hx, cx, ws, bs, xs = self.args()
        as_var = chainer.Variable
        hy, cy, ys = self.call(
            2, 0.0, as_var(hx), None if cx is None else as_var(cx),
            [[as_var(w) for w in ww] for ww in ws],
            [[as_var(b) for b in bb] for bb in bs], [as_var(x) for x in xs])
        hy2, cy2, ys2 = self.call(2, 0.0, hx, cx, ws, bs, xs)
        numpy.testing.assert_array_equal(hy.array, hy2.array)
        for y, y2 in zip(ys, ys2):
            numpy.testing.assert_array_equal(y.array, y2.array)

    # -- dropout between layers

    def test_dropout_only_in_training(self):
        hx, cx, ws, bs, xs = self.args()
        plain = self.call(2, 0.0, hx, cx, ws, bs, xs)
        with chainer.using_config('train', False):
            tested = self.call(2, 0.9, hx, cx, ws, bs, xs)
        close(tested[0], plain[0])
        for y, y0 in zip(tested[2], plain[2]):
            close(y, y0)

    def test_dropout_between_layers_only(self):
        hx, cx, ws, bs, xs = self.args()
        plain_hy, _, plain_ys = self.call(2, 0.0, hx, cx, ws, bs, xs)
        with chainer.using_config('train', True):
            numpy.random.seed(3)
            hy, _, ys = self.call(2, 0.5, hx, cx, ws, bs, xs)
            one_layer = self.call(1, 0.9, hx[:self.direction],
                                  None if cx is None else
                                  cx[:self.direction], ws[:self.direction],
                                  bs[:self.direction], xs)
        # The first layer sees the input as it is; the second a dropped
        # version of the first layer's output.
        close(hy.array[:self.direction], plain_hy.array[:self.direction])
        assert not numpy.allclose(hy.array[self.direction:],
                                  plain_hy.array[self.direction:])
        assert not numpy.allclose(ys[0].array, plain_ys[0].array)
        close(one_layer[0], plain_hy.array[:self.direction])

    def test_dropout_is_random(self):
        hx, cx, ws, bs, xs = self.args()
        with chainer.using_config('train', True):
            first = self.call(2, 0.5, hx, cx, ws, bs, xs)[0].array
            second = self.call(2, 0.5, hx, cx, ws, bs, xs)[0].array
        assert not numpy.allclose(first, second)

    # -- gradients

    def test_check_backward_and_double_backward(self):
        hx, cx, ws, bs, xs = self.args(n_layers=2, units=2, in_size=2,
                                       batches=(2, 1), rows=3, seed=5)
        n_w = len(ws) * self.n_weights
        inputs = [hx] + ([cx] if self.cell_state else []) + \
            [w for ww in ws for w in ww] + [b for bb in bs for b in bb] + xs
        n_state = 2 if self.cell_state else 1

        def f(*args):
            it = iter(args)
            states = [next(it) for _ in range(n_state)]
            v_ws = [list(args[n_state + i * self.n_weights:
                              n_state + (i + 1) * self.n_weights])
                    for i in range(len(ws))]
            v_bs = [list(args[n_state + n_w + i * self.n_weights:
                              n_state + n_w + (i + 1) * self.n_weights])
                    for i in range(len(bs))]
            v_xs = list(args[n_state + 2 * n_w:])
            hy, cy, ys = self.call(2, 0.0, states[0],
                                   states[1] if self.cell_state else None,
                                   v_ws, v_bs, v_xs)
            outs = [hy] + ([cy] if cy is not None else []) + list(ys)
            return F.concat([F.reshape(o, (-1,)) for o in outs], axis=0)

        size = f(*inputs).shape
        rng = numpy.random.RandomState(7)
        gy = rng.uniform(-1, 1, size)
        gradient_check.check_backward(f, tuple(inputs), gy, atol=1e-6,
                                      rtol=1e-5)
        ggx = tuple(rng.uniform(-1, 1, a.shape) for a in inputs)
        gradient_check.check_double_backward(f, tuple(inputs), gy, ggx,
                                             atol=1e-5, rtol=1e-4)

    # -- arguments

    def test_train_argument_is_refused(self):
        hx, cx, ws, bs, xs = self.args()
        with pytest.raises(ValueError, match='train'):
            self.call(2, 0.0, hx, cx, ws, bs, xs, train=False)

    def test_unknown_argument_is_refused(self):
        hx, cx, ws, bs, xs = self.args()
        with pytest.raises(TypeError, match='bogus'):
            self.call(2, 0.0, hx, cx, ws, bs, xs, bogus=1)
