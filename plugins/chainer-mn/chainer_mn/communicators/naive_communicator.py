"""NaiveCommunicator: the plain reference implementation."""
import numpy

from chainer_mn import _mpi
from chainer_mn.communicators import _packed
from chainer_mn.communicators.mpi_communicator_base import MpiCommunicatorBase


class NaiveCommunicator(MpiCommunicatorBase):
    """Averages gradients in the plainest way: each step concatenates the
    gradients into a new array, sums it with one ``Allreduce``, divides
    and copies the means back into the gradient arrays. Simple to check,
    and slower than :class:`FlatCommunicator` by the extra copies."""

    def multi_node_mean_grad(self, model, zero_fill=False):
        entries = self._grad_entries(model, zero_fill)
        if not entries:
            return
        self._check_grad_layout(entries)
        dtype = self._grad_dtype(entries)
        parts = []
        for p, g in entries:
            if g is None:
                parts.append(numpy.zeros(p.size, dtype))
            else:
                parts.append(_mpi.host_array(g).reshape(-1).astype(dtype))
        total = numpy.concatenate(parts)
        scale = 1.0 / self._size
        # float16 sums overflow easily: divide first there.
        if dtype == numpy.float16:
            total *= total.dtype.type(scale)
        self._sum_inplace(total)
        if dtype != numpy.float16:
            total *= total.dtype.type(scale)
        off = 0
        for p, g in entries:
            mean = total[off:off + p.size].reshape(p.shape)
            off += p.size
            if type(g) is numpy.ndarray and g.flags.writeable:
                numpy.copyto(g, mean, casting='same_kind')
            else:
                p.grad = _packed.as_grad(mean.copy(), p)
