"""The iterator interface of datasets."""


class Iterator:
    """Yields mini-batches (lists of examples) from a dataset.

    Subclasses implement ``__next__`` and the epoch bookkeeping:
    ``epoch``, ``epoch_detail`` (fractional epochs), ``previous_epoch_detail``
    and ``is_new_epoch``; ``serialize`` saves and restores the position.
    """

    def __iter__(self):
        return self

    def __next__(self):
        raise NotImplementedError

    def next(self):
        return self.__next__()

    def finalize(self):
        """Release resources (worker processes, threads)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.finalize()

    def serialize(self, serializer):
        """Save or load the position in the dataset."""
