"""LayerNormalization: layer normalization with a learnt scale and
shift."""
from chainer_core import initializers
from chainer_core import utils
from chainer_core.functions.normalization.layer_normalization import (
    layer_normalization)
from chainer_core.link import Link
from chainer_core.variable import Parameter


class LayerNormalization(Link):
    """Layer normalization layer (Ba et al., 2016; see
    :func:`~chainer_core.functions.layer_normalization`): each row of the
    ``(N, size)`` input is standardized, then scaled and shifted.

    Args:
        size (int or None): the size of a row; None allocates the
            parameters on the first call.
        eps (float): added to the variance, for stability.
        initial_gamma: initializer of ``gamma`` (default: ones).
        initial_beta: initializer of ``beta`` (default: zeros).

    Attributes:
        gamma (Parameter): scale ``(size,)``.
        beta (Parameter): shift ``(size,)``.
    """

    def __init__(self, size=None, eps=1e-6, initial_gamma=None,
                 initial_beta=None):
        super().__init__()
        self.eps = eps
        if initial_gamma is None:
            initial_gamma = 1
        if initial_beta is None:
            initial_beta = 0
        with self.init_scope():
            self.gamma = Parameter(initializers._get_initializer(
                initial_gamma))
            self.beta = Parameter(initializers._get_initializer(initial_beta))
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self.gamma.initialize(size)
        self.beta.initialize(size)

    @property
    def printable_specs(self):
        yield 'size', None if self.gamma.array is None else \
            self.gamma.shape[0]
        yield 'eps', self.eps

    def forward(self, x):
        """Normalize the rows of ``x`` ``(N, size)``."""
        if self.gamma.array is None:
            self._initialize_params(utils.size_of_shape(x.shape[1:]))
        return layer_normalization(x, self.gamma, self.beta, self.eps)
