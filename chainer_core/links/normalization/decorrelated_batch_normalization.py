"""DecorrelatedBatchNormalization: ZCA whitening of groups of channels
with running statistics."""
import numpy

from chainer_core import configuration
from chainer_core.functions.normalization.decorrelated_batch_normalization \
    import (decorrelated_batch_normalization,
            fixed_decorrelated_batch_normalization)
from chainer_core.link import Link
from chainer_core.links.normalization.batch_normalization import (
    _parse_forward_kwargs)


class DecorrelatedBatchNormalization(Link):
    """Decorrelated batch normalization layer (Huang et al., 2018; see
    :func:`~chainer_core.functions.decorrelated_batch_normalization`).

    In training mode each group of ``size // groups`` channels is whitened
    with the statistics of the batch and the running mean and projection
    are updated (``finetune`` as in :class:`BatchNormalization`); in test
    mode the running statistics are used.

    Args:
        size (int): the number of channels.
        groups (int): the number of groups; it must divide ``size``.
        decay (float): decay rate of the running averages.
        eps (float): added to the diagonal of the covariance.
        dtype: the dtype of the statistics.

    Attributes:
        avg_mean (array): running mean ``(groups, size // groups)``
            (persistent).
        avg_projection (array): running whitening matrices ``(groups,
            size // groups, size // groups)``, identities at first
            (persistent).
        N (int): the number of fine-tuning calls (persistent).
    """

    def __init__(self, size, groups=16, decay=0.9, eps=2e-5,
                 dtype=numpy.float32):
        super().__init__()
        if size % groups != 0:
            raise ValueError('DecorrelatedBatchNormalization: groups ({}) '
                             'must divide size ({})'.format(groups, size))
        c = size // groups
        self.add_persistent('avg_mean', numpy.zeros((groups, c), dtype=dtype))
        self.add_persistent('avg_projection', numpy.broadcast_to(
            numpy.eye(c, dtype=dtype), (groups, c, c)).copy())
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        self.groups = groups

    @property
    def printable_specs(self):
        yield 'size', self.avg_mean.size
        yield 'groups', self.groups
        yield 'decay', self.decay
        yield 'eps', self.eps

    def forward(self, x, **kwargs):
        """forward(x, finetune=False)

        Whiten ``x`` of shape ``(N, size, ...)``.
        """
        finetune = _parse_forward_kwargs('DecorrelatedBatchNormalization',
                                         kwargs)
        if configuration.config.train:
            if finetune:
                self.N += 1
                decay = 1. - 1. / self.N
            else:
                decay = self.decay
            avg_mean, avg_projection = self.avg_mean, self.avg_projection
            if configuration.config.in_recomputing:
                # A recomputed forward pass must not count twice.
                if finetune:
                    self.N -= 1
                avg_mean = avg_projection = None
            return decorrelated_batch_normalization(
                x, groups=self.groups, eps=self.eps, running_mean=avg_mean,
                running_projection=avg_projection, decay=decay)
        return fixed_decorrelated_batch_normalization(
            x, self.avg_mean, self.avg_projection, groups=self.groups)

    def start_finetuning(self):
        """Reset the fine-tuning count ``N``."""
        self.N = 0
