"""SubDataset and the splitting helpers (holdout and cross validation)."""
import numpy

from chainer_core.dataset.dataset_mixin import DatasetMixin


class SubDataset(DatasetMixin):
    """A view of ``dataset[start:finish]``, optionally through ``order``.

    Args:
        dataset: the base dataset.
        start (int): first index (in ``order`` if given).
        finish (int): one past the last index.
        order (sequence of int): a permutation of the base's indices.
    """

    def __init__(self, dataset, start, finish, order=None):
        if start < 0 or finish > len(dataset) or start > finish:
            raise ValueError('SubDataset: invalid range [{}, {}) of a '
                             'dataset of length {}'.format(start, finish,
                                                           len(dataset)))
        if order is not None and len(order) != len(dataset):
            raise ValueError('SubDataset: order has length {} but the '
                             'dataset {}'.format(len(order), len(dataset)))
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._size = finish - start
        self._order = order

    def __len__(self):
        return self._size

    def get_example(self, i):
        if i < 0 or i >= self._size:
            raise IndexError('index {} out of range for a SubDataset of '
                             'length {}'.format(i, self._size))
        index = self._start + i
        if self._order is not None:
            index = self._order[index]
        return self._dataset[index]


def _split_point(split_at, n):
    if isinstance(split_at, float):
        split_at = int(n * split_at)
    if not 0 <= split_at <= n:
        raise ValueError('split_dataset: split_at={} is not within [0, {}]'
                         .format(split_at, n))
    return split_at


def split_dataset(dataset, split_at, order=None):
    """Split into the examples ``order[:split_at]`` and ``order[split_at:]``
    (a float ``split_at`` is a fraction of the length)."""
    n = len(dataset)
    split_at = _split_point(split_at, n)
    return (SubDataset(dataset, 0, split_at, order),
            SubDataset(dataset, split_at, n, order))


def split_dataset_random(dataset, first_size, seed=None):
    """Split into two random parts of ``first_size`` and the rest."""
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset(dataset, first_size, order)


def split_dataset_n(dataset, n, order=None):
    """Split into ``n`` parts of ``len(dataset) // n`` examples each (the
    last ``len(dataset) % n`` examples are in none of them, as in
    Chainer)."""
    size = len(dataset) // n
    return [SubDataset(dataset, size * i, size * (i + 1), order)
            for i in range(n)]


def split_dataset_n_random(dataset, n, seed=None):
    """:func:`split_dataset_n` over a random permutation."""
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset_n(dataset, n, order)


def get_cross_validation_datasets(dataset, n_folds=None, order=None,
                                  **kwargs):
    """``n_folds`` pairs ``(train, test)``; every example is in exactly one
    test set, and test sets differ in size by at most one.

    The folds are Chainer's: the first pair tests on the last block of
    ``order``, each next pair on the block before, and the training part
    of a pair lists the blocks that follow its test block (cyclically) in
    order. ``n_fold`` is accepted as the deprecated name of ``n_folds``.
    """
    if n_folds is None:
        n_folds = kwargs.pop('n_fold', None)
    if kwargs:
        raise TypeError('get_cross_validation_datasets got unexpected '
                        'arguments {}'.format(sorted(kwargs)))
    if n_folds is None:
        raise TypeError('get_cross_validation_datasets needs n_folds')
    whole = len(dataset)
    order = numpy.arange(whole) if order is None else numpy.array(order)
    bounds = [whole * i // n_folds for i in range(n_folds + 1)]
    pairs = []
    for i in reversed(range(n_folds)):
        test_size = bounds[i + 1] - bounds[i]
        pairs.append(split_dataset(dataset, whole - test_size, order))
        # The next pair tests on the block before: bring the current test
        # block to the front.
        order = numpy.concatenate([order[whole - test_size:],
                                   order[:whole - test_size]])
    return pairs


def get_cross_validation_datasets_random(dataset, n_folds, seed=None,
                                         **kwargs):
    """:func:`get_cross_validation_datasets` over a random permutation."""
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return get_cross_validation_datasets(dataset, n_folds, order, **kwargs)
