"""from_data: a tabular dataset from arrays, lists and functions."""
from chainer_core.dataset.tabular import _util
from chainer_core.dataset.tabular._join import Join
from chainer_core.dataset.tabular.tabular_dataset import TabularDataset


class _Column(TabularDataset):
    """One named column; subclasses read its rows."""

    def __init__(self, key):
        self._key = key

    @property
    def keys(self):
        return (self._key,)

    @property
    def mode(self):
        return None

    def get_examples(self, indices, key_indices):
        where = 'from_data(...).get_examples'
        key_indices = _util.normalize_key_indices(key_indices, 1, where)
        if not key_indices:
            return ()
        rows = _util.normalize_indices(indices, len(self), where)
        return (self._read(rows),) * len(key_indices)


class _Array(_Column):
    """A column held in a list or an array."""

    def __init__(self, key, data):
        super().__init__(key)
        self._data = data

    def __len__(self):
        return len(self._data)

    def _read(self, rows):
        argument = _util.as_argument(rows, len(self._data))
        if argument is None:
            return self._data
        if isinstance(argument, list) and isinstance(self._data, list):
            return [self._data[i] for i in argument]
        return self._data[argument]


class _Function(_Column):
    """A column whose row ``i`` is ``function(i)``."""

    def __init__(self, key, function, size):
        super().__init__(key)
        self._function = function
        self._size = size

    def __len__(self):
        return self._size

    def _read(self, rows):
        return [self._function(i) for i in rows]


def _is_array(data):
    return isinstance(data, list) or (
        getattr(data, 'ndim', 0) >= 1 and hasattr(data, '__getitem__'))


def _is_named(item):
    return isinstance(item, tuple) and len(item) == 2 and \
        isinstance(item[0], str)


def _column(key, data, size):
    if _is_array(data):
        return _Array('_{}'.format(id(data)) if key is None else key, data)
    if callable(data):
        if key is None:
            raise ValueError('from_data: a function needs a key: pass '
                             '(key, function)')
        if size is None:
            raise ValueError('from_data: size is required for the function '
                             'of key {!r}'.format(key))
        return _Function(key, data, size)
    raise TypeError('from_data: a column must be a list, an array or a '
                    'function of the row index, got {}'.format(
                        type(data).__name__))


def from_data(data, *, size=None):
    """Make a :class:`TabularDataset` out of arrays, lists and functions.

    ``data`` is one column (a list, an array, a function of the row index,
    or ``(key, column)``: a dataset of mode None), a tuple of columns
    (mode ``tuple``; each a column or ``(key, column)``) or a dict from
    keys to columns (mode ``dict``). A column without a key gets a unique
    generated one; a function needs a key, and ``size`` unless an array
    beside it gives the length.

    Args:
        data: the columns.
        size (int): the number of rows; required when ``data`` holds a
            function and no array.

    Returns:
        TabularDataset: the dataset, reading ``data`` on demand.

    Example:
        >>> from chainer_core.dataset import tabular
        >>> d = tabular.from_data(([0, 1, 2], ('sq', lambda i: i * i)))
        >>> d[2]
        (2, 4)
        >>> d.keys[1]
        'sq'
    """
    if _is_named(data):
        return _checked(_column(data[0], data[1], size), size)
    if isinstance(data, (tuple, dict)):
        if not data:
            raise ValueError('from_data: data has no column')
        items = list(data.items()) if isinstance(data, dict) else [
            item if _is_named(item) else (None, item) for item in data]
        if size is None:
            # Functions take the length of the arrays beside them.
            size = next((len(v) for _, v in items if _is_array(v)), None)
        columns = [_checked(_column(key, value, size), size)
                   for key, value in items]
        return Join(tuple(columns), type(data), where='from_data')
    return _checked(_column(None, data, size), size)


def _checked(column, size):
    if size is not None and len(column) != size:
        raise ValueError('from_data: every column must have {} rows, the '
                         'column {!r} has {}'.format(
                             size, column.keys[0], len(column)))
    return column
