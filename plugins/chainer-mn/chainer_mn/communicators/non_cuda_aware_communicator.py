"""NonCudaAwareCommunicator: arrays staged through host memory."""
from chainer_mn.communicators.flat_communicator import FlatCommunicator


class NonCudaAwareCommunicator(FlatCommunicator):
    """For MPI libraries that cannot read device memory: gradients of any
    device are packed into one host buffer, averaged with one ``Allreduce``
    and copied back to their device. (ChainerMN also reduces inside a node
    with NCCL first; without NCCL, every array goes through host memory,
    exactly as :class:`FlatCommunicator` does.)"""
