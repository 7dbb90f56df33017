"""DictDataset: several equally long datasets as dicts of examples."""


class DictDataset:
    """``dataset[i] == {'x': x[i], 'y': y[i], ...}``.

    Args:
        datasets: keyword datasets of one length.
    """

    def __init__(self, **datasets):
        if not datasets:
            raise ValueError('DictDataset needs at least one dataset')
        lengths = {k: len(v) for k, v in datasets.items()}
        if len(set(lengths.values())) != 1:
            raise ValueError('DictDataset: datasets differ in length: {}'
                             .format(lengths))
        self._datasets = datasets
        self._length = next(iter(lengths.values()))

    def __getitem__(self, index):
        batches = {k: d[index] for k, d in self._datasets.items()}
        if isinstance(index, slice) or hasattr(index, '__len__'):
            n = len(next(iter(batches.values())))
            return [{k: v[i] for k, v in batches.items()} for i in range(n)]
        return batches

    def __len__(self):
        return self._length
