"""NegativeSampling: the negative sampling loss with its word vectors."""
import numpy

from chainer_core.configuration import get_dtype
from chainer_core.functions.loss.negative_sampling import negative_sampling
from chainer_core.link import Link
from chainer_core.utils.walker_alias import WalkerAlias
from chainer_core.variable import Parameter


class NegativeSampling(Link):
    """Negative sampling loss layer (see
    :func:`~chainer_core.functions.negative_sampling`); negatives are drawn
    from the word frequencies raised to ``power`` (a
    :class:`~chainer_core.utils.walker_alias.WalkerAlias` sampler).

    Args:
        in_size (int): size of the input vectors.
        counts (list of ints): the frequency of each word.
        sample_size (int): negatives per example.
        power (float): the exponent applied to ``counts``.
        dtype: dtype of ``W`` (default: ``config.dtype``).

    Attributes:
        W (Parameter): word vectors ``(len(counts), in_size)``, zeros at
            first.
        sampler (WalkerAlias): the negative sampler.
    """

    def __init__(self, in_size, counts, sample_size, power=0.75, dtype=None):
        super().__init__()
        dtype = get_dtype(dtype)
        self.sample_size = sample_size
        p = numpy.power(numpy.asarray(counts, dtype=numpy.float64), power)
        self.sampler = WalkerAlias(p)
        with self.init_scope():
            self.W = Parameter(numpy.zeros((len(counts), in_size), dtype))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.sampler.device_resident_accept(visitor)

    def forward(self, x, t, reduce='sum', **kwargs):
        """forward(x, t, reduce='sum', *, return_samples=False)

        The loss of inputs ``x`` ``(N, in_size)`` with positive words
        ``t`` ``(N,)``; ``return_samples`` also returns the
        ``(N, sample_size + 1)`` samples (column 0 is ``t``).
        """
        return_samples = kwargs.pop('return_samples', False)
        if kwargs:
            raise TypeError('NegativeSampling: unexpected keyword arguments '
                            '{}'.format(', '.join(sorted(kwargs))))
        return negative_sampling(x, t, self.W, self.sampler.sample,
                                 self.sample_size, reduce=reduce,
                                 return_samples=return_samples)
