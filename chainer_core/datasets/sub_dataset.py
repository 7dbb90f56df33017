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


def _first_size(first_size, n):
    if isinstance(first_size, float):
        first_size = int(n * first_size)
    if not 0 <= first_size <= n:
        raise ValueError('split size {} is not within [0, {}]'.format(
            first_size, n))
    return first_size


def split_dataset(dataset, first_size, order=None):
    """Split into ``dataset[:first_size]`` and the rest (a float size is a
    fraction)."""
    n = len(dataset)
    first_size = _first_size(first_size, n)
    return (SubDataset(dataset, 0, first_size, order),
            SubDataset(dataset, first_size, n, order))


def split_dataset_random(dataset, first_size, seed=None):
    """Split into two random parts of ``first_size`` and the rest."""
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset(dataset, first_size, order)


def split_dataset_n(dataset, n, order=None):
    """Split into ``n`` parts of (nearly) equal size."""
    total = len(dataset)
    bounds = [total * i // n for i in range(n + 1)]
    return [SubDataset(dataset, bounds[i], bounds[i + 1], order)
            for i in range(n)]


def split_dataset_n_random(dataset, n, seed=None):
    """:func:`split_dataset_n` over a random permutation."""
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset_n(dataset, n, order)


def get_cross_validation_datasets(dataset, n_folds=None, order=None,
                                  **kwargs):
    """``n_folds`` pairs ``(train, test)``; each fold is the test set once."""
    if n_folds is None:
        n_folds = kwargs.pop('n_fold', None)
    if kwargs or n_folds is None:
        raise TypeError('get_cross_validation_datasets needs n_folds')
    if order is None:
        order = numpy.arange(len(dataset))
    else:
        order = numpy.array(order)
    whole = len(dataset)
    bounds = [whole * i // n_folds for i in range(n_folds + 1)]
    pairs = []
    for i in range(n_folds):
        test_idx = order[bounds[i]:bounds[i + 1]]
        train_idx = numpy.concatenate([order[:bounds[i]],
                                       order[bounds[i + 1]:]])
        rotated = numpy.concatenate([train_idx, test_idx])
        n_train = len(train_idx)
        pairs.append((SubDataset(dataset, 0, n_train, rotated),
                      SubDataset(dataset, n_train, whole, rotated)))
    return pairs


def get_cross_validation_datasets_random(dataset, n_folds, seed=None,
                                         **kwargs):
    """:func:`get_cross_validation_datasets` over a random permutation."""
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return get_cross_validation_datasets(dataset, n_folds, order, **kwargs)
