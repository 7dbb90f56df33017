"""StatefulZoneoutLSTM: an LSTM whose states are regularised by zoneout
(Krueger et al., *Zoneout: Regularizing RNNs by Randomly Preserving Hidden
Activations*, 2016)."""
from chainer_core._runtime.host import using_device
from chainer_core.functions.activation.lstm import lstm
from chainer_core.functions.noise.zoneout import zoneout
from chainer_core.link import Chain
from chainer_core.links._checks import check_size
from chainer_core.links.connection.linear import Linear
from chainer_core.links.rnn._stateful import StateKeeper
from chainer_core.utils import argument
from chainer_core.variable import Variable


class StatefulZoneoutLSTM(StateKeeper, Chain):
    """Fully connected LSTM layer with zoneout, keeping its cell state
    :attr:`c` and output :attr:`h`.

    Each call computes the LSTM step of :func:`~chainer_core.functions.lstm`
    from ``upward(x) + lateral(h)`` (the lateral term left out while ``h``
    is None) and then, in training mode, keeps each element of the previous
    cell state with probability ``c_ratio`` and of the previous output with
    probability ``h_ratio`` (:func:`~chainer_core.functions.zoneout`);
    outside training mode the new states are taken as they are. The states
    start as zeros of the input's dtype.

    Args:
        in_size (int or None): input size (None: from the first input).
        out_size (int): the number of units.
        c_ratio (float): the zoneout ratio of the cell state.
        h_ratio (float): the zoneout ratio of the output.

    Attributes:
        upward (~chainer_core.links.Linear): ``in_size -> 4 * out_size``.
        lateral (~chainer_core.links.Linear): ``out_size -> 4 * out_size``,
            without bias.
        c (Variable or None): the cell state.
        h (Variable or None): the output.

    .. admonition:: Example

        >>> lstm = L.StatefulZoneoutLSTM(3, 4, c_ratio=0.2, h_ratio=0.1)
        >>> lstm(np.ones((2, 3), np.float32)).shape
        (2, 4)
    """

    _state_names = ('c', 'h')

    def __init__(self, in_size, out_size, c_ratio=0.5, h_ratio=0.5,
                 **kwargs):
        argument.check_unexpected_kwargs(
            kwargs, train='train argument is not supported anymore. Use '
            'chainer.using_config')
        argument.assert_kwargs_empty(kwargs)
        name = type(self).__name__
        check_size(name, 'in_size', in_size, allow_none=True)
        out_size = check_size(name, 'out_size', out_size)
        for arg, ratio in (('c_ratio', c_ratio), ('h_ratio', h_ratio)):
            if not 0 <= ratio <= 1:
                raise ValueError('{}: {} must be in [0, 1], got {}'.format(
                    name, arg, ratio))
        super().__init__()
        self.state_size = out_size
        self.c_ratio = c_ratio
        self.h_ratio = h_ratio
        self.reset_state()
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size)
            self.lateral = Linear(out_size, 4 * out_size, nobias=True)

    def set_state(self, c, h):
        """Set the cell state and output (Variables), moved to this link's
        device."""
        self._set_states(c, h)

    def forward(self, x):
        """One step: returns the new output ``(len(x), out_size)``."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        with using_device(self.device):
            zeros = Variable(self.xp.zeros((len(x), self.state_size),
                                           dtype=x.dtype))
        c_prev = zeros if self.c is None else self.c
        h_prev = zeros if self.h is None else self.h
        c_next, h_next = lstm(c_prev, lstm_in)
        self.c = zoneout(c_prev, c_next, self.c_ratio)
        self.h = zoneout(h_prev, h_next, self.h_ratio)
        return self.h
