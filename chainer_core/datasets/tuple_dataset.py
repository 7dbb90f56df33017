"""TupleDataset: several equally long datasets zipped into tuples."""


class TupleDataset:
    """``dataset[i] == (d0[i], d1[i], ...)``; slicing gives lists of tuples.

    Args:
        datasets: equally long datasets (arrays, lists...).
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError('TupleDataset needs at least one dataset')
        length = len(datasets[0])
        for i, d in enumerate(datasets):
            if len(d) != length:
                raise ValueError(
                    'TupleDataset: dataset {} has length {} but dataset 0 has '
                    '{}'.format(i, len(d), length))
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index):
        batches = [d[index] for d in self._datasets]
        if isinstance(index, slice) or hasattr(index, '__len__'):
            return list(zip(*batches))
        return tuple(batches)

    def __len__(self):
        return self._length
