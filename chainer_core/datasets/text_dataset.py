"""TextDataset: the lines of text files, read on access."""
import os
import threading

from chainer_core.dataset.dataset_mixin import DatasetMixin


def _per_file(value, n, name):
    if value is None or isinstance(value, str):
        return [value] * n
    value = list(value)
    if len(value) != n:
        raise ValueError('TextDataset: {} has {} entries for {} files'.format(
            name, len(value), n))
    return value


class TextDataset(DatasetMixin):
    """The lines of one text file, or of several files in parallel.

    The start of every line is found once, at construction; an example is
    then read by seeking to it. Lines keep their line break, as
    :meth:`io.TextIOBase.readline` returns them. Pickling the dataset keeps
    the line index (the files must not change meanwhile); files are
    reopened in each process that reads them.

    Args:
        paths (str or list of str): one file (examples are strings) or
            several files with the same number of lines (examples are tuples
            of their lines).
        encoding (str or list of str): the encoding of the files (one for
            all, or one per file), as for :func:`open`.
        errors (str or list of str): how to handle decoding errors, as for
            :func:`open`.
        newline (str or list of str): line break handling, as for
            :func:`open`.
        filter_func (callable): ``filter_func(*lines)`` returns whether the
            line (one per file) is kept.
    """

    def __init__(self, paths, encoding=None, errors=None, newline=None,
                 filter_func=None):
        if isinstance(paths, (str, os.PathLike)):
            paths = [paths]
        paths = list(paths)
        if not paths:
            raise ValueError('TextDataset: at least one file is needed')
        n = len(paths)
        self._paths = paths
        self._encoding = _per_file(encoding, n, 'encoding')
        self._errors = _per_file(errors, n, 'errors')
        self._newline = _per_file(newline, n, 'newline')
        self._fps = None
        self._open()

        starts = [[] for _ in paths]
        kept = []
        number = 0
        while True:
            positions = [fp.tell() for fp in self._fps]
            lines = [fp.readline() for fp in self._fps]
            ended = [not line for line in lines]
            if all(ended):
                break
            if any(ended):
                raise ValueError(
                    'TextDataset: the files have different numbers of '
                    'lines ({} ends after {} lines)'.format(
                        paths[ended.index(True)], number))
            for k, position in enumerate(positions):
                starts[k].append(position)
            if filter_func is None or filter_func(*lines):
                kept.append(number)
            number += 1
        self._starts = starts
        self._lines = kept

    def _open(self):
        self._fps = [open(path, 'rt', encoding=self._encoding[k],
                          errors=self._errors[k], newline=self._newline[k])
                     for k, path in enumerate(self._paths)]
        self._pid = os.getpid()
        self._lock = threading.Lock()

    def _close(self):
        fps, self._fps = self._fps, None
        for fp in fps or ():
            try:
                fp.close()
            except OSError:
                pass

    def __del__(self):
        if getattr(self, '_fps', None) is not None:
            self._close()

    def __getstate__(self):
        state = self.__dict__.copy()
        del state['_fps']
        del state['_lock']
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._open()

    def __len__(self):
        return len(self._lines)

    def get_example(self, i):
        if not 0 <= i < len(self._lines):
            raise IndexError('TextDataset index {} out of range for {} '
                             'lines'.format(i, len(self._lines)))
        number = self._lines[i]
        if self._pid != os.getpid():
            # A forked process shares the parent's file offsets.
            self._close()
            self._open()
        with self._lock:
            lines = []
            for k, fp in enumerate(self._fps):
                fp.seek(self._starts[k][number])
                lines.append(fp.readline())
        if len(lines) == 1:
            return lines[0]
        return tuple(lines)
