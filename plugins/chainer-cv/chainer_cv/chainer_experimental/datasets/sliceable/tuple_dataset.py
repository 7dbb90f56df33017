"""TupleDataset: sliceable data sets and named arrays side by side."""
from chainer_cv.chainer_experimental.datasets.sliceable.sliceable_dataset \
    import _as_tuple
from chainer_cv.chainer_experimental.datasets.sliceable.sliceable_dataset \
    import SliceableDataset


class TupleDataset(SliceableDataset):
    """The keys of several data sets of the same length, side by side.

    Args:
        datasets: each a :class:`SliceableDataset`, or a pair of a key (or a
            tuple of keys) and a list or array whose items are the values
            (tuples of values for a tuple of keys).

    >>> dataset = TupleDataset(voc, ('weight', weights))
    >>> dataset.keys
    ('img', 'bbox', 'label', 'weight')
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError('TupleDataset: no data sets given')
        self._datasets = []
        self._entries = []
        self._length = None
        for d, dataset in enumerate(datasets):
            if isinstance(dataset, SliceableDataset):
                keys = dataset.keys
            elif isinstance(dataset, tuple) and len(dataset) == 2:
                keys, dataset = dataset
            else:
                raise TypeError(
                    'TupleDataset: argument {} must be a SliceableDataset or '
                    'a (key, array) pair, got {}'
                    .format(d, type(dataset).__name__))
            if self._length is None:
                self._length = len(dataset)
            elif len(dataset) != self._length:
                raise ValueError(
                    'TupleDataset: all data sets must have the same length: '
                    'argument 0 has {}, argument {} has {}'
                    .format(self._length, d, len(dataset)))
            self._datasets.append((dataset, isinstance(keys, tuple)))
            self._entries.extend(
                (key, d, j) for j, key in enumerate(_as_tuple(keys)))

    def __len__(self):
        return self._length

    @property
    def keys(self):
        return tuple(entry[0] for entry in self._entries)

    def get_example_by_keys(self, index, key_indices):
        wanted = {}
        for k in key_indices:
            _, d, j = self._entries[k]
            wanted.setdefault(d, []).append(j)
        values = {}
        for d, positions in wanted.items():
            dataset, multiple = self._datasets[d]
            if isinstance(dataset, SliceableDataset):
                got = dataset.get_example_by_keys(index, tuple(positions))
            elif multiple:
                item = dataset[index]
                got = tuple(item[j] for j in positions)
            else:
                got = (dataset[index],) * len(positions)
            values.update(((d, j), v) for j, v in zip(positions, got))
        return tuple(values[self._entries[k][1:]] for k in key_indices)
