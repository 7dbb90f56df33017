"""A hand-written tabular dataset over a NumPy table, recording how it is
read, and the reference answers computed from the table directly."""
import numpy

from chainer_core.dataset import TabularDataset


class Table(TabularDataset):
    """Column ``k`` of row ``i`` is ``table[k, i]``; ``table`` is
    ``offset + arange`` shaped (number of keys, length)."""

    def __init__(self, length=6, keys=('a', 'b', 'c'), mode=tuple,
                 offset=0):
        self.table = offset + numpy.arange(
            len(keys) * length).reshape(len(keys), length)
        self._keys = keys
        self._mode = mode
        self.calls = []

    def __len__(self):
        return self.table.shape[1]

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        self.calls.append((indices, key_indices))
        rows = self.table if indices is None else self.table[:, indices]
        if key_indices is None:
            key_indices = range(len(self._keys))
        return tuple(rows[k] for k in key_indices)


def columns(table, rows=slice(None), keys=None):
    """The reference columns ``rows`` of ``table`` (a Table), as lists."""
    keys = range(len(table.keys)) if keys is None else keys
    return tuple(table.table[k][rows].tolist() for k in keys)


def as_lists(columns):
    """Columns (lists or arrays) as lists, for comparison."""
    return tuple(numpy.asarray(c).tolist() for c in columns)
