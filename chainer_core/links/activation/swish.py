"""Swish: ``x * sigmoid(beta * x)`` with a learnt ``beta``."""
from chainer_core.functions.activation.swish import swish
from chainer_core.link import Link
from chainer_core.variable import Parameter


class Swish(Link):
    """Swish activation with learnt ``beta`` (see
    :func:`~chainer_core.functions.swish`).

    Args:
        beta_shape (tuple of ints or None): the shape of ``beta``; None
            takes the shape of the input after the batch axis on the first
            call.
        beta_init (float or initializer): initial ``beta``.

    Attributes:
        beta (Parameter): the parameter ``beta``.
    """

    def __init__(self, beta_shape, beta_init=1.0):
        super().__init__()
        with self.init_scope():
            self.beta = Parameter(beta_init)
            if beta_shape is not None:
                self.beta.initialize(beta_shape)

    def forward(self, x):
        """Apply the activation to ``x``."""
        if self.beta.array is None:
            self.beta.initialize(x.shape[1:])
        return swish(x, self.beta)
