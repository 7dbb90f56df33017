"""Linear: the fully-connected layer as a link."""
from chainer_core import initializers
from chainer_core import utils
from chainer_core.functions.connection.linear import linear
from chainer_core.link import Link
from chainer_core.links._checks import check_bias_size, check_size
from chainer_core.variable import Parameter


class Linear(Link):
    """Fully-connected layer: ``y = x W^T + b``.

    Args:
        in_size (int or None): input size; None infers it from the first
            input (lazy initialisation). ``Linear(out_size)`` is short for
            ``Linear(None, out_size)``.
        out_size (int): output size.
        nobias (bool): no bias term.
        initialW: initializer of ``W`` (default: LeCun normal).
        initial_bias: initializer of ``b`` (default: zeros).

    Attributes:
        W (Parameter): weight, ``(out_size, in_size)``.
        b (Parameter): bias, ``(out_size,)``, or None.
    """

    def __init__(self, in_size, out_size=None, nobias=False, initialW=None,
                 initial_bias=None):
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        in_size = check_size('Linear', 'in_size', in_size, allow_none=True)
        out_size = check_size('Linear', 'out_size', out_size)
        self.in_size = in_size
        self.out_size = out_size
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_size is not None:
                self._initialize_params(in_size)
            if nobias:
                self.b = None
            else:
                b_init = initializers._get_initializer(
                    0 if initial_bias is None else initial_bias)
                self.b = Parameter(b_init, out_size)

    def _initialize_params(self, in_size):
        self.W.initialize((self.out_size, in_size))

    def forward(self, x, n_batch_axes=1):
        """Apply the layer; ``n_batch_axes`` leading axes are batch axes."""
        if self.W.array is None:
            self._initialize_params(
                utils.size_of_shape(x.shape[n_batch_axes:]))
        return linear(x, self.W, self.b, n_batch_axes)

    @classmethod
    def from_params(cls, W, b=None, nobias=False):
        """A Linear holding ``W`` ``(out_size, in_size)`` and ``b``
        ``(out_size,)`` (ignored with ``nobias``), copied into parameters
        of the default dtype."""
        out_size, in_size = W.shape
        check_bias_size(cls.__name__, b, out_size)
        return cls(in_size, out_size, nobias, initialW=W, initial_bias=b)

    @property
    def printable_specs(self):
        yield 'in_size', self.in_size
        yield 'out_size', self.out_size
        yield 'nobias', self.b is None
