"""BlackOut: the BlackOut loss with its output vectors."""
import numpy

from chainer_core.functions.loss.black_out import black_out
from chainer_core.link import Link
from chainer_core.utils.walker_alias import WalkerAlias
from chainer_core.variable import Parameter


class BlackOut(Link):
    """BlackOut loss layer (Ji et al., 2016; see
    :func:`~chainer_core.functions.black_out`); negatives are drawn in
    proportion to ``counts``.

    Args:
        in_size (int): size of the input vectors.
        counts (list of ints): the frequency of each word.
        sample_size (int): negatives per example.

    Attributes:
        W (Parameter): output vectors ``(len(counts), in_size)``, NaN until
            set (as in Chainer: fill ``W.array`` or load them).
        sampler (WalkerAlias): the negative sampler.
        sample_data (array or None): when set, used as the samples instead
            of drawing them.
    """

    sample_data = None

    def __init__(self, in_size, counts, sample_size):
        super().__init__()
        self.sampler = WalkerAlias(numpy.asarray(counts, dtype=numpy.float64))
        self.sample_size = sample_size
        with self.init_scope():
            self.W = Parameter(shape=(len(counts), in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.sampler.device_resident_accept(visitor)

    def forward(self, x, t):
        """The loss of inputs ``x`` ``(N, in_size)`` with labels ``t``."""
        if self.sample_data is not None:
            samples = self.sample_data
        else:
            samples = self.sampler.sample((x.shape[0], self.sample_size))
        return black_out(x, t, self.W, samples)
