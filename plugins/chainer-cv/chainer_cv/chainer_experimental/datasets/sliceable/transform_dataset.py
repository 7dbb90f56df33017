"""TransformDataset: a data set mapped by a function, with named outputs."""
import numbers

from chainer_cv.chainer_experimental.datasets.sliceable.sliceable_dataset \
    import SliceableDataset


class TransformDataset(SliceableDataset):
    """A data set whose examples are those of another data set passed
    through a function.

    The transformed examples are sliceable by index and by key, but
    ``transform`` runs on the whole example of the base data set.

    Args:
        dataset: the base data set (anything with ``__getitem__`` and
            ``__len__``).
        keys (str, tuple of strs or int): the names of the values that
            ``transform`` returns; an int ``n`` names nothing and says that
            ``transform`` returns ``n`` values (a single value for 1).
        transform (callable): maps an example of ``dataset`` to the new
            example. When it is omitted, ``keys`` is the transform and the
            number of values is found by transforming the first example.
    """

    def __init__(self, dataset, keys, transform=None):
        if transform is None:
            keys, transform = None, keys
        elif isinstance(keys, numbers.Integral) and \
                not isinstance(keys, bool):
            if keys < 1:
                raise ValueError('TransformDataset: keys must be a positive '
                                 'number of values, got {}'.format(keys))
            keys = None if keys == 1 else (None,) * keys
        self._dataset = dataset
        self._transform = transform
        self._keys = keys
        self._keys_known = keys is not None

    def __len__(self):
        return len(self._dataset)

    @property
    def keys(self):
        if not self._keys_known:
            first = self._transform(self._dataset[0])
            if isinstance(first, tuple):
                self._keys = (None,) * len(first)
            self._keys_known = True
        return self._keys

    def get_example_by_keys(self, index, key_indices):
        example = self._transform(self._dataset[index])
        if isinstance(self.keys, tuple):
            return tuple(example[k] for k in key_indices)
        return (example,) * len(key_indices)
