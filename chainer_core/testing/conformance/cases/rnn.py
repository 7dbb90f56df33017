"""Cases of the stacked recurrent networks (n_step_rnn, n_step_lstm,
n_step_gru and their bi-directional forms).

Each case flattens the arguments into one tuple of arrays (hx, cx for the
LSTMs, the weights, the biases, the time steps) and the results into one
vector (hy, cy, then the outputs of every step), so that the table checks
all of them at once. The reference runs every sequence on its own, one
vector at a time, in float64.
"""
import numpy

import chainer_core.functions as F

from . import Floats, case, f16

_sigmoid = lambda v: 1.0 / (1.0 + numpy.exp(-v))  # NOQA


def _rnn_step(activation):
    def step(x, h, c, w, b):
        return activation(w[0] @ x + b[0] + w[1] @ h + b[1]), None
    return step


def _lstm_step(x, h, c, w, b):
    gate = [w[k] @ x + b[k] + w[k + 4] @ h + b[k + 4] for k in range(4)]
    i, f, o = _sigmoid(gate[0]), _sigmoid(gate[1]), _sigmoid(gate[3])
    c = f * c + i * numpy.tanh(gate[2])
    return o * numpy.tanh(c), c


def _gru_step(x, h, c, w, b):
    r = _sigmoid(w[0] @ x + b[0] + w[3] @ h + b[3])
    z = _sigmoid(w[1] @ x + b[1] + w[4] @ h + b[4])
    h_bar = numpy.tanh(w[2] @ x + b[2] + r * (w[5] @ h + b[5]))
    return (1 - z) * h_bar + z * h, None


def reference(step, n_layers, direction, hx, cx, ws, bs, xs):
    """(hy, cy, ys) by running each sequence of the time-major ``xs`` by
    itself."""
    hy = hx.copy()
    cy = None if cx is None else cx.copy()
    units = hx.shape[2]
    ys = [numpy.zeros((x.shape[0], units * direction)) for x in xs]
    for b in range(hx.shape[1]):
        seq = [x[b] for x in xs if x.shape[0] > b]
        n = len(seq)
        for layer in range(n_layers):
            outs = []
            for d in range(direction):
                idx = layer * direction + d
                h = hx[idx, b]
                c = None if cx is None else cx[idx, b]
                out = [None] * n
                for t in (range(n) if d == 0 else range(n - 1, -1, -1)):
                    h, c = step(seq[t], h, c, ws[idx], bs[idx])
                    out[t] = h
                hy[idx, b] = h
                if c is not None:
                    cy[idx, b] = c
                outs.append(out)
            seq = [numpy.concatenate([o[t] for o in outs]) for t in range(n)]
        for t in range(n):
            ys[t][b] = seq[t]
    return hy, cy, ys


_KINDS = {
    # name: (function, step, weights per set, has a cell state)
    'rnn': (F.n_step_rnn, _rnn_step(numpy.tanh), 2, False),
    'rnn-relu': (lambda *a: F.n_step_rnn(*a, activation='relu'),
                 _rnn_step(lambda v: numpy.maximum(v, 0)), 2, False),
    'birnn': (F.n_step_birnn, _rnn_step(numpy.tanh), 2, False),
    'birnn-relu': (lambda *a: F.n_step_birnn(*a, activation='relu'),
                   _rnn_step(lambda v: numpy.maximum(v, 0)), 2, False),
    'lstm': (F.n_step_lstm, _lstm_step, 8, True),
    'bilstm': (F.n_step_bilstm, _lstm_step, 8, True),
    'gru': (F.n_step_gru, _gru_step, 6, False),
    'bigru': (F.n_step_bigru, _gru_step, 6, False),
}


def _layout(n_layers, direction, n_weights, units, in_size, batches,
            rows=None):
    """Input generators and an unpacking function of the flat arguments."""
    rows = batches[0] if rows is None else rows
    n_sets = n_layers * direction
    shapes = []
    for i in range(n_sets):
        cols = in_size if i < direction else units * direction
        shapes.append([(units, cols if j < n_weights // 2 else units)
                       for j in range(n_weights)])
    state = (n_sets, rows, units)

    def unpack(args, has_cell):
        args = list(args)
        hx = args.pop(0)
        cx = args.pop(0) if has_cell else None
        ws = [[args.pop(0) for _ in range(n_weights)] for _ in range(n_sets)]
        bs = [[args.pop(0) for _ in range(n_weights)] for _ in range(n_sets)]
        return hx, cx, ws, bs, args

    def generators(has_cell):
        gens = [Floats(state)] * (2 if has_cell else 1)
        gens += [Floats(s, -0.8, 0.8) for per_set in shapes for s in per_set]
        gens += [Floats((units,), -0.5, 0.5)] * (n_sets * n_weights)
        gens += [Floats((b, in_size), -1.0, 1.0) for b in batches]
        return tuple(gens)

    return unpack, generators


def _add_case(kind, n_layers, units, in_size, batches, rows=None, suffix='',
              **tol):
    func, step, n_weights, has_cell = _KINDS[kind]
    direction = 2 if kind.startswith('bi') else 1
    unpack, generators = _layout(n_layers, direction, n_weights, units,
                                 in_size, batches, rows)

    def call(*args):
        hx, cx, ws, bs, xs = unpack(args, has_cell)
        if has_cell:
            hy, cy, ys = func(n_layers, 0.0, hx, cx, ws, bs, xs)
            parts = [hy, cy] + list(ys)
        else:
            hy, ys = func(n_layers, 0.0, hx, ws, bs, xs)
            parts = [hy] + list(ys)
        return F.concat([F.reshape(p, (-1,)) for p in parts], axis=0)

    def ref(*args):
        hx, cx, ws, bs, xs = unpack(args, has_cell)
        hy, cy, ys = reference(step, n_layers, direction, hx, cx, ws, bs, xs)
        parts = [hy] + ([cy] if has_cell else []) + ys
        return numpy.concatenate([p.ravel() for p in parts])

    case('n_step_{}{}'.format(kind, suffix), generators(has_cell), call, ref,
         **tol)


_F16 = dict(fwd={f16: dict(atol=1e-2, rtol=1e-2)})

for _kind in _KINDS:
    # Two layers over three sequences of lengths 3, 2 and 2: the batch
    # shrinks over time.
    _add_case(_kind, 2, 2, 3, (3, 3, 1), **_F16)
# One layer over equal lengths; and more state rows than sequences at the
# first step (the last rows pass through).
_add_case('lstm', 1, 3, 2, (2, 2), suffix='-1layer', **_F16)
_add_case('gru', 1, 3, 2, (2, 2), suffix='-1layer', **_F16)
_add_case('lstm', 1, 2, 2, (2, 1), rows=3, suffix='-extra-rows', **_F16)
_add_case('bilstm', 1, 2, 2, (2, 1), rows=3, suffix='-extra-rows', **_F16)
_add_case('bigru', 1, 2, 2, (2, 1), rows=3, suffix='-extra-rows', **_F16)
_add_case('birnn', 1, 2, 2, (2, 1), rows=3, suffix='-extra-rows', **_F16)
_add_case('bilstm', 1, 2, 2, (1,), suffix='-1step', **_F16)
