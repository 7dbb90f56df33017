"""Datasets of image files, loose or in zip archives.

Images are read on access and returned as arrays of shape
``(channels, height, width)`` (1 channel for grey-scale, 3 for RGB, 4 for
RGBA). PNG, JPEG and the other formats Pillow knows need Pillow
(``pip install Pillow``); ``.npy`` files holding an ``(H, W)`` or
``(H, W, C)`` array are read without it.
"""
import bisect
import io
import os
import threading
import zipfile

import numpy

from chainer_core.dataset.dataset_mixin import DatasetMixin
from chainer_core.datasets._retrieve import get_dtype


def _pillow_image():
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError(
            'reading PNG, JPEG and other image files needs Pillow: pip '
            'install Pillow (.npy files are read without it)') from e
    return Image


def _read_image(source, name, dtype):
    """``source`` (a path or a binary file) as a CHW array; ``name`` tells
    the format."""
    if name.lower().endswith('.npy'):
        image = numpy.load(source, allow_pickle=False).astype(dtype,
                                                              copy=False)
        if image.ndim not in (2, 3):
            raise ValueError('{} holds an array of shape {}; an image is '
                             '(H, W) or (H, W, C)'.format(name, image.shape))
    else:
        with _pillow_image().open(source) as f:
            image = numpy.asarray(f, dtype=dtype)
    if image.ndim == 2:
        image = image[:, :, None]
    return image.transpose(2, 0, 1)


def _read_lines(path):
    with open(path) as f:
        return [line.strip() for line in f]


def _read_pairs(path):
    pairs = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            fields = line.rsplit(None, 1)
            try:
                if len(fields) != 2:
                    raise ValueError
                pairs.append((fields[0], int(fields[1])))
            except ValueError:
                raise ValueError(
                    'line {} of {} is not "<path> <integer label>": {!r}'
                    .format(number, path, line)) from None
    return pairs


class ImageDataset(DatasetMixin):
    """Images read from files on each access.

    Args:
        paths (str or list of str): the image paths, relative to ``root``,
            or the path of a text file listing them one a line.
        root (str): the directory the paths are relative to.
        dtype: the array dtype (default: ``config.dtype``).
    """

    def __init__(self, paths, root='.', dtype=None):
        if isinstance(paths, (str, os.PathLike)):
            paths = [p for p in _read_lines(paths) if p]
        self._paths = list(paths)
        self._root = root
        self._dtype = get_dtype(dtype)

    def __len__(self):
        return len(self._paths)

    def get_example(self, i):
        path = os.path.join(self._root, self._paths[i])
        return _read_image(path, path, self._dtype)


class LabeledImageDataset(DatasetMixin):
    """``(image, label)`` pairs; images are read from files on access.

    Args:
        pairs (str or list of tuple): ``(path, label)`` pairs with paths
            relative to ``root``, or the path of a text file with one
            ``<path> <label>`` line per example (the format Caffe uses).
        root (str): the directory the paths are relative to.
        dtype: the image dtype (default: ``config.dtype``).
        label_dtype: the label dtype (labels are 0-d arrays).
    """

    def __init__(self, pairs, root='.', dtype=None, label_dtype=numpy.int32):
        if isinstance(pairs, (str, os.PathLike)):
            pairs = _read_pairs(pairs)
        self._pairs = list(pairs)
        self._root = root
        self._dtype = get_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        full_path = os.path.join(self._root, path)
        image = _read_image(full_path, full_path, self._dtype)
        return image, numpy.array(label, dtype=self._label_dtype)


class ZippedImageDataset(DatasetMixin):
    """The images of a zip archive, in the archive's order.

    Every file of the archive (directories aside) is an example. The
    archive is reopened in each process that reads it (worker processes of
    :class:`~chainer_core.iterators.MultiprocessIterator` included), and
    the dataset pickles without its open file.

    Args:
        zipfilename (str): the archive.
        dtype: the array dtype (default: ``config.dtype``).
    """

    def __init__(self, zipfilename, dtype=None):
        self._zipfilename = zipfilename
        self._dtype = get_dtype(dtype)
        self._zf = zipfile.ZipFile(zipfilename)
        self._zf_pid = os.getpid()
        self._paths = [name for name in self._zf.namelist()
                       if not name.endswith('/')]
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._paths)

    def __getstate__(self):
        state = self.__dict__.copy()
        state['_zf'] = None
        state['_lock'] = None
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self._lock = threading.Lock()

    def _read(self, name):
        if self._zf_pid != os.getpid():
            # A forked process shares the parent's file offset and may have
            # inherited a held lock: it gets both afresh.
            self._lock = threading.Lock()
            self._zf = None
            self._zf_pid = os.getpid()
        with self._lock:
            if self._zf is None:
                self._zf = zipfile.ZipFile(self._zipfilename)
            return self._zf.read(name)

    def get_example(self, i_or_filename):
        """The image at index ``i`` or of the member named so."""
        if isinstance(i_or_filename, str):
            name = i_or_filename
        else:
            name = self._paths[i_or_filename]
        return _read_image(io.BytesIO(self._read(name)), name, self._dtype)


class LabeledZippedImageDataset(DatasetMixin):
    """``(image, label)`` pairs with the images in a zip archive.

    Args:
        zipfilename (str): the archive.
        labelfilename (str): a text file of ``<member name> <label>`` lines,
            one per example.
        dtype: the image dtype (default: ``config.dtype``).
        label_dtype: the label dtype.
    """

    def __init__(self, zipfilename, labelfilename, dtype=None,
                 label_dtype=numpy.int32):
        self._pairs = _read_pairs(labelfilename)
        self._label_dtype = label_dtype
        self._zipfile = ZippedImageDataset(zipfilename, dtype=dtype)

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        name, label = self._pairs[i]
        return (self._zipfile.get_example(name),
                numpy.array(label, dtype=self._label_dtype))


class MultiZippedImageDataset(DatasetMixin):
    """The images of several zip archives, one after another.

    Args:
        zipfilenames (list of str): the archives.
        dtype: the array dtype (default: ``config.dtype``).
    """

    def __init__(self, zipfilenames, dtype=None):
        self._zfs = [ZippedImageDataset(name, dtype) for name in zipfilenames]
        self._ends = []
        total = 0
        for zf in self._zfs:
            total += len(zf)
            self._ends.append(total)

    def __len__(self):
        return self._ends[-1] if self._ends else 0

    def get_example(self, i):
        which = bisect.bisect_right(self._ends, i)
        start = self._ends[which - 1] if which else 0
        return self._zfs[which].get_example(i - start)
