"""NPZ serialization: models and optimizers to and from ``.npz`` files.

Files are read with ``allow_pickle=False``: loading never runs code. An
uninitialised parameter (None) is stored as an empty array of a marker
dtype, so no object arrays are needed.
"""
import os
import tempfile
import zipfile

import numpy

from backend_api._host import device_from_array, host
from chainer_core import serializer
from chainer_core.variable import Variable

_NONE_DTYPE = numpy.dtype([('chainer_core_none', 'u1')])


def _is_none_marker(a):
    return isinstance(a, numpy.ndarray) and a.dtype == _NONE_DTYPE


def _to_host(value):
    if isinstance(value, Variable):
        value = value.array
    if value is None:
        return numpy.empty(0, dtype=_NONE_DTYPE)
    if isinstance(value, numpy.ndarray):
        return value
    if hasattr(value, 'shape') and hasattr(value, 'dtype') and \
            not isinstance(value, numpy.generic):
        return host.parse_spec('@numpy').send(value)
    arr = numpy.asarray(value)
    if arr.dtype.kind == 'O':
        raise TypeError('cannot serialize a value of type {} without '
                        'pickling'.format(type(value).__name__))
    return arr


class DictionarySerializer(serializer.Serializer):
    """Collects values into a flat dict keyed by ``path/key``.

    Args:
        target (dict): the dict to fill (a new one if None).
        path (str): the key prefix.
    """

    def __init__(self, target=None, path=''):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key):
        key = key.strip('/')
        return DictionarySerializer(self.target, self.path + key + '/')

    def __call__(self, key, value):
        key = key.lstrip('/')
        self.target[self.path + key] = _to_host(value)
        return value


class NpzDeserializer(serializer.Deserializer):
    """Reads values from an opened npz (or any mapping of arrays).

    Args:
        npz: the result of ``numpy.load`` or a dict.
        path (str): the key prefix.
        strict (bool): a missing key is an error (else the value is kept).
        ignore_names (callable or list of str): keys to leave untouched.
    """

    def __init__(self, npz, path='', strict=True, ignore_names=None):
        self.npz = npz
        self.path = path
        self.strict = strict
        if ignore_names is None:
            ignore_names = []
        self.ignore_names = ignore_names

    def __getitem__(self, key):
        key = key.strip('/')
        return NpzDeserializer(self.npz, self.path + key + '/',
                               strict=self.strict,
                               ignore_names=self.ignore_names)

    def _ignored(self, key):
        names = self.ignore_names
        if callable(names):
            return bool(names(key))
        return key in names

    def __call__(self, key, value):
        key = self.path + key.lstrip('/')
        if self._ignored(key):
            return value
        if key not in self.npz:
            if not self.strict:
                return value
            raise KeyError('{!r} is not in the file (strict=True; pass '
                           'strict=False to keep the current value)'.format(
                               key))
        dataset = self.npz[key]
        if _is_none_marker(dataset):
            return None
        if value is None:
            return dataset
        if isinstance(value, Variable):
            target = value.array
            if target is None:
                value.array = value.device.send(dataset.copy())
                return value
        else:
            target = value
        if hasattr(target, 'shape') and not isinstance(target, numpy.generic):
            if target.shape != dataset.shape:
                raise ValueError(
                    'shape of {!r} differs: the object has {}, the file {}'
                    .format(key, target.shape, dataset.shape))
            if isinstance(target, numpy.ndarray):
                numpy.copyto(target, dataset, casting='same_kind')
            else:
                target[...] = device_from_array(target).send(dataset)
            return value
        if isinstance(value, str):
            return str(dataset)
        return type(value)(dataset.item())


def _open_npz(file):
    try:
        return numpy.load(file, allow_pickle=False)
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as e:
        name = file if isinstance(file, (str, os.PathLike)) else \
            getattr(file, 'name', repr(file))
        raise ValueError('{} is not a readable npz file (truncated, foreign '
                         'or corrupted): {}'.format(name, e)) from e


def _write_atomic(path, writer):
    """Write through a temporary file in the same folder, then rename, so a
    crash never leaves a half-written file under ``path``."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix='.tmp-', suffix='.npz', dir=folder)
    try:
        with os.fdopen(fd, 'wb') as f:
            writer(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def save_npz(file, obj, compression=True):
    """Save ``obj`` (a link, optimizer, ...) to an npz file.

    Args:
        file (str, path or file object): destination; a path is written
            atomically (temporary file and rename).
        obj: an object with ``serialize(serializer)``.
        compression (bool): zip-deflate the arrays.
    """
    s = DictionarySerializer()
    s.save(obj)
    save = numpy.savez_compressed if compression else numpy.savez

    def write(f):
        save(f, **s.target)

    if isinstance(file, (str, os.PathLike)):
        _write_atomic(file, write)
    else:
        write(file)


def load_npz(file, obj, path='', strict=True, ignore_names=None):
    """Load ``obj`` from an npz file written by :func:`save_npz`.

    Args:
        file (str, path or file object): source.
        obj: an object with ``serialize(serializer)``.
        path (str): load from this key prefix (e.g. ``'updater/model:main/'``
            to read a model out of a trainer snapshot).
        strict (bool): a key missing from the file is an error.
        ignore_names (callable or list of str): keys not to load.

    Raises:
        ValueError: the file is not a readable npz, or a shape differs.
        KeyError: a key is missing (strict).
    """
    npz = _open_npz(file)
    with npz:
        try:
            NpzDeserializer(npz, path=path, strict=strict,
                            ignore_names=ignore_names).load(obj)
        except (zipfile.BadZipFile, EOFError, OSError) as e:
            raise ValueError('the npz file is truncated or corrupted: {}'
                             .format(e)) from e
