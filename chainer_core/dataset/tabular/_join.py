"""Columns of several tabular datasets side by side."""
from chainer_core.dataset.tabular import _util
from chainer_core.dataset.tabular._concat import _check_datasets
from chainer_core.dataset.tabular.tabular_dataset import TabularDataset


class Join(TabularDataset):
    """The columns of ``datasets`` (of one length, with distinct keys) in
    turn; of the first one's mode, ``tuple`` if that is None, unless
    ``mode`` says otherwise."""

    def __init__(self, datasets, mode=None, where='TabularDataset.join'):
        _check_datasets(datasets, where)
        lengths = [len(d) for d in datasets]
        if len(set(lengths)) > 1:
            raise ValueError('{}: every dataset must have the same length, '
                             'got {}'.format(where, lengths))
        self._datasets = datasets
        self._where = []
        seen = set()
        for i, d in enumerate(datasets):
            for k, key in enumerate(d.keys):
                if key in seen:
                    raise ValueError('{}: the key {!r} appears twice'.format(
                        where, key))
                seen.add(key)
                self._where.append((i, k))
        self._mode = mode or datasets[0].mode or tuple

    def __len__(self):
        return len(self._datasets[0])

    @property
    def keys(self):
        return tuple(key for d in self._datasets for key in d.keys)

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        key_indices = _util.normalize_key_indices(
            key_indices, len(self._where),
            'TabularDataset.join(...).get_examples')
        wanted = {}
        for k in key_indices:
            i, local = self._where[k]
            wanted.setdefault(i, set()).add(local)
        read = {}
        for i, locals_ in wanted.items():
            locals_ = tuple(sorted(locals_))
            columns = self._datasets[i].get_examples(indices, locals_)
            read.update(((i, local), c) for local, c in zip(locals_, columns))
        return tuple(read[self._where[k]] for k in key_indices)

    def convert(self, data):
        return self._datasets[0].convert(data)
