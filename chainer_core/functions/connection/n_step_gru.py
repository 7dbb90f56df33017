"""n_step_gru, n_step_bigru: stacked GRUs over mini-batches of sequences of
different lengths."""
from chainer_core.functions.activation.sigmoid import sigmoid
from chainer_core.functions.activation.tanh import tanh
from chainer_core.functions.array.concat import concat
from chainer_core.functions.array.split_axis import split_axis
from chainer_core.functions.connection.n_step_rnn import (
    _Cell, _n_step, _parse_kwargs)
from chainer_core.functions.connection.linear import linear
from chainer_core.functions.math.linear_interpolate import linear_interpolate


class _GRUCell(_Cell):
    n_weights = 6

    def project(self, x, w, b):
        # The hidden biases of the reset and update gates are plain
        # summands and join the input side; b_5 is scaled by r.
        gates = linear(x, concat([w[0], w[1]], axis=0),
                       concat([b[0] + b[3], b[1] + b[4]], axis=0))
        return gates, linear(x, w[2], b[2])

    def prepare(self, w, b):
        return concat([w[3], w[4]], axis=0), w[5], b[5]

    def step(self, xs, h, c, params):
        w_gates, w_new, b_new = params
        x_gates, x_new = xs
        r, z = split_axis(sigmoid(x_gates + linear(h, w_gates)), 2, axis=1)
        h_bar = tanh(x_new + r * linear(h, w_new, b_new))
        return linear_interpolate(z, h, h_bar), None


_CELL = _GRUCell()


def n_step_gru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """n_step_gru(n_layers, dropout_ratio, hx, ws, bs, xs)

    Stacked uni-directional GRU over a mini-batch of sequences.

    Layer :math:`l` maps its inputs :math:`x_t` (the sequence itself for
    the first layer, the hidden states of layer :math:`l - 1` for the
    others), starting from :math:`h_{-1}` = ``hx[l]``, to

    .. math::

        r_t &= \\sigma(W_0 x_t + b_0 + W_3 h_{t-1} + b_3), \\\\
        z_t &= \\sigma(W_1 x_t + b_1 + W_4 h_{t-1} + b_4), \\\\
        \\bar{h}_t &= \\tanh(W_2 x_t + b_2 + r_t (W_5 h_{t-1} + b_5)), \\\\
        h_t &= (1 - z_t) \\bar{h}_t + z_t h_{t-1}

    (:math:`\\sigma` the sigmoid). ``xs`` is time-major: ``xs[t]`` holds
    time step ``t`` of every sequence still running, so the sequences must
    be sorted by decreasing length and ``xs[t].shape[0] >=
    xs[t + 1].shape[0]``. Rows of the state whose sequence has ended keep
    their last value. In training mode (``chainer.config.train``) the input
    of every layer but the first goes through dropout with
    ``dropout_ratio``.

    Args:
        n_layers (int): the number of layers :math:`S`.
        dropout_ratio (float): dropout ratio between layers, in [0, 1).
        hx (Variable or array): initial hidden states, shape
            ``(S, B, N)``.
        ws (list of lists of Variable or array): ``ws[l]`` is
            ``[W_0, ..., W_5]`` of layer ``l``: ``W_0..W_2`` act on the
            input, of shape ``(N, I)`` in the first layer and ``(N, N)``
            above it; ``W_3..W_5`` act on the hidden state, ``(N, N)``.
        bs (list of lists of Variable or array): ``bs[l]`` is
            ``[b_0, ..., b_5]``, each of shape ``(N,)``.
        xs (list of Variable or array): ``xs[t]`` of shape ``(B_t, I)``,
            ``B_0 <= B`` and ``B_t`` non-increasing.

    Returns:
        tuple: ``(hy, ys)``: the final hidden states, of the shape of
        ``hx``, and a tuple of the hidden states of the last layer,
        ``ys[t]`` of shape ``(B_t, N)``.
    """
    _parse_kwargs('n_step_gru', kwargs)
    hy, _, ys = _n_step('n_step_gru', _CELL, False, n_layers,
                        dropout_ratio, hx, None, ws, bs, xs)
    return hy, ys


def n_step_bigru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """n_step_bigru(n_layers, dropout_ratio, hx, ws, bs, xs)

    Stacked bi-directional GRU over a mini-batch of sequences.

    Each layer runs the recurrence of :func:`n_step_gru` forward in time
    (parameter set ``2l``) and backward in time (set ``2l + 1``, starting at
    the last step of each sequence); its output at step ``t`` is the
    forward and backward hidden states concatenated, ``(B_t, 2N)``, the
    input of the next layer.

    Args:
        n_layers (int): the number of layers :math:`S`.
        dropout_ratio (float): dropout ratio between layers, in [0, 1).
        hx (Variable or array): initial hidden states, shape
            ``(2S, B, N)``; ``hx[2l]`` forward, ``hx[2l + 1]`` backward.
        ws (list of lists of Variable or array): ``2S`` lists of 6
            matrices: ``W_0..W_2`` of shape ``(N, I)`` in the first layer
            and ``(N, 2N)`` above it, ``W_3..W_5`` ``(N, N)``.
        bs (list of lists of Variable or array): ``2S`` lists of 6 biases
            of shape ``(N,)``.
        xs (list of Variable or array): ``xs[t]`` of shape ``(B_t, I)``,
            ``B_t`` non-increasing.

    Returns:
        tuple: ``(hy, ys)``: ``hy`` of the shape of ``hx``; ``ys[t]`` of
        shape ``(B_t, 2N)``.
    """
    _parse_kwargs('n_step_bigru', kwargs)
    hy, _, ys = _n_step('n_step_bigru', _CELL, True, n_layers,
                        dropout_ratio, hx, None, ws, bs, xs)
    return hy, ys
