"""Maxout: a linear layer followed by the maximum over groups of units."""
import numpy

from chainer_core.functions.activation.maxout import maxout
from chainer_core.link import Chain
from chainer_core.links.connection.linear import Linear


class Maxout(Chain):
    """Maxout layer (Goodfellow et al., 2013): a :class:`Linear` link
    (``linear``) with ``out_size * pool_size`` outputs followed by
    :func:`~chainer_core.functions.maxout` over groups of ``pool_size``
    consecutive outputs.

    Args:
        in_size (int): input size.
        out_size (int): output size.
        pool_size (int): units per group.
        initialW: initializer of the weight, or an array of shape
            ``(out_size, pool_size, in_size)``.
        initial_bias: initial bias: a scalar, an array of shape
            ``(out_size, pool_size)``, or None for no bias.

    Attributes:
        linear (Linear): the linear layer.
    """

    def __init__(self, in_size, out_size, pool_size, initialW=None,
                 initial_bias=0):
        super().__init__()
        linear_out_size = out_size * pool_size
        if hasattr(initialW, 'shape'):
            initialW = initialW.reshape(linear_out_size, in_size)
        if initial_bias is not None:
            if numpy.isscalar(initial_bias):
                initial_bias = numpy.full((linear_out_size,), initial_bias,
                                          dtype=numpy.float32)
            elif hasattr(initial_bias, 'shape'):
                initial_bias = initial_bias.reshape(linear_out_size)
            else:
                raise ValueError('Maxout: initial_bias must be a scalar, an '
                                 'array or None, got {}'.format(
                                     type(initial_bias).__name__))
        self.out_size = out_size
        self.pool_size = pool_size
        with self.init_scope():
            self.linear = Linear(in_size, linear_out_size,
                                 nobias=initial_bias is None,
                                 initialW=initialW,
                                 initial_bias=initial_bias)

    def forward(self, x):
        """Apply the layer to ``x`` of shape ``(N, in_size)``."""
        return maxout(self.linear(x), self.pool_size)
