"""Row and key selection of a tabular dataset (``dataset.slice[...]``)."""
from chainer_core.dataset.tabular import _util
from chainer_core.dataset.tabular.tabular_dataset import TabularDataset


class SliceHelper:
    """What :attr:`TabularDataset.slice` returns: indexing it selects."""

    def __init__(self, dataset):
        self._dataset = dataset

    def __getitem__(self, args):
        if isinstance(args, tuple):
            if len(args) != 2:
                raise ValueError(
                    'TabularDataset.slice: expected [rows] or [rows, keys], '
                    'got {} entries'.format(len(args)))
            indices, keys = args
        else:
            indices, keys = args, None
        return Slice(self._dataset, indices, keys)


class Slice(TabularDataset):
    """Some rows and keys of a dataset, read through it on demand."""

    def __init__(self, dataset, indices, keys):
        where = 'TabularDataset.slice'
        self._dataset = dataset
        self._rows = _util.normalize_indices(indices, len(dataset), where)
        if keys is None:
            self._key_indices = tuple(range(len(dataset.keys)))
            self._mode = dataset.mode
        else:
            self._key_indices, single = _util.key_selection(
                keys, dataset.keys, where)
            self._mode = None if single else (dataset.mode or tuple)

    def __len__(self):
        return len(self._rows)

    @property
    def keys(self):
        keys = self._dataset.keys
        return tuple(keys[k] for k in self._key_indices)

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        where = 'TabularDataset.slice(...).get_examples'
        rows = _util.compose(self._rows, indices, where)
        key_indices = tuple(
            self._key_indices[k] for k in _util.normalize_key_indices(
                key_indices, len(self._key_indices), where))
        return self._dataset.get_examples(
            _util.as_argument(rows, len(self._dataset)), key_indices)

    def convert(self, data):
        return self._dataset.convert(data)
