"""The base class of sliceable data sets and the views that slicing makes."""
import numbers

import numpy

from chainer_core.dataset import DatasetMixin


def _as_tuple(keys):
    return keys if isinstance(keys, tuple) else (keys,)


def _key_index(key, key_names, owner):
    if isinstance(key, numbers.Integral) and not isinstance(key, bool):
        n = len(key_names)
        if not -n <= key < n:
            raise IndexError('{}: key index {} is out of range for the {} '
                             'keys {}'.format(owner, key, n, key_names))
        return int(key) % n
    # None names an unnamed key, which only its position can select.
    if key is not None and key in key_names:
        return key_names.index(key)
    raise KeyError('{}: key {!r} is not among the keys {}'
                   .format(owner, key, key_names))


def _as_key_indices(keys, key_names, owner):
    """Key names or positions as positions in ``key_names``.

    A tuple or list gives a tuple of positions; a single key gives one int.
    """
    key_names = _as_tuple(key_names)
    if isinstance(keys, (tuple, list)):
        return tuple(_key_index(k, key_names, owner) for k in keys)
    return _key_index(keys, key_names, owner)


def _as_indices(index, length, owner):
    """A slice, a list of ints or a boolean mask as an indexable sequence of
    non-negative ints (a ``range`` for a slice, so that nothing is
    enumerated)."""
    if isinstance(index, slice):
        return range(*index.indices(length))
    if isinstance(index, (list, tuple, numpy.ndarray)):
        array = numpy.asarray(index)
        if array.size == 0:
            return []
        if array.dtype.kind == 'b':
            if array.shape != (length,):
                raise IndexError(
                    '{}: a boolean mask must have one entry per example: '
                    'expected shape ({},), got {}'
                    .format(owner, length, array.shape))
            return numpy.nonzero(array)[0].tolist()
        if array.dtype.kind not in 'iu' or array.ndim != 1:
            raise IndexError(
                '{}: indices must be a slice, a 1-d list of ints or a boolean '
                'mask, got {!r}'.format(owner, index))
        out_of_range = (array < -length) | (array >= length)
        if out_of_range.any():
            raise IndexError('{}: index {} is out of range for length {}'
                             .format(owner, array[out_of_range][0], length))
        return (array % length).tolist()
    raise IndexError('{}: indices must be a slice, a list of ints or a '
                     'boolean mask, got {}'
                     .format(owner, type(index).__name__))


class SliceableDataset(DatasetMixin):
    """An abstract data set whose examples are tuples of named values and
    that can be sliced by examples and by keys.

    A subclass implements :meth:`__len__`, :attr:`keys` and
    :meth:`get_example_by_keys`. ``dataset.slice[indices, keys]`` is a view
    of the data set: ``indices`` is a slice, a list of ints or a boolean
    mask, and ``keys`` a key (name or position), which makes each example
    a single value, or a tuple of keys. Making a view loads nothing, and a
    view loads only the values of the keys it keeps.

    >>> dataset.keys
    ('img', 'bbox', 'label')
    >>> labels = [label for label in dataset.slice[:, 'label']]
    """

    def __len__(self):
        raise NotImplementedError

    @property
    def keys(self):
        """The names of the values of an example: a tuple, or a single name
        when an example is one value."""
        raise NotImplementedError

    def get_example_by_keys(self, index, key_indices):
        """Return the values of the given keys of an example.

        Args:
            index (int): the index of the example.
            key_indices (tuple of ints): positions in :attr:`keys`.

        Returns:
            tuple: one value for each of ``key_indices``.
        """
        raise NotImplementedError

    def get_example(self, i):
        keys = self.keys
        if isinstance(keys, tuple):
            return self.get_example_by_keys(i, tuple(range(len(keys))))
        return self.get_example_by_keys(i, (0,))[0]

    def __iter__(self):
        return (self.get_example(i) for i in range(len(self)))

    @property
    def slice(self):
        """A helper that makes views: ``dataset.slice[indices, keys]``."""
        return _SliceHelper(self)


class _SliceHelper:

    def __init__(self, dataset):
        self._dataset = dataset

    def __getitem__(self, args):
        if isinstance(args, tuple) and len(args) == 2:
            indices, keys = args
            owner = type(self._dataset).__name__
            key_indices = _as_key_indices(keys, self._dataset.keys, owner)
        else:
            indices = args
            keys = self._dataset.keys
            key_indices = (tuple(range(len(keys)))
                           if isinstance(keys, tuple) else 0)
        return SliceView(self._dataset, indices, key_indices)


class SliceView(SliceableDataset):
    """A view of a sliceable data set: some of its examples, some of its
    keys.

    Args:
        dataset (SliceableDataset): the data set viewed.
        indices: a slice, a list of ints or a boolean mask.
        key_indices (int or tuple of ints): positions in ``dataset.keys``;
            an int makes each example a single value.
    """

    def __init__(self, dataset, indices, key_indices):
        self._dataset = dataset
        self._indices = _as_indices(indices, len(dataset),
                                    type(dataset).__name__)
        self._key_indices = key_indices

    def __len__(self):
        return len(self._indices)

    @property
    def keys(self):
        names = _as_tuple(self._dataset.keys)
        if isinstance(self._key_indices, tuple):
            return tuple(names[k] for k in self._key_indices)
        return names[self._key_indices]

    def get_example_by_keys(self, index, key_indices):
        if isinstance(self._key_indices, tuple):
            base_key_indices = tuple(self._key_indices[k]
                                     for k in key_indices)
        else:
            base_key_indices = (self._key_indices,) * len(key_indices)
        return self._dataset.get_example_by_keys(
            self._indices[index], base_key_indices)
