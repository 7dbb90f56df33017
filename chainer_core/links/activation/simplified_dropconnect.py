"""SimplifiedDropconnect: a linear layer with weights dropped at random."""
from chainer_core import initializers
from chainer_core import utils
from chainer_core.functions.noise.simplified_dropconnect import (
    simplified_dropconnect)
from chainer_core.link import Link
from chainer_core.variable import Parameter


class SimplifiedDropconnect(Link):
    """Fully-connected layer with simplified DropConnect (see
    :func:`~chainer_core.functions.simplified_dropconnect`).

    ``SimplifiedDropconnect(out_size)`` is short for
    ``SimplifiedDropconnect(None, out_size)``; with ``in_size=None`` the
    weight is allocated on the first call.

    Args:
        in_size (int or None): input size.
        out_size (int): output size.
        ratio (float): the probability of dropping each weight.
        nobias (bool): no bias term.
        initialW: initializer of ``W`` (default: LeCun normal).
        initial_bias: initializer of ``b`` (default: zeros).

    Attributes:
        W (Parameter): ``(out_size, in_size)``.
        b (Parameter): ``(out_size,)``, or None.
    """

    def __init__(self, in_size, out_size=None, ratio=.5, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        self.in_size = in_size
        self.out_size = out_size
        self.ratio = ratio
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_size is not None:
                self._initialize_params(in_size)
            if nobias:
                self.b = None
            else:
                self.b = Parameter(initializers._get_initializer(
                    0 if initial_bias is None else initial_bias), out_size)

    def _initialize_params(self, in_size):
        self.W.initialize((self.out_size, in_size))

    @property
    def printable_specs(self):
        yield 'in_size', self.in_size
        yield 'out_size', self.out_size
        yield 'ratio', self.ratio
        yield 'nobias', self.b is None

    def forward(self, x, train=True, mask=None, use_batchwise_mask=True):
        """Apply the layer to ``x`` ``(N, ...)``; ``train=False`` keeps
        every weight; ``mask`` fixes the dropped weights."""
        if self.W.array is None:
            self._initialize_params(utils.size_of_shape(x.shape[1:]))
        return simplified_dropconnect(x, self.W, self.b, self.ratio, train,
                                      mask, use_batchwise_mask)
