"""n_step_rnn, n_step_birnn: stacked Elman RNNs over mini-batches of
sequences of different lengths; the stacking, the time loop and the argument
checks that n_step_lstm and n_step_gru share.

The functions are compositions of differentiable ops (linear, the cells,
split/concat), so their gradients can be differentiated again. Per layer and
direction the input projection of every time step is one ``linear`` over the
concatenated steps; only the recurrent part runs step by step.
"""
import numbers

from chainer_core.configuration import config
from chainer_core.functions.activation.relu import relu
from chainer_core.functions.activation.tanh import tanh
from chainer_core.functions.array.concat import concat
from chainer_core.functions.array.get_item import get_item
from chainer_core.functions.array.separate import separate
from chainer_core.functions.array.split_axis import split_axis
from chainer_core.functions.array.stack import stack
from chainer_core.functions.connection.linear import linear
from chainer_core.functions.noise.dropout import dropout
from chainer_core.variable import as_variable


class _Cell:
    """How one kind of recurrent unit computes.

    ``n_weights`` matrices per layer and direction, the first half acting on
    the layer input and the second half on the hidden state; ``has_cell``
    when the unit carries a cell state (LSTM).
    """

    n_weights = 0
    has_cell = False

    def project(self, x, w, b):
        """The parts of the step inputs that depend only on the layer input
        ``x`` (all time steps stacked along axis 0): a tuple of Variables
        with ``len(x)`` rows each."""
        raise NotImplementedError

    def prepare(self, w, b):
        """What the recurrent step needs of ``w``/``b``, made once per
        call rather than once per step."""
        raise NotImplementedError

    def step(self, xs, h, c, params):
        """One time step: the projected inputs ``xs`` (one per part of
        :meth:`project`, ``B`` rows), the hidden state ``h`` (``B`` rows) and
        the cell state ``c`` (at least ``B`` rows, or None). Returns the new
        ``(h, c)``."""
        raise NotImplementedError


class _Elman(_Cell):
    n_weights = 2

    def __init__(self, activation):
        self.activation = activation

    def project(self, x, w, b):
        return linear(x, w[0], b[0] + b[1]),

    def prepare(self, w, b):
        return w[1]

    def step(self, xs, h, c, w_h):
        return self.activation(xs[0] + linear(h, w_h)), None


_ACTIVATIONS = {'tanh': tanh, 'relu': relu}


def _parse_kwargs(op, kwargs):
    for old in ('train', 'use_cudnn'):
        if old in kwargs:
            raise ValueError(
                "{}: the {} argument is not supported anymore; use "
                "chainer.using_config('{}', ...)".format(op, old, old))
    if kwargs:
        raise TypeError('{}() got unexpected keyword argument(s) {}'.format(
            op, ', '.join(repr(k) for k in sorted(kwargs))))


def _shape_str(shape):
    return '(' + ', '.join(str(s) for s in shape) + ')'


