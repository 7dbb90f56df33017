"""ConcatenatedDataset: datasets one after another."""
import bisect

from chainer_core.dataset.dataset_mixin import DatasetMixin


class ConcatenatedDataset(DatasetMixin):
    """The examples of every dataset, in order."""

    def __init__(self, *datasets):
        self._datasets = datasets
        self._ends = []
        total = 0
        for d in datasets:
            total += len(d)
            self._ends.append(total)

    def __len__(self):
        return self._ends[-1] if self._ends else 0

    def get_example(self, i):
        if i < 0 or i >= len(self):
            raise IndexError('index {} out of range for a dataset of length '
                             '{}'.format(i, len(self)))
        which = bisect.bisect_right(self._ends, i)
        start = self._ends[which - 1] if which else 0
        return self._datasets[which][i - start]
