"""AllreducePersistent: average the persistent values over processes."""
import numpy

from chainer_core.training import extension


class AllreducePersistent(extension.Extension):
    """Replace every float persistent value of ``model`` (the running
    statistics of batch normalization, say) by its mean over the
    processes, so that all replicas evaluate and snapshot the same model.
    Integer persistents (counters) are left alone. Runs once an epoch by
    default, before the evaluators (priority of a writer).

    Args:
        model (~chainer_core.Link): the model.
        comm: a chainer_mn communicator.
    """

    trigger = 1, 'epoch'
    priority = extension.PRIORITY_WRITER + 1

    def __init__(self, model, comm):
        self.model = model
        self.comm = comm

    def __call__(self, trainer=None):
        from chainer_core import backend
        for _, link in sorted(self.model.namedlinks()):
            # Links keep the names of their persistent values in
            # _persistent (Chainer's Link does so too).
            for name in sorted(link._persistent):
                value = getattr(link, name)
                if value is None or not hasattr(value, 'dtype') or \
                        numpy.dtype(value.dtype).kind != 'f' or \
                        isinstance(value, numpy.generic):
                    continue
                mean = self.comm.allreduce(value)
                mean /= mean.dtype.type(self.comm.size)
                backend.copyto(value, mean)
