"""MultiNodeBatchNormalization: batch statistics of all processes."""
from chainer_core import configuration
from chainer_core.functions.array.cast import cast
from chainer_core.links import BatchNormalization
from chainer_mn.functions.batch_normalization import (
    MultiNodeBatchNormalizationFunction)

_BACKENDS = ('auto', 'mpi', 'nccl')


class MultiNodeBatchNormalization(BatchNormalization):
    """Batch normalization whose training-mode statistics are those of the
    union of the batches of all processes of ``comm``, so that data
    parallelism over ``n`` processes with batches of ``b`` normalizes as
    one process would with a batch of ``n * b``; the running statistics
    follow the global batch too. In test mode it is plain batch
    normalization with the running statistics (no communication).

    Channels are on axis 1; the statistics are over every other axis.

    Args:
        size (int or tuple): the number of channels.
        comm: a chainer_mn communicator.
        decay, eps, dtype, use_gamma, use_beta, initial_gamma,
            initial_beta: as for
            :class:`~chainer_core.links.BatchNormalization`.
        communication_backend (str): ``'mpi'`` or ``'auto'`` (MPI);
            ``'nccl'`` (the statistics summed with NCCL on the
            communicator's GPU) needs the 'pure_nccl' communicator.
    """

    def __init__(self, size, comm, decay=0.9, eps=2e-5, dtype=None,
                 use_gamma=True, use_beta=True, initial_gamma=None,
                 initial_beta=None, communication_backend='auto'):
        if communication_backend not in _BACKENDS:
            raise ValueError(
                'MultiNodeBatchNormalization: communication_backend must be '
                'one of {}, got {!r}'.format(', '.join(_BACKENDS),
                                             communication_backend))
        if communication_backend == 'nccl':
            from chainer_mn.communicators.pure_nccl_communicator import (
                PureNcclCommunicator)
            if not isinstance(comm, PureNcclCommunicator):
                raise ValueError(
                    "MultiNodeBatchNormalization: communication_backend="
                    "'nccl' needs the 'pure_nccl' communicator, got {}; use "
                    "'mpi' or 'auto'".format(type(comm).__name__))
        super().__init__(size, decay=decay, eps=eps, dtype=dtype,
                         use_gamma=use_gamma, use_beta=use_beta,
                         initial_gamma=initial_gamma,
                         initial_beta=initial_beta)
        self.comm = comm
        self.communication_backend = communication_backend

    def forward(self, x, finetune=False):
        """Normalize ``x`` (``finetune``: accumulate the running statistics
        with the decay ``1 - 1/N``, as BatchNormalization does)."""
        if not configuration.config.train:
            return super().forward(x)
        dtype = x.dtype
        xp = self.xp
        shape = self.avg_mean.shape
        gamma = self.gamma if self.gamma is not None else \
            xp.ones(shape, dtype=dtype)
        beta = self.beta if self.beta is not None else \
            xp.zeros(shape, dtype=dtype)
        if gamma.dtype != dtype:
            gamma = cast(gamma, dtype)
        if beta.dtype != dtype:
            beta = cast(beta, dtype)
        if finetune:
            self.N += 1
            decay = 1. - 1. / self.N
        else:
            decay = self.decay
        running_mean, running_var = self.avg_mean, self.avg_var
        if configuration.config.in_recomputing:
            if finetune:
                self.N -= 1
            running_mean = running_var = None
        y, = MultiNodeBatchNormalizationFunction(
            self.comm, self.eps, running_mean, running_var, decay,
            'nccl' if self.communication_backend == 'nccl' else 'mpi').apply(
                (x, gamma, beta))
        return y