def _check(op, cell, direction, n_layers, dropout_ratio, hx, cx, ws, bs,
           xs):
    """Refuse inconsistent arguments with a message naming ``op`` and the
    argument, the expected and the actual value."""
    if isinstance(n_layers, bool) or not isinstance(
            n_layers, numbers.Integral):
        raise TypeError('{}: n_layers must be an int, got {!r}'.format(
            op, n_layers))
    if n_layers < 1:
        raise ValueError('{}: n_layers must be at least 1, got {}'.format(
            op, n_layers))
    if isinstance(dropout_ratio, bool) or not isinstance(
            dropout_ratio, numbers.Real):
        raise TypeError('{}: dropout_ratio must be a real number, got '
                        '{!r}'.format(op, dropout_ratio))
    if not 0 <= dropout_ratio < 1:
        raise ValueError('{}: dropout_ratio must be in [0, 1), got '
                         '{}'.format(op, dropout_ratio))
    if not isinstance(xs, (list, tuple)):
        raise TypeError('{}: xs must be a list or tuple of arrays (one per '
                        'time step), got {}'.format(op, type(xs).__name__))
    n_sets = n_layers * direction
    for name, params in (('ws', ws), ('bs', bs)):
        if not isinstance(params, (list, tuple)) or len(params) != n_sets:
            raise ValueError(
                '{}: {} must be a list of {} lists (n_layers * {} '
                'directions), got {}'.format(
                    op, name, n_sets, direction,
                    len(params) if isinstance(params, (list, tuple))
                    else type(params).__name__))
        for i, p in enumerate(params):
            if not isinstance(p, (list, tuple)) or len(p) != cell.n_weights:
                raise ValueError(
                    '{}: {}[{}] must be a list of {} arrays, got {}'.format(
                        op, name, i, cell.n_weights,
                        len(p) if isinstance(p, (list, tuple))
                        else type(p).__name__))

    if hx is None or not hasattr(hx, 'shape'):
        raise TypeError('{}: hx must be an array or Variable, got {}'.format(
            op, type(hx).__name__))
    dtype = hx.dtype
    if dtype.kind != 'f':
        raise TypeError('{}: hx must be a float array, got {}'.format(
            op, dtype))
    if hx.ndim != 3 or hx.shape[0] != n_sets:
        raise ValueError(
            '{}: hx must have shape ({}, B, N) (n_layers * {} directions, '
            'batch, units), got {}'.format(
                op, n_sets, direction, _shape_str(hx.shape)))
    units = hx.shape[2]
    if cell.has_cell:
        if cx is None or not hasattr(cx, 'shape'):
            raise TypeError('{}: cx must be an array or Variable, got '
                            '{}'.format(op, type(cx).__name__))
        if cx.shape != hx.shape:
            raise ValueError('{}: cx must have the shape of hx {}, got '
                             '{}'.format(op, _shape_str(hx.shape),
                                         _shape_str(cx.shape)))
        if cx.dtype != dtype:
            raise TypeError('{}: cx must have the dtype of hx ({}), got '
                            '{}'.format(op, dtype, cx.dtype))

    in_size = None
    prev = hx.shape[1]
    for t, x in enumerate(xs):
        if not hasattr(x, 'shape') or x.ndim != 2:
            raise ValueError(
                '{}: xs[{}] must be a 2-D array (batch, units), got {}'
                .format(op, t, _shape_str(x.shape) if hasattr(x, 'shape')
                        else type(x).__name__))
        if x.dtype != dtype:
            raise TypeError('{}: xs[{}] must have the dtype of hx ({}), got '
                            '{}'.format(op, t, dtype, x.dtype))
        if in_size is None:
            in_size = x.shape[1]
        elif x.shape[1] != in_size:
            raise ValueError('{}: xs[{}] must have {} columns as xs[0], got '
                             '{}'.format(op, t, in_size, x.shape[1]))
        if x.shape[0] > prev:
            raise ValueError(
                '{}: the batch sizes of xs must not increase over time nor '
                'exceed hx.shape[1] ({}): xs[{}] has {} rows after {}'.format(
                    op, hx.shape[1], t, x.shape[0], prev))
        prev = x.shape[0]

    half = cell.n_weights // 2
    for i in range(n_sets):
        layer = i // direction
        for j in range(cell.n_weights):
            if j >= half:
                cols = units
            elif layer > 0:
                cols = units * direction
            else:
                cols = in_size
            _check_param(op, 'ws', i, j, ws[i][j], (units, cols), dtype)
            _check_param(op, 'bs', i, j, bs[i][j], (units,), dtype)


def _check_param(op, name, i, j, p, shape, dtype):
    """``shape`` may end in None (the input size, unknown without xs)."""
    if not hasattr(p, 'shape'):
        raise TypeError('{}: {}[{}][{}] must be an array or Variable, got '
                        '{}'.format(op, name, i, j, type(p).__name__))
    if len(p.shape) != len(shape) or any(
            s is not None and s != n for s, n in zip(shape, p.shape)):
        raise ValueError('{}: {}[{}][{}] must have shape {}, got {}'.format(
            op, name, i, j, _shape_str('I' if s is None else s
                                       for s in shape),
            _shape_str(p.shape)))
    if p.dtype != dtype:
        raise TypeError('{}: {}[{}][{}] must have the dtype of hx ({}), got '
                        '{}'.format(op, name, i, j, dtype, p.dtype))


