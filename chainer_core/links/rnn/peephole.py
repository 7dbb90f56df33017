"""StatefulPeepholeLSTM: an LSTM whose gates also see the cell state."""
from chainer_core._runtime.host import using_device
from chainer_core.functions.activation.sigmoid import sigmoid
from chainer_core.functions.activation.tanh import tanh
from chainer_core.functions.array.reshape import reshape
from chainer_core.functions.array.split_axis import split_axis
from chainer_core.link import Chain
from chainer_core.links.connection.linear import Linear
from chainer_core.links.rnn._stateful import StateKeeper
from chainer_core.variable import Variable


class StatefulPeepholeLSTM(StateKeeper, Chain):
    """Fully connected LSTM layer with peephole connections, keeping its
    cell state and output.

    With :math:`a, i, f, o` the gate pre-activations of
    ``upward(x) + lateral(h)`` (interleaved per unit, as in
    :class:`LSTM`):

    .. math::

        c' &= \\tanh(a) \\sigma(i + P_i c) + \\sigma(f + P_f c) c, \\\\
        h' &= \\sigma(o + P_o c') \\tanh(c'),

    where :math:`P_i, P_f, P_o` are the peephole matrices ``peep_i``,
    ``peep_f`` and ``peep_o``.

    Args:
        in_size (int or None): input size (None: from the first input).
        out_size (int): the number of units.

    Attributes:
        upward (~chainer_core.links.Linear): input connection.
        lateral (~chainer_core.links.Linear): recurrent connection.
        peep_i, peep_f, peep_o (~chainer_core.links.Linear): peepholes of
            the input, forget and output gates (no bias).
        c (Variable or None): the cell state.
        h (Variable or None): the output of the previous step.
    """

    _state_names = ('c', 'h')

    def __init__(self, in_size, out_size):
        super().__init__()
        self.state_size = out_size
        self.reset_state()
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size)
            self.lateral = Linear(out_size, 4 * out_size, nobias=True)
            self.peep_i = Linear(out_size, out_size, nobias=True)
            self.peep_f = Linear(out_size, out_size, nobias=True)
            self.peep_o = Linear(out_size, out_size, nobias=True)

    def forward(self, x):
        """One step: returns the output ``(len(x), out_size)``."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        if self.c is None:
            with using_device(self.device):
                self.c = Variable(self.xp.zeros(
                    (x.shape[0], self.state_size), dtype=x.dtype))
        n = self.state_size
        gates = split_axis(reshape(lstm_in, (lstm_in.shape[0], n, 4)), 4,
                           axis=2)
        a, i, f, o = (reshape(g, (g.shape[0], n)) for g in gates)
        i = sigmoid(i + self.peep_i(self.c))
        f = sigmoid(f + self.peep_f(self.c))
        self.c = tanh(a) * i + f * self.c
        o = sigmoid(o + self.peep_o(self.c))
        self.h = o * tanh(self.c)
        return self.h
