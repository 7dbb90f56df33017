"""BatchRenormalization: batch renormalization with running statistics."""
from chainer_core import configuration
from chainer_core.functions.normalization.batch_normalization import (
    fixed_batch_normalization)
from chainer_core.functions.normalization.batch_renormalization import (
    batch_renormalization)
from chainer_core.links.normalization.batch_normalization import (
    BatchNormalization, _parse_forward_kwargs)


class BatchRenormalization(BatchNormalization):
    """Batch renormalization layer (Ioffe, 2017; see
    :func:`~chainer_core.functions.batch_renormalization`): in training
    mode the batch-normalized output is corrected by ``r`` (clipped to
    ``[1/rmax, rmax]``) and ``d`` (clipped to ``[-dmax, dmax]``) towards
    what the running statistics give, and the running statistics are
    updated; in test mode the running statistics are used.

    Args:
        size (int or tuple of ints): the shape of ``gamma`` and the
            statistics.
        rmax (float): bound of the scale correction ``r``.
        dmax (float): bound of the shift correction ``d``.
        decay, eps, dtype, use_gamma, use_beta, initial_gamma,
        initial_beta, initial_avg_mean, initial_avg_var: as in
            :class:`BatchNormalization`.
    """

    def __init__(self, size, rmax=1, dmax=0, decay=0.9, eps=2e-5,
                 dtype=None, use_gamma=True, use_beta=True,
                 initial_gamma=None, initial_beta=None,
                 initial_avg_mean=None, initial_avg_var=None):
        super().__init__(size, decay, eps, dtype, use_gamma, use_beta,
                         initial_gamma, initial_beta,
                         initial_avg_mean=initial_avg_mean,
                         initial_avg_var=initial_avg_var)
        self.rmax = rmax
        self.dmax = dmax

    @property
    def printable_specs(self):
        yield from super().printable_specs
        yield 'rmax', self.rmax
        yield 'dmax', self.dmax

    def forward(self, x, **kwargs):
        """forward(x, finetune=False)

        Normalize ``x``; ``finetune`` (training mode only) accumulates the
        statistics with the decay ``1 - 1/N``.
        """
        finetune = _parse_forward_kwargs('BatchRenormalization', kwargs)
        gamma, beta = self._gamma_beta(x.dtype)
        if configuration.config.train:
            decay = self._decay(finetune)
            update = True
            if configuration.config.in_recomputing:
                # A recomputed forward pass must not count twice.
                if finetune:
                    self.N -= 1
                update = False
            return batch_renormalization(
                x, gamma, beta, self.rmax, self.dmax, self.eps,
                self.avg_mean, self.avg_var, decay,
                update_statistics=update)
        mean, var = self._running(x.dtype)
        return fixed_batch_normalization(x, gamma, beta, mean, var, self.eps)