def _run_direction(cell, steps, h0, c0, params, reverse):
    """The recurrence of one layer in one direction.

    ``steps``: per time step, the tuple of projected inputs (``B_t`` rows,
    ``B_t`` non-increasing in t). Rows of the state beyond ``B_t`` are not
    updated at step t: going forward they hold the final states of the
    sequences that have ended; going backward (``reverse``) the sequences of
    those rows have not started yet and keep their initial states.

    Returns ``(h, c, outs)``: the final states (all rows of ``h0``) and the
    hidden state after each step (``B_t`` rows).
    """
    n_steps = len(steps)
    rows = h0.shape[0]
    outs = [None] * n_steps
    h, c = h0, c0
    if not reverse:
        finished = []
        for t in range(n_steps):
            batch = steps[t][0].shape[0]
            if batch < h.shape[0]:
                h, rest = split_axis(h, [batch], axis=0)
                finished.append(rest)
            h, c = cell.step(steps[t], h, c, params)
            outs[t] = h
        if finished:
            h = concat([h] + finished[::-1], axis=0)
        return h, c, outs

    active = 0
    for t in range(n_steps - 1, -1, -1):
        batch = steps[t][0].shape[0]
        if batch > active:
            fresh = h0 if batch == rows and active == 0 else \
                get_item(h0, slice(active, batch))
            h = fresh if active == 0 else concat([h, fresh], axis=0)
            active = batch
        h, c = cell.step(steps[t], h, c, params)
        outs[t] = h
    if active < rows:
        h = concat([h, get_item(h0, slice(active, rows))], axis=0) \
            if active else h0
    return h, c, outs


def _n_step(op, cell, bidirectional, n_layers, dropout_ratio, hx, cx, ws,
            bs, xs):
    """Stacked (bi)directional recurrence; returns ``(hy, cy, ys)`` with
    ``cy`` None for units without a cell state."""
    direction = 2 if bidirectional else 1
    _check(op, cell, direction, n_layers, dropout_ratio, hx, cx, ws, bs, xs)
    if not xs:
        return as_variable(hx), None if cx is None else as_variable(cx), ()

    n_steps = len(xs)
    offsets = []
    total = 0
    for x in xs[:-1]:
        total += x.shape[0]
        offsets.append(total)
    hs = separate(hx, axis=0)
    cs = separate(cx, axis=0) if cell.has_cell else (None,) * len(hs)
    drop = dropout_ratio > 0 and config.train

    layer_in = concat(xs, axis=0) if n_steps > 1 else xs[0]
    hy, cy = [], []
    for layer in range(n_layers):
        outs = []
        for d in range(direction):
            idx = layer * direction + d
            x = layer_in
            if layer > 0 and drop:
                # Each direction draws its own mask, as in Chainer.
                x = dropout(layer_in, dropout_ratio)
            parts = cell.project(x, ws[idx], bs[idx])
            if n_steps > 1:
                split = [split_axis(p, offsets, axis=0) for p in parts]
                steps = list(zip(*split))
            else:
                steps = [parts]
            h, c, out = _run_direction(
                cell, steps, hs[idx], cs[idx],
                cell.prepare(ws[idx], bs[idx]), reverse=d == 1)
            hy.append(h)
            cy.append(c)
            outs.append(out)
        if direction == 1 and layer == n_layers - 1:
            ys = tuple(outs[0])
            break
        joined = [concat(o, axis=0) if n_steps > 1 else o[0] for o in outs]
        layer_in = joined[0] if direction == 1 else concat(joined, axis=1)
    else:
        ys = tuple(split_axis(layer_in, offsets, axis=0)) if n_steps > 1 \
            else (layer_in,)

    return stack(hy), stack(cy) if cell.has_cell else None, ys


def _check_activation(op, activation):
    if activation not in _ACTIVATIONS:
        raise ValueError(
            "{}: activation must be 'tanh' or 'relu', got {!r}".format(
                op, activation))
    return _ACTIVATIONS[activation]


