"""GetterDataset: a sliceable data set built from one getter per key or
group of keys."""
from chainer_cv.chainer_experimental.datasets.sliceable.sliceable_dataset \
    import _as_key_indices
from chainer_cv.chainer_experimental.datasets.sliceable.sliceable_dataset \
    import SliceableDataset


class GetterDataset(SliceableDataset):
    """A sliceable data set whose values come from getters.

    A subclass implements :meth:`__len__` and registers getters with
    :meth:`add_getter`. Asking for some keys calls only the getters of
    those keys, each once per example, so that a view of the labels never
    reads an image.

    Setting :attr:`keys` selects and orders the keys an example returns
    (by name or position); a single key makes an example that one value.

    >>> class Squares(GetterDataset):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.add_getter('x', lambda i: i)
    ...         self.add_getter(('square', 'cube'), lambda i: (i * i, i ** 3))
    ...     def __len__(self):
    ...         return 10
    >>> Squares()[2]
    (2, 4, 8)
    """

    def __init__(self):
        # One (name, getter position, position in the getter's tuple or
        # None for a getter of a single value) per key.
        self._entries = []
        self._getters = []
        self._selected = None

    @property
    def keys(self):
        names = tuple(entry[0] for entry in self._entries)
        if self._selected is None:
            return names
        if isinstance(self._selected, tuple):
            return tuple(names[k] for k in self._selected)
        return names[self._selected]

    @keys.setter
    def keys(self, keys):
        names = tuple(entry[0] for entry in self._entries)
        self._selected = _as_key_indices(keys, names, type(self).__name__)

    def add_getter(self, keys, getter):
        """Register the getter of some keys.

        Args:
            keys (str or tuple of strs): the key, or the keys, that
                ``getter`` gives.
            getter (callable): ``getter(i)`` returns the value of the
                ``i``-th example for one key, or a tuple of values, one
                per key, for a tuple of keys.
        """
        names = [entry[0] for entry in self._entries]
        new = [keys] if isinstance(keys, str) else list(keys)
        for key in new:
            if key in names:
                raise ValueError('{}.add_getter: key {!r} exists already'
                                 .format(type(self).__name__, key))
        position = len(self._getters)
        if isinstance(keys, str):
            self._entries.append((keys, position, None))
        else:
            self._entries.extend(
                (key, position, j) for j, key in enumerate(keys))
        self._getters.append(getter)

    def get_example_by_keys(self, index, key_indices):
        if isinstance(self._selected, tuple):
            key_indices = tuple(self._selected[k] for k in key_indices)
        elif self._selected is not None:
            key_indices = (self._selected,) * len(key_indices)
        values = {}
        example = []
        for k in key_indices:
            _, getter, position = self._entries[k]
            if getter not in values:
                values[getter] = self._getters[getter](index)
            value = values[getter]
            example.append(value if position is None else value[position])
        return tuple(example)
