"""GRU links: StatelessGRU, StatefulGRU and its alias GRU."""
from chainer_core.functions.activation.sigmoid import sigmoid
from chainer_core.functions.activation.tanh import tanh
from chainer_core.functions.math.linear_interpolate import linear_interpolate
from chainer_core.link import Chain
from chainer_core.links.connection.linear import Linear
from chainer_core.links.rnn._stateful import StateKeeper


class GRUBase(Chain):
    """The six connections of a GRU: ``W_r``, ``W_z``, ``W`` (input, with
    bias) and ``U_r``, ``U_z``, ``U`` (hidden state, with bias).

    Args:
        in_size (int or None): input size (None: from the first input).
        out_size (int): the number of units.
        init: initializer of the input weights (None: LeCun normal).
        inner_init: initializer of the hidden weights (None: LeCun
            normal).
        bias_init: initializer (or scalar) of every bias (None: zero).
    """

    def __init__(self, in_size, out_size, init=None, inner_init=None,
                 bias_init=None):
        super().__init__()
        with self.init_scope():
            self.W_r = Linear(in_size, out_size, initialW=init,
                              initial_bias=bias_init)
            self.U_r = Linear(out_size, out_size, initialW=inner_init,
                              initial_bias=bias_init)
            self.W_z = Linear(in_size, out_size, initialW=init,
                              initial_bias=bias_init)
            self.U_z = Linear(out_size, out_size, initialW=inner_init,
                              initial_bias=bias_init)
            self.W = Linear(in_size, out_size, initialW=init,
                            initial_bias=bias_init)
            self.U = Linear(out_size, out_size, initialW=inner_init,
                            initial_bias=bias_init)


class StatelessGRU(GRUBase):
    """Gated recurrent unit that keeps no state.

    .. math::

        r &= \\sigma(W_r x + U_r h), \\\\
        z &= \\sigma(W_z x + U_z h), \\\\
        \\bar{h} &= \\tanh(W x + U (r h)), \\\\
        h' &= (1 - z) h + z \\bar{h}

    (each connection with its bias; :math:`\\sigma` the sigmoid).

    Args: as :class:`GRUBase`.
    """

    def forward(self, h, x):
        """One step: ``h`` ``(B, out_size)`` and ``x`` ``(B, in_size)`` to
        the new hidden state ``(B, out_size)``."""
        r = sigmoid(self.W_r(x) + self.U_r(h))
        z = sigmoid(self.W_z(x) + self.U_z(h))
        h_bar = tanh(self.W(x) + self.U(r * h))
        return linear_interpolate(z, h_bar, h)


class StatefulGRU(StateKeeper, GRUBase):
    """Gated recurrent unit that keeps its hidden state :attr:`h`.

    Each call computes the step of :class:`StatelessGRU` from the kept
    state; the first step after :meth:`reset_state` starts from a zero
    state, so it is :math:`h' = z \\bar{h}` with :math:`z, \\bar{h}` from
    the input alone.

    Args: as :class:`GRUBase`, except that ``bias_init`` defaults to 0.

    Attributes:
        h (Variable or None): the hidden state.
    """

    _state_names = ('h',)

    def __init__(self, in_size, out_size, init=None, inner_init=None,
                 bias_init=0):
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.state_size = out_size
        self.reset_state()

    def set_state(self, h):
        """Set the hidden state (a Variable), moved to this link's
        device."""
        self._set_states(h)

    def forward(self, x):
        """One step: returns the new hidden state ``(len(x), out_size)``."""
        z = self.W_z(x)
        h_bar = self.W(x)
        if self.h is not None:
            r = sigmoid(self.W_r(x) + self.U_r(self.h))
            z += self.U_z(self.h)
            h_bar += self.U(r * self.h)
        z = sigmoid(z)
        h_bar = tanh(h_bar)
        if self.h is not None:
            h_new = linear_interpolate(z, h_bar, self.h)
        else:
            h_new = z * h_bar
        self.h = h_new
        return self.h


class GRU(StatefulGRU):
    """Alias of :class:`StatefulGRU`; called with one argument, the input
    (two arguments, as the stateless GRU of Chainer v1 took, are refused
    with a pointer to :class:`StatelessGRU`)."""

    def forward(self, *args):
        if len(args) != 1:
            msg = ('GRU.forward takes 1 argument (x), got {}.'.format(
                len(args)))
            if len(args) == 2:
                msg += (' GRU is stateful; for a stateless GRU taking '
                        '(h, x) use StatelessGRU.')
            raise ValueError(msg)
        return super().forward(args[0])
