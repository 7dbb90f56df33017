"""Tree LSTMs (Tai et al., *Improved Semantic Representations From
Tree-Structured Long Short-Term Memory Networks*, 2015): ChildSumTreeLSTM
and NaryTreeLSTM."""
from chainer_core._runtime.host import using_device
from chainer_core.functions.activation.sigmoid import sigmoid
from chainer_core.functions.activation.tanh import tanh
from chainer_core.functions.activation.tree_lstm import tree_lstm
from chainer_core.functions.array.concat import concat
from chainer_core.functions.array.split_axis import split_axis
from chainer_core.link import Chain
from chainer_core.links._checks import check_size
from chainer_core.links.connection.linear import Linear


class _TreeLSTMBase(Chain):

    def __init__(self, in_size, out_size):
        name = type(self).__name__
        check_size(name, 'in_size', in_size, allow_none=True)
        self.state_size = check_size(name, 'out_size', out_size)
        super().__init__()

    def _split_args(self, cshsx, n_children=None):
        name = type(self).__name__
        if len(cshsx) % 2 != 1 or (n_children is not None and
                                   len(cshsx) != 2 * n_children + 1):
            expected = ('an odd number of' if n_children is None
                        else '{}'.format(2 * n_children + 1))
            raise ValueError(
                '{}: expected {} arguments (the children\'s cell states, '
                'their outputs, then x), got {}'.format(
                    name, expected, len(cshsx)))
        n = len(cshsx) // 2
        return cshsx[:n], cshsx[n:2 * n], cshsx[-1]

    def _zeros_for_none(self, states, x):
        """``states`` with every None replaced by a zero state (an absent
        child)."""
        if all(s is not None for s in states):
            return tuple(states)
        with using_device(self.device):
            zero = self.xp.zeros((x.shape[0], self.state_size), x.dtype)
        return tuple(zero if s is None else s for s in states)


class ChildSumTreeLSTM(_TreeLSTMBase):
    """Child-Sum tree LSTM: a node of any number of (unordered) children.

    With children's cell states :math:`c_k` and outputs :math:`h_k` and
    :math:`\\tilde{h} = \\sum_k h_k`:

    .. math::

        a, i, o &= W_{x,aio} x + W_{h,aio} \\tilde{h}, \\\\
        f_k &= W_{x,f} x + W_{h,f} h_k, \\\\
        c &= \\tanh(a) \\sigma(i) + \\sum_k \\sigma(f_k) c_k, \\\\
        h &= \\sigma(o) \\tanh(c)

    (a leaf, called with ``x`` alone, has :math:`c = \\tanh(a) \\sigma(i)`).

    Args:
        in_size (int or None): input size (None: from the first input).
        out_size (int): the number of units.

    Attributes:
        W_x (~chainer_core.links.Linear): ``in_size -> 4 * out_size``, the
            blocks ``a, i, o, f``.
        W_h_aio (~chainer_core.links.Linear): ``out_size -> 3 * out_size``,
            no bias.
        W_h_f (~chainer_core.links.Linear): ``out_size -> out_size``, no
            bias.

    .. admonition:: Example

        >>> lstm = L.ChildSumTreeLSTM(3, 4)
        >>> x = np.ones((2, 3), np.float32)
        >>> c1, h1 = lstm(x)
        >>> c2, h2 = lstm(x)
        >>> c, h = lstm(c1, c2, h1, h2, x)
        >>> h.shape
        (2, 4)
    """

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        with self.init_scope():
            self.W_x = Linear(in_size, 4 * out_size)
            self.W_h_aio = Linear(out_size, 3 * out_size, nobias=True)
            self.W_h_f = Linear(out_size, out_size, nobias=True)

    def forward(self, *cshsx):
        """One node.

        Args:
            cshsx: the children's cell states ``c_1, ..., c_K``, then their
                outputs ``h_1, ..., h_K`` (each ``(B, out_size)``; None is
                an absent child, zeros), then ``x`` ``(B, in_size)``.

        Returns:
            tuple: ``(c, h)``, both ``(B, out_size)``.
        """
        cs, hs, x = self._split_args(cshsx)
        n = self.state_size
        x_aio, x_f = split_axis(self.W_x(x), [3 * n], axis=1)
        if not hs:
            a, i, o = split_axis(x_aio, 3, axis=1)
            c = sigmoid(i) * tanh(a)
            return c, sigmoid(o) * tanh(c)
        hs = self._zeros_for_none(hs, x)
        cs = self._zeros_for_none(cs, x)
        aio = x_aio + self.W_h_aio(sum(hs[1:], hs[0]))
        # One forget gate per child, from its own output: the children go
        # through W_h_f as one batch, then side by side along axis 1.
        h_f = split_axis(self.W_h_f(concat(hs, axis=0)), len(hs), axis=0)
        f = concat(h_f, axis=1) + concat([x_f] * len(hs), axis=1)
        return tree_lstm(*(cs + (concat((aio, f), axis=1),)))


class NaryTreeLSTM(_TreeLSTMBase):
    """N-ary tree LSTM: a node of exactly ``n_ary`` ordered children, each
    with its own recurrent weights.

    .. math::

        a, i, o, f_1, \\dots, f_N &= W_x x + \\sum_k W_{h_k} h_k, \\\\
        c &= \\tanh(a) \\sigma(i) + \\sum_k \\sigma(f_k) c_k, \\\\
        h &= \\sigma(o) \\tanh(c)

    Args:
        in_size (int or None): input size (None: from the first input).
        out_size (int): the number of units.
        n_ary (int): the number of children of a node.

    Attributes:
        W_x (~chainer_core.links.Linear): ``in_size -> (3 + n_ary) *
            out_size``.
        W_h1, ..., W_hN (~chainer_core.links.Linear): ``out_size ->
            (3 + n_ary) * out_size``, no bias.

    .. admonition:: Example

        >>> lstm = L.NaryTreeLSTM(3, 4, n_ary=2)
        >>> x = np.ones((2, 3), np.float32)
        >>> c1, h1 = lstm(None, None, None, None, x)
        >>> c, h = lstm(c1, None, h1, None, x)
        >>> h.shape
        (2, 4)
    """

    def __init__(self, in_size, out_size, n_ary=2):
        n_ary = check_size(type(self).__name__, 'n_ary', n_ary,
                           allow_zero=False)
        super().__init__(in_size, out_size)
        self.n_ary = n_ary
        width = (3 + n_ary) * self.state_size
        with self.init_scope():
            self.W_x = Linear(in_size, width)
            for k in range(1, n_ary + 1):
                setattr(self, 'W_h{}'.format(k),
                        Linear(self.state_size, width, nobias=True))

    def forward(self, *cshsx):
        """One node.

        Args:
            cshsx: the children's cell states ``c_1, ..., c_N``, then their
                outputs ``h_1, ..., h_N`` (each ``(B, out_size)`` or None
                for an absent child), then ``x`` ``(B, in_size)``.

        Returns:
            tuple: ``(c, h)``, both ``(B, out_size)``.
        """
        cs, hs, x = self._split_args(cshsx, self.n_ary)
        lstm_in = self.W_x(x)
        for k, h in enumerate(hs, 1):
            if h is not None:
                lstm_in += getattr(self, 'W_h{}'.format(k))(h)
        return tree_lstm(*(self._zeros_for_none(cs, x) + (lstm_in,)))
