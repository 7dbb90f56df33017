"""MultiprocessParallelUpdater: Chainer's multi-GPU updater over NCCL.

It needs CuPy with NCCL and CUDA devices (the chainer-cuda plugin), and
its worker-process NCCL implementation is not part of chainer-core; this
class keeps Chainer's name and signature so that scripts can check
:meth:`MultiprocessParallelUpdater.available` and fall back, as Chainer's
examples do.
"""
from chainer_core.dataset import convert
from chainer_core.training.updaters.standard_updater import StandardUpdater


class MultiprocessParallelUpdater(StandardUpdater):
    """Data-parallel training on several GPUs, one process each, with the
    gradients summed over NCCL (Chainer's name and signature).

    It cannot run with chainer-core: :meth:`available` is False and
    constructing one raises :class:`RuntimeError`. For data parallelism on
    the devices at hand use :class:`ParallelUpdater`; across machines,
    chainer-mn's multi-node optimizers.

    Args:
        iterators (list): one iterator per device.
        optimizer: the optimizer of the model.
        converter: batch to arrays (default :func:`concat_examples`).
        devices (list or dict): the GPUs, the first (or ``'main'``) being
            the master.
        auto_new_epoch (bool): call ``optimizer.new_epoch`` at epoch ends.

    Example:
        >>> from chainer_core.training import updaters
        >>> updaters.MultiprocessParallelUpdater.available()
        False
    """

    def __init__(self, iterators, optimizer,
                 converter=convert.concat_examples, devices=None,
                 auto_new_epoch=True):
        raise RuntimeError(
            'MultiprocessParallelUpdater needs CuPy with NCCL and CUDA '
            'devices through the chainer-cuda plugin, and its multi-process '
            'NCCL implementation is not part of chainer-core; use '
            'ParallelUpdater(iterator, optimizer, devices=...) for data '
            'parallelism on the devices of this machine')

    @staticmethod
    def available():
        """Whether the updater can run here: never, see the class."""
        return False
