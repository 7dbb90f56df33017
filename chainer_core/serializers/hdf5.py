"""HDF5 serialization: models and optimizers to and from HDF5 files.

The object hierarchy maps onto HDF5 groups (``l1/W`` is the dataset ``W``
of the group ``l1``). None is stored as an HDF5 empty dataset and strings
as UTF-8 string datasets, so nothing is pickled and loading never runs
code. h5py is imported on first use; install it with the ``hdf5`` extra.
"""
import os

import numpy

from chainer_core import serializer
from chainer_core.serializers._atomic import write_atomic
from chainer_core.serializers.npz import (
    _assign, _ignored, _is_none_marker, _physical_memory, _to_host)


def _h5py():
    try:
        import h5py
    except ImportError as e:
        raise ImportError(
            'the HDF5 serializers need h5py, which is not installed: '
            'pip install "chainer-core[hdf5]" (the hdf5 extra) or pip '
            'install h5py') from e
    return h5py


class HDF5Serializer(serializer.Serializer):
    """Writes values into an HDF5 group; children become subgroups.

    Args:
        group (h5py.Group): the group to write into (an ``h5py.File`` for
            the root).
        compression (int): gzip level (0-9) of arrays with more than one
            element; None writes them uncompressed.
    """

    def __init__(self, group, compression=4):
        self.group = group
        self.compression = compression

    def __getitem__(self, key):
        return HDF5Serializer(self.group.require_group(key.strip('/')),
                              self.compression)

    def __call__(self, key, value):
        h5py = _h5py()
        key = key.strip('/')
        arr = _to_host(value)
        if _is_none_marker(arr):
            self.group.create_dataset(key, data=h5py.Empty('f'))
        elif arr.dtype.kind == 'U':
            self.group.create_dataset(
                key, data=arr.astype(object), dtype=h5py.string_dtype())
        else:
            # Scalar and empty datasets cannot be chunked, so they are not
            # compressed.
            compression = None if arr.size <= 1 else self.compression
            self.group.create_dataset(key, data=arr, compression=compression)
        return value


def _lookup(h5py, group, key):
    """The node at ``key`` below ``group``, None if there is none.

    Only hard links are followed: a soft or external link, like a dataset
    whose data lives in other files (external storage, virtual layout),
    could make loading read any file of the machine into a parameter.
    """
    node = group
    for name in filter(None, key.split('/')):
        if not isinstance(node, h5py.Group):
            return None
        link = node.get(name, getlink=True)
        if link is None:
            return None
        if not isinstance(link, h5py.HardLink):
            raise ValueError(
                '{!r} in the HDF5 file {} goes through {} {!r}, which is '
                'not followed: only what the file itself holds is '
                'loaded'.format(key, group.file.filename,
                                type(link).__name__, _link_target(link)))
        node = node[name]
    return node


def _link_target(link):
    path = getattr(link, 'path', None)
    filename = getattr(link, 'filename', None)
    return path if filename is None else '{}:{}'.format(filename, path)


def _read(h5py, key, node):
    """The host array (None for an empty dataset) held by ``node``."""
    filename = node.file.filename
    if not isinstance(node, h5py.Dataset):
        raise ValueError('{!r} in the HDF5 file {} is a group, not a value'
                         .format(key, filename))
    if node.is_virtual or node.external:
        raise ValueError(
            '{!r} in the HDF5 file {} keeps its data in other files ({}), '
            'which are not read'.format(
                key, filename,
                'virtual dataset' if node.is_virtual else 'external storage'))
    if node.shape is None:
        return None
    memory = _physical_memory()
    if memory is not None and node.size * node.dtype.itemsize > memory:
        raise ValueError('{!r} in the HDF5 file {} has shape {} of {}, more '
                         'than the memory of this machine'.format(
                             key, filename, node.shape, node.dtype))
    string = h5py.check_string_dtype(node.dtype)
    # Variable-length strings are what str values are written as; fixed
    # length ones come from bytes values and are read as bytes.
    if string is not None and string.length is None:
        text = node.asstr()[()]
        return numpy.array(text if isinstance(text, str) else text.tolist(),
                           dtype=str)
    if node.dtype.kind == 'O':
        raise ValueError('{!r} in the HDF5 file has the unsupported dtype {}'
                         .format(key, node.dtype))
    return numpy.asarray(node[()])


