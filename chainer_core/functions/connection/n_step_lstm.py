"""n_step_lstm, n_step_bilstm: stacked LSTMs over mini-batches of sequences
of different lengths, built on the lstm cell."""
from chainer_core.functions.activation.lstm import lstm
from chainer_core.functions.array.reshape import reshape
from chainer_core.functions.array.stack import stack
from chainer_core.functions.connection.n_step_rnn import (
    _Cell, _n_step, _parse_kwargs)
from chainer_core.functions.connection.linear import linear

# The weights are stored as cuDNN orders the gates (input, forget, cell
# input, output, Chainer's layout); lstm wants (cell input, input, forget,
# output) interleaved per unit.
_GATE_ORDER = (2, 0, 1, 3)


def _interleave(mats):
    """``(N, ...)`` gate blocks as one ``(4N, ...)`` array whose row
    ``4u + k`` is row ``u`` of gate ``k`` (in lstm's order)."""
    stacked = stack([mats[k] for k in _GATE_ORDER], axis=1)
    return reshape(stacked, (stacked.shape[0] * 4,) + stacked.shape[2:])


class _LSTMCell(_Cell):
    n_weights = 8
    has_cell = True

    def project(self, x, w, b):
        bias = _interleave([b[k] + b[k + 4] for k in range(4)])
        return linear(x, _interleave(w[:4]), bias),

    def prepare(self, w, b):
        return _interleave(w[4:])

    def step(self, xs, h, c, w_h):
        c, h = lstm(c, xs[0] + linear(h, w_h))
        return h, c


_CELL = _LSTMCell()


def n_step_lstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """n_step_lstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs)

    Stacked uni-directional LSTM over a mini-batch of sequences.

    Layer :math:`l` maps its inputs :math:`x_t` (the sequence itself for
    the first layer, the hidden states of layer :math:`l - 1` for the
    others), starting from :math:`h_{-1}` = ``hx[l]`` and
    :math:`c_{-1}` = ``cx[l]``, to

    .. math::

        i_t &= \\sigma(W_0 x_t + W_4 h_{t-1} + b_0 + b_4), \\\\
        f_t &= \\sigma(W_1 x_t + W_5 h_{t-1} + b_1 + b_5), \\\\
        a_t &= \\tanh(W_2 x_t + W_6 h_{t-1} + b_2 + b_6), \\\\
        o_t &= \\sigma(W_3 x_t + W_7 h_{t-1} + b_3 + b_7), \\\\
        c_t &= f_t c_{t-1} + i_t a_t, \\\\
        h_t &= o_t \\tanh(c_t)

    (:math:`\\sigma` the sigmoid; the gate order is cuDNN's, so weights
    trained with Chainer on CPU or GPU load as they are). ``xs`` is
    time-major: ``xs[t]`` holds time step ``t`` of every sequence still
    running, so the sequences must be sorted by decreasing length and
    ``xs[t].shape[0] >= xs[t + 1].shape[0]``. Rows of the states whose
    sequence has ended keep their last values. In training mode
    (``chainer.config.train``) the input of every layer but the first goes
    through dropout with ``dropout_ratio``.

    Args:
        n_layers (int): the number of layers :math:`S`.
        dropout_ratio (float): dropout ratio between layers, in [0, 1).
        hx (Variable or array): initial hidden states, shape
            ``(S, B, N)``.
        cx (Variable or array): initial cell states, shape ``(S, B, N)``.
        ws (list of lists of Variable or array): ``ws[l]`` is
            ``[W_0, ..., W_7]`` of layer ``l``: ``W_0..W_3`` act on the
            input, of shape ``(N, I)`` in the first layer and ``(N, N)``
            above it; ``W_4..W_7`` act on the hidden state, ``(N, N)``.
        bs (list of lists of Variable or array): ``bs[l]`` is
            ``[b_0, ..., b_7]``, each of shape ``(N,)``.
        xs (list of Variable or array): ``xs[t]`` of shape ``(B_t, I)``,
            ``B_0 <= B`` and ``B_t`` non-increasing.

    Returns:
        tuple: ``(hy, cy, ys)``: the final hidden and cell states, of the
        shape of ``hx``, and a tuple of the hidden states of the last
        layer, ``ys[t]`` of shape ``(B_t, N)``.
    """
    _parse_kwargs('n_step_lstm', kwargs)
    return _n_step('n_step_lstm', _CELL, False, n_layers, dropout_ratio,
                   hx, cx, ws, bs, xs)


def n_step_bilstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """n_step_bilstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs)

    Stacked bi-directional LSTM over a mini-batch of sequences.

    Each layer runs the recurrence of :func:`n_step_lstm` forward in time
    (parameter set ``2l``) and backward in time (set ``2l + 1``, starting at
    the last step of each sequence); its output at step ``t`` is the
    forward and backward hidden states concatenated, ``(B_t, 2N)``, the
    input of the next layer.

    Args:
        n_layers (int): the number of layers :math:`S`.
        dropout_ratio (float): dropout ratio between layers, in [0, 1).
        hx (Variable or array): initial hidden states, shape
            ``(2S, B, N)``; ``hx[2l]`` forward, ``hx[2l + 1]`` backward.
        cx (Variable or array): initial cell states, shape ``(2S, B, N)``.
        ws (list of lists of Variable or array): ``2S`` lists of 8
            matrices: ``W_0..W_3`` of shape ``(N, I)`` in the first layer
            and ``(N, 2N)`` above it, ``W_4..W_7`` ``(N, N)``.
        bs (list of lists of Variable or array): ``2S`` lists of 8 biases
            of shape ``(N,)``.
        xs (list of Variable or array): ``xs[t]`` of shape ``(B_t, I)``,
            ``B_t`` non-increasing.

    Returns:
        tuple: ``(hy, cy, ys)``: ``hy`` and ``cy`` of the shape of ``hx``;
        ``ys[t]`` of shape ``(B_t, 2N)``.
    """
    _parse_kwargs('n_step_bilstm', kwargs)
    return _n_step('n_step_bilstm', _CELL, True, n_layers, dropout_ratio,
                   hx, cx, ws, bs, xs)
