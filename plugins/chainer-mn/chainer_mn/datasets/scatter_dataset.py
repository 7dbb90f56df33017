"""scatter_dataset and scatter_index: each process gets its part."""
import numpy

from chainer_core.datasets import SubDataset
from chainer_mn.datasets import _transfer

_DEFAULT_MAX_BUF_LEN = 256 * 1024 * 1024


def _ranges(n_total, size, force_equal_length):
    """``(begin, end)`` of every rank's part of ``n_total`` indices.

    Equal lengths: every part has ``ceil(n_total / size)`` indices starting
    at ``n_total * rank // size``, so neighbouring parts may share a few.
    Otherwise the parts do not overlap and the first ``n_total % size``
    ranks get one index more.
    """
    if force_equal_length:
        n_sub = -(-n_total // size)
        return [(n_total * i // size, n_total * i // size + n_sub)
                for i in range(size)]
    ranges, begin = [], 0
    for i in range(size):
        n = n_total // size + (1 if i < n_total % size else 0)
        ranges.append((begin, begin + n))
        begin += n
    return ranges


def _check_root(root, size, where):
    if not isinstance(root, (int, numpy.integer)) or not 0 <= root < size:
        raise ValueError('{}: root must be a rank in [0, {}), got {!r}'
                         .format(where, size, root))


def scatter_index(n_total_samples, comm, root=0, *, force_equal_length=True):
    """The ``(begin, end)`` offsets of this process's share of
    ``n_total_samples`` indices, decided on ``root``.

    Used with a dataset every process already has::

        b, e = scatter_index(len(dataset), comm)
        mine = SubDataset(dataset, b, e)

    Args:
        n_total_samples (int): the number of indices (read on ``root``).
        comm: a chainer_mn communicator (or an mpi4py communicator).
        root (int): the deciding rank.
        force_equal_length (bool): every process gets the same number of
            indices (neighbours may share some); otherwise the shares do
            not overlap and differ in length by at most one, for an exact
            evaluation of a test set.

    Returns:
        tuple of int: ``(begin, end)``, ``end`` exclusive.
    """
    mpi_comm = _transfer.mpi_comm_of(comm)
    _check_root(root, mpi_comm.Get_size(), 'scatter_index')
    ranges = None
    if mpi_comm.Get_rank() == root:
        ranges = _ranges(int(n_total_samples), mpi_comm.Get_size(),
                         force_equal_length)
    return tuple(mpi_comm.scatter(ranges, root=root))


def _take(dataset, indices):
    """The examples at ``indices`` as a compact copy, for datasets that can
    be copied cheaply (arrays, lists, tuples); None for others."""
    if isinstance(dataset, numpy.ndarray):
        return dataset[indices]
    if isinstance(dataset, (list, tuple)):
        return [dataset[i] for i in indices]
    return None


def scatter_dataset(dataset, comm, root=0, shuffle=False, seed=None,
                    max_buf_len=_DEFAULT_MAX_BUF_LEN, *,
                    force_equal_length=True):
    """Split the dataset of ``root`` into one part per process.

    The other processes' ``dataset`` argument is ignored (pass None).
    NumPy arrays, lists and tuples are split on ``root`` and each process
    receives only its part; any other dataset is sent whole to every
    process (as in ChainerMN) and viewed through a
    :class:`~chainer_core.datasets.SubDataset`.

    Args:
        dataset: the dataset (on ``root``).
        comm: a chainer_mn communicator (or an mpi4py communicator).
        root (int): the rank holding the dataset.
        shuffle (bool): shuffle the examples before splitting.
        seed (int): seed of the shuffle (None: random); with a seed, each
            example always goes to the same process.
        max_buf_len (int): the largest message, in bytes (below 2**31).
        force_equal_length (bool): see :func:`scatter_index`. Keep it True
            for training and for the multi-node evaluator, which need the
            same number of iterations on every process.

    Returns:
        ~chainer_core.datasets.SubDataset: this process's part.
    """
    mpi_comm = _transfer.mpi_comm_of(comm)
    rank, size = mpi_comm.Get_rank(), mpi_comm.Get_size()
    _check_root(root, size, 'scatter_dataset')
    if not 0 < max_buf_len < 2 ** 31:
        raise ValueError('scatter_dataset: max_buf_len must be in [1, '
                         '2**31), got {}'.format(max_buf_len))
    plan = parts = order = None
    if rank == root:
        try:
            n = len(dataset)
            if shuffle:
                order = numpy.random.RandomState(seed).permutation(n)
            ranges = _ranges(n, size, force_equal_length)
            if _take(dataset, []) is not None:
                base = numpy.arange(n) if order is None else order
                parts = [_take(dataset, base[b:e]) for b, e in ranges]
                plan = ('parts', n)
            else:
                plan = ('whole', n)
        except Exception as e:
            plan = ('error', '{}: {}'.format(type(e).__name__, e))
    kind, info = mpi_comm.bcast(plan, root=root)
    if kind == 'error':
        raise ValueError('scatter_dataset: the dataset on rank {} cannot be '
                         'split: {}'.format(root, info))
    if kind == 'whole':
        payload = (dataset, order) if rank == root else None
        dataset, order = _transfer.bcast_chunked(mpi_comm, payload, root,
                                                 max_buf_len)
        b, e = _ranges(info, size, force_equal_length)[rank]
        return SubDataset(dataset, b, e, order)
    if rank == root:
        for r in range(size):
            if r != root:
                _transfer.send_chunked(mpi_comm, parts[r], r, max_buf_len)
        mine = parts[root]
    else:
        mine = _transfer.recv_chunked(mpi_comm, root, max_buf_len)
    return SubDataset(mine, 0, len(mine))


def create_empty_dataset(dataset):
    """A dataset as long as ``dataset`` whose examples are empty tuples,
    for the processes of a model-parallel job whose model takes no input
    (it starts with :func:`chainer_mn.functions.recv`): the updater then
    calls the model with no arguments."""
    return [()] * len(dataset)
