"""Minimal gated units (Zhou et al., *Minimal Gated Unit for Recurrent
Neural Networks*, 2016): StatelessMGU and StatefulMGU."""
from chainer_core._runtime.host import using_device
from chainer_core.configuration import get_dtype
from chainer_core.functions.activation.sigmoid import sigmoid
from chainer_core.functions.activation.tanh import tanh
from chainer_core.functions.array.concat import concat
from chainer_core.functions.math.linear_interpolate import linear_interpolate
from chainer_core.link import Chain
from chainer_core.links._checks import check_size
from chainer_core.links.connection.linear import Linear
from chainer_core.links.rnn._stateful import StateKeeper
from chainer_core.variable import Variable


class MGUBase(Chain):
    """The two connections of an MGU, both from the hidden state and the
    input concatenated (in that order): the forget gate ``W_f`` and the
    candidate ``W_h``.

    Args:
        n_inputs (int): input size.
        n_units (int): the number of units.
    """

    def __init__(self, n_inputs, n_units):
        name = type(self).__name__
        n_inputs = check_size(name, 'n_inputs', n_inputs)
        n_units = check_size(name, 'n_units', n_units)
        super().__init__()
        with self.init_scope():
            self.W_f = Linear(n_inputs + n_units, n_units)
            self.W_h = Linear(n_inputs + n_units, n_units)

    def _step(self, h, x):
        f = sigmoid(self.W_f(concat((h, x), axis=1)))
        h_bar = tanh(self.W_h(concat((f * h, x), axis=1)))
        return linear_interpolate(f, h_bar, h)


class StatelessMGU(MGUBase):
    """Minimal gated unit that keeps no state.

    .. math::

        f &= \\sigma(W_f [h; x]), \\\\
        \\bar{h} &= \\tanh(W_h [f h; x]), \\\\
        h' &= f \\bar{h} + (1 - f) h

    (each connection with its bias; :math:`\\sigma` the sigmoid).

    Args:
        n_inputs (int): input size.
        n_units (int): the number of units.

    .. admonition:: Example

        >>> mgu = L.StatelessMGU(3, 4)
        >>> h = np.zeros((2, 4), np.float32)
        >>> x = np.ones((2, 3), np.float32)
        >>> mgu(h, x).shape
        (2, 4)
    """

    def forward(self, h, x):
        """One step: ``h`` ``(B, n_units)`` and ``x`` ``(B, n_inputs)`` to
        the new hidden state ``(B, n_units)``."""
        return self._step(h, x)


class StatefulMGU(StateKeeper, MGUBase):
    """Minimal gated unit that keeps its hidden state :attr:`h`.

    Each call computes the step of :class:`StatelessMGU` from the kept
    state, a zero state (of the default dtype) after :meth:`reset_state`.

    Args:
        in_size (int): input size.
        out_size (int): the number of units.

    Attributes:
        h (Variable or None): the hidden state.
    """

    _state_names = ('h',)

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        self._state_size = out_size
        self.reset_state()

    def set_state(self, h):
        """Set the hidden state (a Variable), moved to this link's
        device."""
        self._set_states(h)

    def forward(self, x):
        """One step: returns the new hidden state ``(len(x), out_size)``."""
        h = self.h
        if h is None:
            with using_device(self.device):
                h = Variable(self.xp.zeros((x.shape[0], self._state_size),
                                           dtype=get_dtype()))
        self.h = self._step(h, x)
        return self.h
