"""DummyCommunicator: packing without communication, to measure it."""
from chainer_mn.communicators import _packed
from chainer_mn.communicators.mpi_communicator_base import MpiCommunicatorBase


class DummyCommunicator(MpiCommunicatorBase):
    """Does the packing and unpacking of :class:`FlatCommunicator` but no
    ``Allreduce``, so the gradients are not averaged: it measures the
    overhead of everything but the communication. The other methods
    communicate as usual."""

    def __init__(self, mpi_comm=None, allreduce_grad_dtype=None,
                 batched_copy=False):
        super().__init__(mpi_comm, allreduce_grad_dtype, batched_copy)
        self._grad_buffer = _packed.PackedBuffer()

    def multi_node_mean_grad(self, model, zero_fill=False):
        entries = self._grad_entries(model, zero_fill)
        if not entries:
            return
        self._check_grad_layout(entries)
        buf = self._grad_buffer.get(sum(p.size for p, _ in entries),
                                    self._grad_dtype(entries))
        _packed.pack(entries, buf, 1.0)
        _packed.unpack(entries, buf)

    def finalize(self):
        self._grad_buffer.release()
        super().finalize()
