"""PickleDataset: examples stored one after another as pickles in a file.

.. warning::
   **Only open files you trust.** Unpickling runs whatever code the file
   asks for: a pickle dataset from an untrusted source can take over the
   process that reads it. Opening a dataset unpickles every example once
   (to find where each starts), and each access unpickles again.
"""
import io
import os
import pickle
import threading

from chainer_core.dataset.dataset_mixin import DatasetMixin


class PickleDatasetWriter:
    """Writes examples for :class:`PickleDataset`, one pickle each.

    Args:
        writer: a binary file object (with ``write``).
        protocol (int): the pickle protocol.
    """

    def __init__(self, writer, protocol=pickle.HIGHEST_PROTOCOL):
        self._writer = writer
        self._protocol = protocol

    def write(self, x):
        """Append the example ``x``."""
        pickle.dump(x, self._writer, protocol=self._protocol)

    def flush(self):
        if hasattr(self._writer, 'flush'):
            self._writer.flush()

    def close(self):
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()


class PickleDataset(DatasetMixin):
    """Examples pickled one after another in a file, read on access.

    .. warning::
       **For trusted files only.** Unpickling runs whatever code the file
       asks for, so a file from an untrusted source can take over this
       process (and construction already unpickles every example once to
       index the file). Never open a pickle dataset you did not make or
       cannot vouch for.

    Example::

        with open_pickle_dataset_writer(path) as w:
            w.write((1, 2.0, 'hello'))
        with open_pickle_dataset(path) as dataset:
            dataset[0]          # (1, 2.0, 'hello')

    Args:
        reader: a seekable binary file object. If it has an ``after_fork``
            method, a forked process that reads the dataset calls it first
            (the file objects of :func:`open_pickle_dataset` reopen the file
            there, as a forked process shares the parent's file offset).
    """

    def __init__(self, reader):
        if not reader.seekable():
            raise ValueError('PickleDataset: the reader must support random '
                             'access (seek)')
        self._reader = reader
        self._positions = []
        reader.seek(0)
        while True:
            position = reader.tell()
            try:
                pickle.load(reader)
            except EOFError:
                break
            self._positions.append(position)
        self._lock = threading.RLock()
        self._pid = os.getpid()

    def close(self):
        """Close the file; the dataset is unusable afterwards."""
        with self._lock:
            self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __len__(self):
        return len(self._positions)

    def get_example(self, index):
        if self._pid != os.getpid():
            self._pid = os.getpid()
            self._lock = threading.RLock()
            after_fork = getattr(self._reader, 'after_fork', None)
            if callable(after_fork):
                after_fork()
        with self._lock:
            self._reader.seek(self._positions[index])
            return pickle.load(self._reader)


class _FileReader(io.RawIOBase):
    """A binary file that reopens itself in a forked process."""

    def __init__(self, path):
        super().__init__()
        self._path = path
        self._fp = open(path, 'rb')

    def after_fork(self):
        self._fp.close()
        self._fp = open(self._path, 'rb')

    def close(self):
        self._fp.close()
        super().close()

    def fileno(self):
        return self._fp.fileno()

    def readable(self):
        return True

    def seekable(self):
        return True

    def seek(self, offset, whence=io.SEEK_SET):
        return self._fp.seek(offset, whence)

    def tell(self):
        return self._fp.tell()

    def readinto(self, b):
        return self._fp.readinto(b)


def open_pickle_dataset(path):
    """Open a :class:`PickleDataset` stored at ``path``.

    .. warning::
       **For trusted files only**: reading a pickle dataset runs the code
       its pickles ask for (see :class:`PickleDataset`).

    Close it with :meth:`PickleDataset.close` or a ``with`` block.

    Args:
        path (str): the file.

    Returns:
        PickleDataset: the dataset.
    """
    return PickleDataset(_FileReader(path))


def open_pickle_dataset_writer(path, protocol=pickle.HIGHEST_PROTOCOL):
    """Open a :class:`PickleDatasetWriter` writing to ``path`` (replacing
    the file).

    Close it with :meth:`PickleDatasetWriter.close` or a ``with`` block.

    Args:
        path (str): the file.
        protocol (int): the pickle protocol.

    Returns:
        PickleDatasetWriter: the writer.
    """
    return PickleDatasetWriter(open(path, 'wb'), protocol=protocol)
