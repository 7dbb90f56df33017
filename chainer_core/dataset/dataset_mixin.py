"""DatasetMixin: indexing, slicing and len from get_example."""
import numpy


class DatasetMixin:
    """Implement ``__len__`` and ``get_example(i)``; indexing with an int,
    a slice, or a list/array of indices then works."""

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.get_example(i)
                    for i in range(*index.indices(len(self)))]
        if isinstance(index, (list, numpy.ndarray)):
            if isinstance(index, numpy.ndarray) and index.dtype.kind == 'b':
                index = numpy.nonzero(index)[0]
            return [self.get_example(int(i)) for i in index]
        n = len(self)
        if not -n <= index < n:
            raise IndexError('dataset index {} out of range for length {}'
                             .format(index, n))
        return self.get_example(index + n if index < 0 else index)

    def __len__(self):
        raise NotImplementedError

    def get_example(self, i):
        raise NotImplementedError