class HDF5Deserializer(serializer.Deserializer):
    """Reads values from an HDF5 group.

    Only what the file itself holds is read: a value reached through a
    soft or external link, or keeping its data in other files (external
    storage, virtual dataset), is a ValueError naming the key and the
    file.

    Args:
        group (h5py.Group): the group to read from.
        strict (bool): a missing key is an error (else the value is kept).
        ignore_names (callable or list of str): keys, relative to ``group``
            (with ``path``), to leave untouched.
        path (str): the prefix, relative to ``group``, of what is read:
            ``'updater/model:main'`` reads a model out of a trainer
            snapshot.
    """

    def __init__(self, group, strict=True, ignore_names=None, path=''):
        self.group = group
        self.strict = strict
        self.ignore_names = [] if ignore_names is None else ignore_names
        path = path.strip('/')
        self.path = path + '/' if path else ''

    def __getitem__(self, key):
        # Only a path is kept: a missing group is reported (or skipped)
        # per value, like a missing key, rather than when it is entered.
        return HDF5Deserializer(self.group, self.strict, self.ignore_names,
                                self.path + key.strip('/'))

    def __call__(self, key, value):
        h5py = _h5py()
        key = self.path + key.strip('/')
        if _ignored(self.ignore_names, key):
            return value
        try:
            node = _lookup(h5py, self.group, key)
            dataset = None if node is None else _read(h5py, key, node)
        except (OSError, RuntimeError, KeyError, MemoryError) as e:
            raise ValueError('cannot read {!r} from the HDF5 file (truncated '
                             'or corrupted): {}'.format(key, e)) from e
        if node is None:
            if not self.strict:
                return value
            raise KeyError('{!r} is not in the HDF5 file (strict=True; pass '
                           'strict=False to keep the current value)'.format(
                               key))
        if dataset is None or _is_none_marker(dataset):
            return None
        return _assign(key, value, dataset)


def _file_name(file):
    if isinstance(file, (str, os.PathLike)):
        return os.fspath(file)
    return getattr(file, 'name', repr(file))


def save_hdf5(filename, obj, compression=4):
    """Save ``obj`` (a link, optimizer, ...) to an HDF5 file.

    Args:
        filename (str, path or file object): destination; a path is written
            atomically (temporary file and rename), so an error leaves any
            previous file as it was. A file object must be opened for
            reading and writing in binary mode (``io.BytesIO`` works).
        obj: an object with ``serialize(serializer)``.
        compression (int): gzip level of the arrays (None: uncompressed).
    """
    h5py = _h5py()

    def write(target):
        with h5py.File(target, 'w') as f:
            HDF5Serializer(f, compression=compression).save(obj)

    if isinstance(filename, (str, os.PathLike)):
        write_atomic(filename, write)
    else:
        write(filename)


def load_hdf5(filename, obj, path='', strict=True, ignore_names=None):
    """Load ``obj`` from an HDF5 file written by :func:`save_hdf5`.

    Args:
        filename (str, path or file object): source.
        obj: an object with ``serialize(serializer)``.
        path (str): the group to load from (e.g. ``'updater/model:main'``
            to read a model out of a trainer snapshot).
        strict (bool): a key missing from the file is an error.
        ignore_names (callable or list of str): keys (``path`` included)
            not to load; a callable gets the key and returns True to skip
            it.

    Raises:
        ImportError: h5py is not installed.
        ValueError: the file is not a readable HDF5 file (truncated,
            foreign or corrupted), a value is reached through a soft or
            external link or keeps its data in other files (external
            storage, virtual dataset): only what the file itself holds is
            read; or a shape differs.
        KeyError: a key is missing (strict).
    """
    h5py = _h5py()
    if isinstance(filename, (str, os.PathLike)):
        # Not-found and permission errors as they are, before h5py turns
        # them into its own messages.
        with open(filename, 'rb'):
            pass
    try:
        f = h5py.File(filename, 'r')
    except OSError as e:
        raise ValueError('{} is not a readable HDF5 file (truncated, foreign '
                         'or corrupted): {}'.format(_file_name(filename), e)) \
            from e
    with f:
        HDF5Deserializer(f, strict=strict, ignore_names=ignore_names,
                         path=path).load(obj)
