"""ConcatenatedDataset: sliceable data sets with the same keys, one after
another."""
import bisect

from chainer_cv.chainer_experimental.datasets.sliceable.sliceable_dataset \
    import SliceableDataset


class ConcatenatedDataset(SliceableDataset):
    """The examples of several sliceable data sets with the same keys, one
    data set after another.

    Args:
        datasets (SliceableDataset): the data sets, all with the same keys.
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError('ConcatenatedDataset: no data sets given')
        for d, dataset in enumerate(datasets[1:], 1):
            if dataset.keys != datasets[0].keys:
                raise ValueError(
                    'ConcatenatedDataset: all data sets must have the same '
                    'keys: argument 0 has {}, argument {} has {}'
                    .format(datasets[0].keys, d, dataset.keys))
        self._datasets = datasets
        self._ends = []
        total = 0
        for dataset in datasets:
            total += len(dataset)
            self._ends.append(total)

    def __len__(self):
        return self._ends[-1]

    @property
    def keys(self):
        return self._datasets[0].keys

    def get_example_by_keys(self, index, key_indices):
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError('ConcatenatedDataset: index {} is out of range '
                             'for length {}'.format(index, len(self)))
        d = bisect.bisect_right(self._ends, index)
        start = self._ends[d - 1] if d else 0
        return self._datasets[d].get_example_by_keys(
            index - start, key_indices)
