"""PReLU: the parametric rectifier with learnt slopes."""
from chainer_core.functions.activation.prelu import prelu
from chainer_core.link import Link
from chainer_core.variable import Parameter


class PReLU(Link):
    """Parametric ReLU (see :func:`~chainer_core.functions.prelu`):
    ``y = x`` for ``x >= 0`` and ``W x`` elsewhere.

    Args:
        shape (tuple of ints): the shape of the slopes ``W``, matching the
            axes of the input after the batch axis that they cover
            (``()``: one slope for everything).
        init (float or initializer): initial slope.

    Attributes:
        W (Parameter): the slopes.
    """

    def __init__(self, shape=(), init=0.25):
        super().__init__()
        with self.init_scope():
            self.W = Parameter(init, shape)

    def forward(self, x):
        """Apply the rectifier to ``x``."""
        return prelu(x, self.W)
