"""TabularDataset: a dataset of named columns, read column-wise in batches."""
import numbers

import numpy

from chainer_core.dataset.dataset_mixin import DatasetMixin
from chainer_core.dataset.tabular import _util


class TabularDataset(DatasetMixin):
    """A dataset whose examples have named columns (keys).

    A subclass implements ``__len__``, the properties ``keys`` and ``mode``
    and :meth:`get_examples`; the rest (indexing, :meth:`fetch`,
    :attr:`slice`, :meth:`concat`, :meth:`join`, :meth:`transform`, ...)
    is built on them and reads many rows in one call.

    ``mode`` decides what an example looks like: ``tuple`` (a tuple with
    one value per key), ``dict`` (a dict keyed by the keys) or None (a
    dataset with one key whose examples are that key's value alone).

    Example:
        >>> from chainer_core.dataset import tabular
        >>> d = tabular.from_data({'x': [0, 1, 2, 3], 'y': [0, 2, 4, 6]})
        >>> d[1]
        {'x': 1, 'y': 2}
        >>> d.slice[1:3, 'y'].fetch()
        [2, 4]
    """

    def __len__(self):
        raise NotImplementedError

    @property
    def keys(self):
        """tuple of str: the names of the columns."""
        raise NotImplementedError

    @property
    def mode(self):
        """``tuple``, ``dict`` or None: the form of the examples."""
        raise NotImplementedError

    def get_examples(self, indices, key_indices):
        """Columns of several rows.

        Args:
            indices: the rows: None (all), a slice or a list of ints.
            key_indices: the columns: None (all) or a tuple of ints
                indexing :attr:`keys`.

        Returns:
            tuple: one list or array per selected column, with one entry
            per selected row.
        """
        raise NotImplementedError

    def _pack(self, columns):
        if self.mode is dict:
            return dict(zip(self.keys, columns))
        if self.mode is tuple:
            return tuple(columns)
        column, = columns
        return column

    def _rows(self, index):
        rows = _util.normalize_indices(index, len(self), 'TabularDataset[]')
        columns = self.get_examples(_util.as_argument(rows, len(self)), None)
        n = len(rows)
        if self.mode is None:
            column, = columns
            return [column[j] for j in range(n)]
        return [self._pack([c[j] for c in columns]) for j in range(n)]

    def __getitem__(self, index):
        """An example for an int; a list of examples for a slice, a list of
        ints or a boolean array (read in one :meth:`get_examples` call)."""
        if isinstance(index, (numbers.Integral, numpy.integer)):
            return self.get_example(index)
        if isinstance(index, (slice, list, numpy.ndarray)):
            return self._rows(index)
        raise TypeError('TabularDataset[]: index must be an int, a slice or '
                        'a list of ints, got {}'.format(type(index).__name__))

    def __iter__(self):
        for i in range(len(self)):
            yield self.get_example(i)

    def get_example(self, i):
        """The example at row ``i`` in the form :attr:`mode` says."""
        n = len(self)
        if not -n <= i < n:
            raise IndexError('TabularDataset.get_example: index {} is out of '
                             'bounds for {} rows'.format(i, n))
        columns = self.get_examples([int(i) % n], None)
        return self._pack([c[0] for c in columns])

    def fetch(self):
        """Every row at once: a tuple or dict of columns, or the column
        itself for a dataset of mode None.

        Example:
            >>> from chainer_core.dataset import tabular
            >>> tabular.from_data(('a', [1, 2, 3])).fetch()
            [1, 2, 3]
        """
        return self._pack(self.get_examples(None, None))

    def convert(self, data):
        """Prepare fetched columns for a model: each becomes an array
        (lists go through :func:`numpy.asarray`; arrays of any device stay
        as they are). :meth:`with_converter` replaces this.

        Args:
            data: what :meth:`fetch` returned (a tuple or dict of columns,
                or one column).

        Returns:
            The same structure with arrays.
        """
        if isinstance(data, tuple):
            return tuple(_as_array(c) for c in data)
        if isinstance(data, dict):
            return {k: _as_array(c) for k, c in data.items()}
        return _as_array(data)

    @property
    def slice(self):
        """Select rows and keys without reading them:
        ``dataset.slice[rows]`` or ``dataset.slice[rows, keys]``.

        Rows are a slice, a list of ints or a boolean mask; keys are a
        name or an index (a dataset of mode None) or a tuple of them.

        Example:
            >>> from chainer_core.dataset import tabular
            >>> d = tabular.from_data({'a': [0, 1, 2, 3], 'b': [4, 5, 6, 7]})
            >>> d.slice[[3, 0], ('b',)].fetch()
            {'b': [7, 4]}
        """
        from chainer_core.dataset.tabular._slice import SliceHelper
        return SliceHelper(self)

    def concat(self, *datasets):
        """This dataset's rows followed by those of ``datasets`` (which
        must have the same keys).

        Returns:
            TabularDataset: of this dataset's mode.
        """
        from chainer_core.dataset.tabular._concat import Concat
        return Concat(self, *datasets)

    def join(self, *datasets):
        """This dataset's columns followed by those of ``datasets`` (of
        the same length, with other keys).

        Returns:
            TabularDataset: of this dataset's mode (``tuple`` if that is
            None).
        """
        from chainer_core.dataset.tabular._join import Join
        return Join((self,) + datasets)

    def transform(self, keys, transform):
        """Apply ``transform`` to each example.

        ``transform`` receives an example's values (positionally for mode
        ``tuple`` and None, by keyword for ``dict``) and returns a tuple,
        a dict or (for one key) a single value; that return type sets the
        new dataset's mode.

        Args:
            keys: the names of the new columns (a str or a tuple of str).
            transform: the function.

        Returns:
            TabularDataset: the transformed dataset.

        Example:
            >>> from chainer_core.dataset import tabular
            >>> d = tabular.from_data((('a', [1, 2]), ('b', [3, 4])))
            >>> d.transform('s', lambda a, b: a + b).fetch()
            [4, 6]
        """
        from chainer_core.dataset.tabular._transform import Transform
        return Transform(self, keys, transform, batch=False)

    def transform_batch(self, keys, transform_batch):
        """As :meth:`transform`, but ``transform_batch`` receives whole
        columns and returns columns of the same length."""
        from chainer_core.dataset.tabular._transform import Transform
        return Transform(self, keys, transform_batch, batch=True)

    def with_converter(self, converter):
        """The same data with :meth:`convert` calling ``converter``
        (positionally with a tuple's columns, by keyword with a dict's,
        or with the single column)."""
        from chainer_core.dataset.tabular._with_converter import \
            WithConverter
        return WithConverter(self, converter)

    def astuple(self):
        """The same data with examples as tuples."""
        from chainer_core.dataset.tabular._asmode import AsMode
        return AsMode(self, tuple)

    def asdict(self):
        """The same data with examples as dicts."""
        from chainer_core.dataset.tabular._asmode import AsMode
        return AsMode(self, dict)


def _as_array(column):
    if isinstance(column, (list, tuple, range)):
        return numpy.asarray(column)
    if getattr(column, 'ndim', 0) >= 1:
        return column
    raise TypeError('TabularDataset.convert: a column must be a list or an '
                    'array, got {}'.format(type(column).__name__))
