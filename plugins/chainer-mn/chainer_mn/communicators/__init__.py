"""Communicators and :func:`create_communicator`."""
from chainer_mn.communicators.communicator_base import CommunicatorBase  # NOQA
from chainer_mn.communicators.mpi_communicator_base import check_grad_dtype

_NAMES = ('pure_nccl', 'naive', 'flat', 'non_cuda_aware', 'dummy')
_REMOVED = ('hierarchical', 'two_dimensional', 'single_node')


def create_communicator(communicator_name='pure_nccl', mpi_comm=None,
                        **kwargs):
    """Create a communicator over MPI (``mpi_comm``, default
    ``MPI.COMM_WORLD``).

    ========================  ==========================================
    name                      how gradients are averaged
    ========================  ==========================================
    ``'pure_nccl'`` (default) one NCCL allreduce on this process's GPU
                              (``intra_rank``); needs the chainer-cuda
                              plugin, a GPU and NCCL (an error naming
                              what is missing otherwise)
    ``'flat'``                one packed host buffer, one in-place
                              Allreduce, gradients handed back as views
                              (the fastest on CPU)
    ``'non_cuda_aware'``      as ``'flat'``; arrays of any device are
                              staged through host memory
    ``'naive'``               the plain reference: a fresh concatenated
                              buffer, one Allreduce, copies back
    ``'dummy'``               packing only, no communication (to measure
                              the packing overhead)
    ========================  ==========================================

    Creating a communicator installs :mod:`chainer_mn.global_except_hook`
    (unless ``chainer_core.config.mn_abort_on_exception`` is False): a
    process that ends with an unhandled exception aborts the whole job.

    Args:
        communicator_name (str): one of the names above.
        mpi_comm: an mpi4py communicator.
        allreduce_grad_dtype: float dtype gradients are averaged in
            (e.g. ``numpy.float16`` to halve the traffic); None: the
            parameters' dtype ('pure_nccl': float16 when
            ``chainer_core.config.dtype`` is float16 or mixed16, as in
            ChainerMN).
        batched_copy (bool): 'pure_nccl' packs the gradients with one
            kernel launch instead of one copy per gradient; the MPI
            communicators accept it for compatibility.

    Returns:
        CommunicatorBase: the communicator.
    """
    allreduce_grad_dtype = kwargs.pop('allreduce_grad_dtype', None)
    batched_copy = kwargs.pop('batched_copy', False)
    if kwargs:
        raise TypeError('create_communicator: unexpected arguments {}'.format(
            ', '.join(sorted(kwargs))))
    if communicator_name in _REMOVED:
        raise ValueError(
            'create_communicator: the {!r} communicator was removed in '
            'Chainer v7; use one of {}'.format(communicator_name,
                                               ', '.join(_NAMES)))
    if communicator_name not in _NAMES:
        raise ValueError(
            'create_communicator: unknown communicator_name {!r}; choose '
            'one of {}'.format(communicator_name, ', '.join(_NAMES)))
    check_grad_dtype(allreduce_grad_dtype, 'create_communicator')
    if communicator_name == 'pure_nccl':
        from chainer_mn.communicators import pure_nccl_communicator
        reason = pure_nccl_communicator.unavailable_reason()
        if reason:
            raise RuntimeError(
                "create_communicator: 'pure_nccl' (the default, as in "
                'ChainerMN) averages gradients with NCCL on GPUs, and {}. On '
                "CPU use create_communicator('flat') (or 'naive')".format(
                    reason))
        cls = pure_nccl_communicator.PureNcclCommunicator
    elif communicator_name == 'flat':
        from chainer_mn.communicators.flat_communicator import (
            FlatCommunicator as cls)
    elif communicator_name == 'non_cuda_aware':
        from chainer_mn.communicators.non_cuda_aware_communicator import (
            NonCudaAwareCommunicator as cls)
    elif communicator_name == 'naive':
        from chainer_mn.communicators.naive_communicator import (
            NaiveCommunicator as cls)
    else:
        from chainer_mn.communicators.dummy_communicator import (
            DummyCommunicator as cls)
    comm = cls(mpi_comm=mpi_comm, allreduce_grad_dtype=allreduce_grad_dtype,
               batched_copy=batched_copy)
    from chainer_core import configuration
    if getattr(configuration.config, 'mn_abort_on_exception', True):
        from chainer_mn import global_except_hook
        global_except_hook.add_hook()
    return comm
