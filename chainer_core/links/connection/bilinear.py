"""Bilinear: the bilinear layer as a link."""
from chainer_core import initializers
from chainer_core.functions.connection.bilinear import bilinear
from chainer_core.link import Link
from chainer_core.variable import Parameter


def _check_shape(name, value, shape):
    if hasattr(value, 'shape') and tuple(value.shape) != shape:
        raise ValueError('Bilinear: {} must have the shape {}, got {}'.format(
            name, shape, tuple(value.shape)))


class Bilinear(Link):
    """Bilinear layer (see :func:`~chainer_core.functions.bilinear`):
    ``y = e1^T W e2 + V1^T e1 + V2^T e2 + b``.

    Args:
        left_size (int): size of the first input ``e1``.
        right_size (int): size of the second input ``e2``.
        out_size (int): output size.
        nobias (bool): only the bilinear term (no ``V1``, ``V2``, ``b``).
        initialW: initializer of ``W`` (default: LeCun normal).
        initial_bias (tuple or None): initializers ``(V1, V2, b)``;
            default: LeCun normal for ``V1`` and ``V2``, zeros for ``b``.

    Attributes:
        W (Parameter): ``(left_size, right_size, out_size)``.
        V1 (Parameter): ``(left_size, out_size)``, or None.
        V2 (Parameter): ``(right_size, out_size)``, or None.
        b (Parameter): ``(out_size,)``, or None.
    """

    def __init__(self, left_size, right_size, out_size, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        self.in_sizes = (left_size, right_size)
        self.out_size = out_size
        self.nobias = nobias
        shape = (left_size, right_size, out_size)
        _check_shape('initialW', initialW, shape)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW), shape)
            if nobias:
                self.V1 = self.V2 = self.b = None
                return
            if initial_bias is None:
                initial_bias = (None, None, 0)
            elif not isinstance(initial_bias, tuple) or \
                    len(initial_bias) != 3:
                raise ValueError('Bilinear: initial_bias must be a tuple '
                                 '(V1, V2, b) or None')
            init_v1, init_v2, init_b = initial_bias
            v1_shape = (left_size, out_size)
            v2_shape = (right_size, out_size)
            _check_shape('initial_bias[0]', init_v1, v1_shape)
            _check_shape('initial_bias[1]', init_v2, v2_shape)
            _check_shape('initial_bias[2]', init_b, (out_size,))
            self.V1 = Parameter(initializers._get_initializer(init_v1),
                                v1_shape)
            self.V2 = Parameter(initializers._get_initializer(init_v2),
                                v2_shape)
            self.b = Parameter(initializers._get_initializer(init_b),
                               out_size)

    @property
    def printable_specs(self):
        yield 'left_size', self.in_sizes[0]
        yield 'right_size', self.in_sizes[1]
        yield 'out_size', self.out_size
        yield 'nobias', self.nobias

    def forward(self, e1, e2):
        """Apply the layer to ``e1`` ``(N, left_size)`` and ``e2``
        ``(N, right_size)``."""
        if self.nobias:
            return bilinear(e1, e2, self.W)
        return bilinear(e1, e2, self.W, self.V1, self.V2, self.b)
