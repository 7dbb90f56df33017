"""Scale: a learnt (or given) scale, optionally followed by a bias."""
from chainer_core.functions.math.scale import scale
from chainer_core.link import Chain
from chainer_core.links.connection.bias import Bias
from chainer_core.variable import Parameter


class Scale(Chain):
    """Multiply by a scale broadcast along the axes of ``x`` it does not
    cover (see :func:`~chainer_core.functions.scale`), then optionally add
    a learnt bias.

    Args:
        axis (int): the first axis of the input the scale covers.
        W_shape (tuple of ints or None): the shape of a learnt scale ``W``
            (ones at first); None means the scale is given as the second
            argument of each call.
        bias_term (bool): add a learnt bias (the child link ``bias``).
        bias_shape (tuple of ints or None): the shape of the bias when
            ``W_shape`` is None (otherwise it is ``W_shape``).

    Attributes:
        W (Parameter): the scale, when ``W_shape`` is given.
        bias (Bias): the bias link, when ``bias_term``.
    """

    def __init__(self, axis=1, W_shape=None, bias_term=False,
                 bias_shape=None):
        super().__init__()
        self.axis = axis
        with self.init_scope():
            if W_shape is not None:
                self.W = Parameter(1, W_shape)
                if bias_term:
                    self.bias = Bias(axis, W_shape)
            elif bias_term:
                if bias_shape is None:
                    raise ValueError('Scale: bias_shape must be given when W '
                                     'is not a learnt parameter and '
                                     'bias_term is True')
                self.bias = Bias(axis, bias_shape)

    def forward(self, *xs):
        """``forward(x)`` with a learnt scale, ``forward(x, y)`` without."""
        if hasattr(self, 'W'):
            if len(xs) != 1:
                raise TypeError('Scale: takes one input when it learns the '
                                'scale, got {}'.format(len(xs)))
            x, = xs
            y = self.W
        else:
            if len(xs) != 2:
                raise TypeError('Scale: takes two inputs (x, y) when it does '
                                'not learn the scale, got {}'.format(len(xs)))
            x, y = xs
        z = scale(x, y, self.axis)
        if hasattr(self, 'bias'):
            return self.bias(z)
        return z
