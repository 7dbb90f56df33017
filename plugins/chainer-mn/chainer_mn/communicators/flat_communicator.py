"""FlatCommunicator: all gradients in one buffer, one in-place Allreduce."""
from chainer_mn.communicators import _packed
from chainer_mn.communicators.mpi_communicator_base import MpiCommunicatorBase


class FlatCommunicator(MpiCommunicatorBase):
    """Averages gradients through one contiguous host buffer.

    Each step packs every gradient, already divided by the number of
    processes, into a buffer kept across steps, sums it over the processes
    with a single in-place ``Allreduce`` and hands each parameter its
    segment back as the gradient (a view of the buffer when the parameter
    lives in host memory and has the communication dtype, so that no copy
    is made on the way back). Arrays of other devices are staged through
    the host buffer.

    A gradient is valid until the next ``multi_node_mean_grad`` of this
    communicator, which reuses the buffer: copy it to keep it longer.
    """

    def __init__(self, mpi_comm=None, allreduce_grad_dtype=None,
                 batched_copy=False):
        super().__init__(mpi_comm, allreduce_grad_dtype, batched_copy)
        self._grad_buffer = _packed.PackedBuffer()

    def multi_node_mean_grad(self, model, zero_fill=False):
        entries = self._grad_entries(model, zero_fill)
        if not entries:
            return
        self._check_grad_layout(entries)
        if self._size == 1:
            for p, g in entries:
                if g is None:
                    p.grad = p.device.xp.zeros_like(p.array)
            return
        dtype = self._grad_dtype(entries)
        n = sum(p.size for p, _ in entries)
        buf = self._grad_buffer.get(n, dtype)
        _packed.pack(entries, buf, 1.0 / self._size)
        self._sum_inplace(buf)
        _packed.unpack(entries, buf)

    def finalize(self):
        self._grad_buffer.release()
        super().finalize()
