"""Tabular datasets computed from another one, example by example or
batch by batch."""
from chainer_core.dataset.tabular import _util
from chainer_core.dataset.tabular.tabular_dataset import TabularDataset

_UNKNOWN = object()


class Transform(TabularDataset):
    """``dataset`` through ``transform`` (``batch``: on whole columns).

    The mode is the type ``transform`` returns (a tuple, a dict or, for
    one key, anything else: mode None); it is found by reading row 0 the
    first time it is asked before any read. An empty dataset has mode
    ``tuple`` when ``keys`` is a tuple and None when it is a str.
    :meth:`convert` is ``dataset``'s.
    """

    def __init__(self, dataset, keys, transform, batch):
        self._where = 'TabularDataset.' + (
            'transform_batch' if batch else 'transform')
        if not callable(transform):
            raise TypeError('{}: the transform must be callable, got {}'
                            .format(self._where, type(transform).__name__))
        self._dataset = dataset
        self._keys, single = _util.as_key_tuple(keys, self._where)
        self._transform = transform
        self._batch = batch
        self._mode = _UNKNOWN
        if len(dataset) == 0:
            self._mode = None if single else tuple

    def __len__(self):
        return len(self._dataset)

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        if self._mode is _UNKNOWN:
            self.get_examples([0], None)
        return self._mode

    def _call(self, values):
        if self._dataset.mode is dict:
            return self._transform(**dict(zip(self._dataset.keys, values)))
        return self._transform(*values)

    def _outputs(self, out):
        """The values ``out`` holds for each key; records the mode."""
        if isinstance(out, tuple):
            mode = tuple
            if len(out) != len(self._keys):
                raise ValueError('{}: returned {} values for the {} keys {}'
                                 .format(self._where, len(out),
                                         len(self._keys), self._keys))
            values = out
        elif isinstance(out, dict):
            mode = dict
            missing = [k for k in self._keys if k not in out]
            if missing:
                raise ValueError('{}: the returned dict lacks the keys {}'
                                 .format(self._where, missing))
            values = tuple(out[k] for k in self._keys)
        else:
            mode = None
            if len(self._keys) != 1:
                raise ValueError(
                    '{}: returned a single {} for the {} keys {}; return a '
                    'tuple or a dict'.format(self._where, type(out).__name__,
                                             len(self._keys), self._keys))
            values = (out,)
        if self._mode is _UNKNOWN:
            self._mode = mode
        elif self._mode is not mode:
            raise ValueError('{}: the transform must always return the same '
                             'type; it returned {} after {}'.format(
                                 self._where, _mode_name(mode),
                                 _mode_name(self._mode)))
        return values

    def get_examples(self, indices, key_indices):
        key_indices = _util.normalize_key_indices(
            key_indices, len(self._keys), self._where)
        n = len(_util.normalize_indices(indices, len(self), self._where))
        columns = self._dataset.get_examples(indices, None)
        if self._batch:
            outputs = self._outputs(self._call(columns))
            for key, column in zip(self._keys, outputs):
                if len(column) != n:
                    raise ValueError(
                        '{}: the column {!r} has {} rows, the batch {}; the '
                        'transform must keep the length'.format(
                            self._where, key, len(column), n))
        else:
            rows = [self._outputs(self._call([c[j] for c in columns]))
                    for j in range(n)]
            outputs = tuple(map(list, zip(*rows))) if rows else \
                tuple([] for _ in self._keys)
        return tuple(outputs[k] for k in key_indices)

    def convert(self, data):
        return self._dataset.convert(data)


def _mode_name(mode):
    return 'a single value' if mode is None else 'a ' + mode.__name__
