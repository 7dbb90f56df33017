"""Rows of several tabular datasets one after another."""
import bisect
import itertools

import numpy

from chainer_core.dataset.tabular import _util
from chainer_core.dataset.tabular.tabular_dataset import TabularDataset


def _check_datasets(datasets, where):
    for i, d in enumerate(datasets):
        if not isinstance(d, TabularDataset):
            raise TypeError('{}: dataset {} must be a TabularDataset, got {}'
                            .format(where, i, type(d).__name__))


def _join_parts(parts):
    """One column from the pieces read from several datasets, in order:
    an array when every piece is an array of one type, else a list."""
    if len(parts) == 1:
        return parts[0]
    kinds = {type(p) for p in parts}
    if len(kinds) == 1 and getattr(parts[0], 'ndim', 0) >= 1:
        if isinstance(parts[0], numpy.ndarray):
            return numpy.concatenate(parts)
        from chainer_core.backend import get_array_module
        return get_array_module(parts[0]).concatenate(parts)
    return list(itertools.chain.from_iterable(parts))


def _take(column, order):
    if getattr(column, 'ndim', 0) >= 1:
        return column[numpy.asarray(order, dtype=numpy.intp)]
    return [column[j] for j in order]


class Concat(TabularDataset):
    """The rows of ``datasets`` in turn; keys and mode of the first."""

    def __init__(self, *datasets):
        where = 'TabularDataset.concat'
        _check_datasets(datasets, where)
        keys = datasets[0].keys
        for i, d in enumerate(datasets[1:], 1):
            if d.keys != keys:
                raise ValueError(
                    '{}: every dataset must have the keys {} of the first, '
                    'dataset {} has {}'.format(where, keys, i, d.keys))
        self._datasets = datasets
        self._starts = [0] + list(itertools.accumulate(
            len(d) for d in datasets))

    def __len__(self):
        return self._starts[-1]

    @property
    def keys(self):
        return self._datasets[0].keys

    @property
    def mode(self):
        return self._datasets[0].mode

    def _split_range(self, rows):
        """``(dataset number, local rows)`` of a range, in row order."""
        ascending = rows if rows.step > 0 else rows[::-1]
        parts = []
        for i, d in enumerate(self._datasets):
            start = self._starts[i]
            lo = bisect.bisect_left(ascending, start)
            hi = bisect.bisect_left(ascending, self._starts[i + 1])
            if lo < hi:
                local = ascending[lo:hi]
                local = range(local.start - start, local.stop - start,
                              local.step)
                parts.append((i, local if rows.step > 0 else local[::-1]))
        return parts if rows.step > 0 else parts[::-1]

    def get_examples(self, indices, key_indices):
        where = 'TabularDataset.concat(...).get_examples'
        rows = _util.normalize_indices(indices, len(self), where)
        key_indices = _util.normalize_key_indices(
            key_indices, len(self.keys), where)
        order = None
        if isinstance(rows, range):
            parts = self._split_range(rows)
        else:
            groups = {}
            for position, row in enumerate(rows):
                i = bisect.bisect_right(self._starts, row) - 1
                groups.setdefault(i, []).append(
                    (position, row - self._starts[i]))
            parts = [(i, [row for _, row in groups[i]])
                     for i in sorted(groups)]
            # Where rows of several datasets interleave, the pieces read
            # dataset by dataset are put back in the order asked for.
            read_order = [position for i in sorted(groups)
                          for position, _ in groups[i]]
            if read_order != list(range(len(rows))):
                order = numpy.argsort(read_order)
        if not parts:
            return self._datasets[0].get_examples([], key_indices)
        pieces = [
            self._datasets[i].get_examples(
                _util.as_argument(local, len(self._datasets[i])),
                key_indices)
            for i, local in parts]
        columns = tuple(_join_parts([p[k] for p in pieces])
                        for k in range(len(key_indices)))
        if order is not None:
            columns = tuple(_take(c, order) for c in columns)
        return columns

    def convert(self, data):
        return self._datasets[0].convert(data)