def n_step_rnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh',
               **kwargs):
    """n_step_rnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh')

    Stacked uni-directional Elman RNN over a mini-batch of sequences.

    Layer :math:`l` maps its inputs :math:`x_t` (the sequence itself for
    the first layer, the hidden states of layer :math:`l - 1` for the
    others) to

    .. math::

        h_t = f(W_0 x_t + b_0 + W_1 h_{t-1} + b_1)

    with :math:`f` tanh or relu, starting from :math:`h_{-1}` =
    ``hx[l]``. ``xs`` is time-major: ``xs[t]`` holds time step ``t`` of
    every sequence still running, so the sequences must be sorted by
    decreasing length and ``xs[t].shape[0] >= xs[t + 1].shape[0]``. Rows
    of the state whose sequence has ended keep their last value. In
    training mode (``chainer.config.train``) the input of every layer but
    the first goes through dropout with ``dropout_ratio``.

    Args:
        n_layers (int): the number of layers :math:`S`.
        dropout_ratio (float): dropout ratio between layers, in [0, 1).
        hx (Variable or array): initial hidden states, shape
            ``(S, B, N)``.
        ws (list of lists of Variable or array): ``ws[l]`` is
            ``[W_0, W_1]`` of layer ``l``: ``W_0`` has shape ``(N, I)`` in
            the first layer and ``(N, N)`` above it, ``W_1`` ``(N, N)``.
        bs (list of lists of Variable or array): ``bs[l]`` is
            ``[b_0, b_1]``, each of shape ``(N,)``.
        xs (list of Variable or array): ``xs[t]`` of shape ``(B_t, I)``,
            ``B_0 <= B`` and ``B_t`` non-increasing.
        activation (str): ``'tanh'`` or ``'relu'``.

    Returns:
        tuple: ``(hy, ys)``: ``hy`` the final hidden states, of the shape
        of ``hx``; ``ys`` a tuple of the hidden states of the last layer,
        ``ys[t]`` of shape ``(B_t, N)``.
    """
    _parse_kwargs('n_step_rnn', kwargs)
    cell = _Elman(_check_activation('n_step_rnn', activation))
    hy, _, ys = _n_step('n_step_rnn', cell, False, n_layers, dropout_ratio,
                        hx, None, ws, bs, xs)
    return hy, ys


def n_step_birnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh',
                 **kwargs):
    """n_step_birnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh')

    Stacked bi-directional Elman RNN over a mini-batch of sequences.

    Each layer runs the recurrence of :func:`n_step_rnn` forward in time
    (parameter set ``2l``) and backward in time (set ``2l + 1``, starting at
    the last step of each sequence); its output at step ``t`` is the
    forward and backward hidden states concatenated, ``(B_t, 2N)``, the
    input of the next layer.

    Args:
        n_layers (int): the number of layers :math:`S`.
        dropout_ratio (float): dropout ratio between layers, in [0, 1).
        hx (Variable or array): initial hidden states, shape
            ``(2S, B, N)``; ``hx[2l]`` forward, ``hx[2l + 1]`` backward.
        ws (list of lists of Variable or array): ``2S`` lists
            ``[W_0, W_1]``: ``W_0`` of shape ``(N, I)`` in the first layer
            and ``(N, 2N)`` above it, ``W_1`` ``(N, N)``.
        bs (list of lists of Variable or array): ``2S`` lists
            ``[b_0, b_1]`` of shape ``(N,)``.
        xs (list of Variable or array): ``xs[t]`` of shape ``(B_t, I)``,
            ``B_t`` non-increasing.
        activation (str): ``'tanh'`` or ``'relu'``.

    Returns:
        tuple: ``(hy, ys)``: ``hy`` of the shape of ``hx``; ``ys[t]`` of
        shape ``(B_t, 2N)``.
    """
    _parse_kwargs('n_step_birnn', kwargs)
    cell = _Elman(_check_activation('n_step_birnn', activation))
    hy, _, ys = _n_step('n_step_birnn', cell, True, n_layers, dropout_ratio,
                        hx, None, ws, bs, xs)
    return hy, ys
