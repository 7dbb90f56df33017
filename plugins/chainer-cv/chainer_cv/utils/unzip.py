import collections
import weakref


class _Source:
    """The shared source of the iterators :func:`unzip` returns.

    Each element pulled from the source is split and queued for every
    iterator still alive; an iterator that has been dropped (garbage
    collected) gets nothing queued, so unused columns cost no memory.
    """

    def __init__(self, iterator, first):
        self._iterator = iterator
        self._branches = weakref.WeakSet()
        self._pending = first

    def register(self, branch):
        self._branches.add(branch)

    def pull(self):
        """Read one more element and queue its parts; False at the end."""
        if self._pending is not None:
            element, self._pending = self._pending, None
        else:
            try:
                element = next(self._iterator)
            except StopIteration:
                return False
        for branch in list(self._branches):
            branch.queue.append(element[branch.index])
        return True


class _Branch:
    def __init__(self, source, index):
        self.queue = collections.deque()
        self.index = index
        self._source = source
        source.register(self)

    def __iter__(self):
        return self

    def __next__(self):
        while not self.queue:
            if not self._source.pull():
                raise StopIteration
        return self.queue.popleft()


def unzip(iterable):
    """The inverse of :func:`zip`: an iterable of tuples to a tuple of
    iterators.

    The tuples are read lazily: reading one of the returned iterators reads
    ``iterable`` only as far as needed, and keeps the other columns'
    values until their iterators read them. Only the first tuple is read
    at once, to know how many iterators to return; all tuples must have
    its length.

    Args:
        iterable: An iterable of tuples of equal length :math:`N`.

    Returns:
        tuple: :math:`N` iterators; the :math:`i`-th gives the
        :math:`i`-th element of each tuple. Empty when ``iterable`` is.

    .. admonition:: Example

        >>> imgs, labels = unzip(iter([('a', 0), ('b', 1)]))
        >>> list(labels), list(imgs)
        ([0, 1], ['a', 'b'])
    """
    iterator = iter(iterable)
    try:
        first = next(iterator)
    except StopIteration:
        return ()
    source = _Source(iterator, first)
    return tuple(_Branch(source, i) for i in range(len(first)))
