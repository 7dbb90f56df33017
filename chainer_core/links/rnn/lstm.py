"""LSTM links: the stateful LSTM and StatelessLSTM, fully connected LSTM
layers built on the lstm cell."""
from chainer_core._runtime.host import using_device
from chainer_core import initializers
from chainer_core.functions.activation.lstm import lstm
from chainer_core.functions.array.concat import concat
from chainer_core.functions.array.split_axis import split_axis
from chainer_core.link import Chain
from chainer_core.links.connection.linear import Linear
from chainer_core.links.rnn._stateful import StateKeeper
from chainer_core.variable import Variable


class LSTMBase(Chain):
    """What :class:`LSTM` and :class:`StatelessLSTM` share: the upward
    (input to gates) and lateral (hidden state to gates) connections.

    The ``4 * out_size`` outputs of both hold the gate pre-activations
    interleaved per unit as :func:`~chainer_core.functions.lstm` takes them:
    row ``4u + k`` of ``upward.W`` feeds gate ``k`` (cell input, input,
    forget, output) of unit ``u``.

    Args:
        in_size (int or None): input size; None defers the upward weight
            until the first input. ``LSTMBase(out_size)`` is short for
            ``LSTMBase(None, out_size)``.
        out_size (int): the number of units.
        lateral_init: initializer of ``lateral.W`` (None: LeCun normal),
            applied to each block of ``out_size`` rows.
        upward_init: initializer of ``upward.W`` (None: LeCun normal),
            applied to each block of ``out_size`` rows.
        bias_init: initializer (or scalar) of the biases of the cell
            input, input gate and output gate (None: zero).
        forget_bias_init: initializer (or scalar) of the forget gate bias
            (None: one, so that the cell remembers by default).
    """

    def __init__(self, in_size, out_size=None, lateral_init=None,
                 upward_init=None, bias_init=None, forget_bias_init=None):
        if out_size is None:
            in_size, out_size = None, in_size
        super().__init__()
        self.state_size = out_size
        self.lateral_init = lateral_init
        self.upward_init = upward_init
        self.bias_init = 0 if bias_init is None else bias_init
        self.forget_bias_init = 1 if forget_bias_init is None \
            else forget_bias_init
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size, initialW=0)
            self.lateral = Linear(out_size, 4 * out_size, initialW=0,
                                  nobias=True)
            if in_size is not None:
                self._initialize_params()

    def _initialize_params(self):
        lateral_init = initializers._get_initializer(self.lateral_init)
        upward_init = initializers._get_initializer(self.upward_init)
        bias_init = initializers._get_initializer(self.bias_init)
        forget_bias_init = initializers._get_initializer(
            self.forget_bias_init)
        n = self.state_size
        for start in range(0, 4 * n, n):
            lateral_init(self.lateral.W.array[start:start + n])
            upward_init(self.upward.W.array[start:start + n])
        gates = self.upward.b.array.reshape(n, 4)
        bias_init(gates[:, 0])
        bias_init(gates[:, 1])
        forget_bias_init(gates[:, 2])
        bias_init(gates[:, 3])

    def _lazy_init(self, x):
        if self.upward.W.array is None:
            in_size = 1
            for s in x.shape[1:]:
                in_size *= s
            with using_device(self.device):
                self.upward._initialize_params(in_size)
                self._initialize_params()

    def _zero_state(self, rows, dtype):
        with using_device(self.device):
            return Variable(self.xp.zeros((rows, self.state_size),
                                          dtype=dtype))


class StatelessLSTM(LSTMBase):
    """Fully connected LSTM layer that keeps no state.

    ``forward(c, h, x)`` computes the gates ``upward(x) + lateral(h)`` and
    applies :func:`~chainer_core.functions.lstm` to ``c``.

    Args: as :class:`LSTMBase`.

    Attributes:
        upward (~chainer_core.links.Linear): the input connection.
        lateral (~chainer_core.links.Linear): the recurrent connection.
    """

    def forward(self, c, h, x):
        """One step.

        Args:
            c (Variable, array or None): the cell state ``(B, out_size)``;
                None is zeros.
            h (Variable, array or None): the previous output
                ``(B, out_size)``; None leaves out the lateral term.
            x (Variable or array): the input ``(B, in_size)``.

        Returns:
            tuple: ``(c_new, h_new)``, both ``(B, out_size)``.
        """
        self._lazy_init(x)
        lstm_in = self.upward(x)
        if h is not None:
            lstm_in += self.lateral(h)
        if c is None:
            c = self._zero_state(x.shape[0], x.dtype)
        return lstm(c, lstm_in)


class LSTM(StateKeeper, LSTMBase):
    """Fully connected LSTM layer that keeps its cell state and output.

    Each call consumes one time step of a mini-batch, updates :attr:`c` and
    :attr:`h` and returns the new output. The batch may shrink from one call
    to the next (sequences sorted by decreasing length, some of which have
    ended): then only the first ``len(x)`` rows of the state are updated
    and the others are kept. A batch larger than the state is an error.

    Args: as :class:`LSTMBase` (``LSTM(out_size)`` defers ``in_size``).

    Attributes:
        upward (~chainer_core.links.Linear): the input connection.
        lateral (~chainer_core.links.Linear): the recurrent connection.
        c (Variable or None): the cell state.
        h (Variable or None): the output of the previous step.
    """

    _state_names = ('c', 'h')

    def __init__(self, in_size, out_size=None, lateral_init=None,
                 upward_init=None, bias_init=None, forget_bias_init=None):
        if out_size is None:
            in_size, out_size = None, in_size
        super().__init__(in_size, out_size, lateral_init, upward_init,
                         bias_init, forget_bias_init)
        self.reset_state()

    def set_state(self, c, h):
        """Set the cell state and the previous output (Variables), moved
        to this link's device."""
        if not isinstance(c, Variable) or not isinstance(h, Variable):
            raise TypeError('LSTM.set_state: c and h must be Variables, got '
                            '{} and {}'.format(type(c).__name__,
                                               type(h).__name__))
        self._keep_states((c, h))

    def forward(self, x):
        """One step: returns the output ``(len(x), out_size)``."""
        self._lazy_init(x)
        batch = x.shape[0]
        lstm_in = self.upward(x)
        h_rest = None
        if self.h is not None:
            rows = self.h.shape[0]
            if batch == 0:
                h_rest = self.h
            elif rows < batch:
                raise TypeError(
                    'LSTM: the batch size of x ({}) must not exceed that of '
                    'the state h ({})'.format(batch, rows))
            elif rows > batch:
                h_now, h_rest = split_axis(self.h, [batch], axis=0)
                lstm_in += self.lateral(h_now)
            else:
                lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = self._zero_state(batch, x.dtype)
        self.c, y = lstm(self.c, lstm_in)
        if h_rest is None:
            self.h = y
        elif batch == 0:
            self.h = h_rest
        else:
            self.h = concat([y, h_rest], axis=0)
        return y
