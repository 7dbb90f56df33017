"""Bias: a learnt (or given) bias added along some axes."""
from chainer_core.functions.math.bias import bias
from chainer_core.link import Link
from chainer_core.variable import Parameter


class Bias(Link):
    """Add a bias broadcast along the axes of ``x`` it does not cover (see
    :func:`~chainer_core.functions.bias`).

    Args:
        axis (int): the first axis of the input the bias covers.
        shape (tuple of ints or None): the shape of a learnt bias ``b``
            (zeros at first); None means the bias is given as the second
            argument of each call.

    Attributes:
        b (Parameter): the bias, when ``shape`` is given.
    """

    def __init__(self, axis=1, shape=None):
        super().__init__()
        self.axis = axis
        if shape is not None:
            with self.init_scope():
                self.b = Parameter(0, shape)

    def forward(self, *xs):
        """``forward(x)`` with a learnt bias, ``forward(x, b)`` without."""
        if hasattr(self, 'b'):
            if len(xs) != 1:
                raise TypeError('Bias: takes one input when it learns the '
                                'bias, got {}'.format(len(xs)))
            x, = xs
            b = self.b
        else:
            if len(xs) != 2:
                raise TypeError('Bias: takes two inputs (x, b) when it does '
                                'not learn the bias, got {}'.format(len(xs)))
            x, b = xs
        return bias(x, b, self.axis)
