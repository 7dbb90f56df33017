"""NPZ serialization: models and optimizers to and from ``.npz`` files.

Files are read with ``allow_pickle=False``: loading never runs code. An
uninitialised parameter (None) is stored as an empty array of a marker
dtype, so no object arrays are needed.
"""
import os
import zipfile
import zlib

import numpy

from backend_api._host import device_from_array, host
from chainer_core import serializer
from chainer_core.serializers._atomic import write_atomic
from chainer_core.variable import Variable

_NONE_DTYPE = numpy.dtype([('chainer_core_none', 'u1')])

# What reading a damaged or foreign member of a zip archive raises.
_READ_ERRORS = (zipfile.BadZipFile, zlib.error, ValueError, OSError,
                EOFError)


def _is_none_marker(a):
    return isinstance(a, numpy.ndarray) and a.dtype == _NONE_DTYPE


def _to_host(value):
    """The host array stored for ``value`` (the None marker for None)."""
    if isinstance(value, Variable):
        value = value.array
    if value is None:
        return numpy.empty(0, dtype=_NONE_DTYPE)
    if isinstance(value, numpy.ndarray):
        arr = value
    elif hasattr(value, 'shape') and hasattr(value, 'dtype') and \
            not isinstance(value, numpy.generic):
        arr = host.parse_spec('@numpy').send(value)
    else:
        arr = numpy.asarray(value)
    if arr.dtype.kind == 'O':
        raise TypeError('cannot serialize a value of type {} without '
                        'pickling'.format(type(value).__name__))
    return arr


_SCALAR_TYPES = (bool, int, float, complex, numpy.generic)


def _assign(key, value, dataset):
    """Load the host array ``dataset`` (not the None marker) into
    ``value``: arrays are filled in place, other values are converted.
    Returns what the caller stores."""
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
    value_type = type(value)
    if isinstance(value, (str, bytes)) or \
            issubclass(value_type, _SCALAR_TYPES):
        if dataset.ndim != 0:
            raise ValueError(
                '{!r} holds an array of shape {} in the file, the object a '
                'scalar of type {}'.format(key, dataset.shape,
                                           value_type.__name__))
        if isinstance(value, str):
            return str(dataset.item())
        if isinstance(value, bytes):
            return bytes(dataset.item())
        # Python ints have unlimited precision: any integer fits.
        fits_int = dataset.dtype.kind in 'iu' and \
            issubclass(value_type, int) and not \
            issubclass(value_type, (bool, numpy.generic))
        if issubclass(dataset.dtype.type, numpy.number) and not fits_int \
                and not numpy.can_cast(dataset.dtype, value_type):
            raise TypeError('cannot load {!r} of dtype {} into a value of '
                            'type {}'.format(key, dataset.dtype,
                                             value_type.__name__))
        return value_type(dataset.item())
    return value_type(dataset)


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


def _ignored(ignore_names, key):
    if callable(ignore_names):
        return bool(ignore_names(key))
    return key in ignore_names


class NpzDeserializer(serializer.Deserializer):
    """Reads values from an opened npz (or any mapping of arrays).

    Args:
        npz: the result of ``numpy.load`` or a dict.
        path (str): the key prefix.
        strict (bool): a missing key is an error (else the value is kept).
        ignore_names (callable or list of str): full keys (path included)
            to leave untouched.
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

    def __call__(self, key, value):
        key = self.path + key.lstrip('/')
        if _ignored(self.ignore_names, key):
            return value
        # No `key in self.npz` first: NumPy < 1.25's NpzFile has no
        # __contains__, so the Mapping default would read the member outside
        # the handling of read errors below.
        try:
            dataset = self.npz[key]
        except KeyError:
            if not self.strict:
                return value
            raise KeyError('{!r} is not in the file (strict=True; pass '
                           'strict=False to keep the current value)'.format(
                               key)) from None
        except _READ_ERRORS as e:
            raise ValueError('cannot read {!r} from the npz file (truncated, '
                             'corrupted, or an object array that would need '
                             'pickle): {}'.format(key, e)) from e
        if not isinstance(dataset, numpy.ndarray):
            raise ValueError('{!r} in the npz file is not an array (.npy) '
                             'member'.format(key))
        if _is_none_marker(dataset):
            return None
        return _assign(key, value, dataset)


def _file_name(file):
    if isinstance(file, (str, os.PathLike)):
        return os.fspath(file)
    return getattr(file, 'name', repr(file))


def _open_npz(file):
    try:
        npz = numpy.load(file, allow_pickle=False)
    except _READ_ERRORS as e:
        if isinstance(e, (FileNotFoundError, IsADirectoryError,
                          PermissionError)):
            raise
        raise ValueError('{} is not a readable npz file (truncated, foreign '
                         'or corrupted): {}'.format(_file_name(file), e)) \
            from e
    if not isinstance(npz, numpy.lib.npyio.NpzFile):
        raise ValueError('{} holds a single array (.npy), not an npz '
                         'archive'.format(_file_name(file)))
    foreign = [n for n in npz.zip.namelist() if not n.endswith('.npy')]
    if foreign:
        npz.close()
        raise ValueError('{} is a zip archive but not an npz file: it has '
                         'members that are not arrays ({})'.format(
                             _file_name(file), ', '.join(foreign[:5])))
    return npz


def save_npz(file, obj, compression=True):
    """Save ``obj`` (a link, optimizer, ...) to an npz file.

    Args:
        file (str, path or file object): destination; a path is written
            atomically (temporary file and rename), so an error leaves any
            previous file as it was.
        obj: an object with ``serialize(serializer)``.
        compression (bool): zip-deflate the arrays.
    """
    s = DictionarySerializer()
    s.save(obj)
    save = numpy.savez_compressed if compression else numpy.savez
    if isinstance(file, (str, os.PathLike)):
        def write(tmp):
            with open(tmp, 'wb') as f:
                save(f, **s.target)

        write_atomic(file, write)
    else:
        save(file, **s.target)


def load_npz(file, obj, path='', strict=True, ignore_names=None):
    """Load ``obj`` from an npz file written by :func:`save_npz`.

    The file is read with ``allow_pickle=False``: a file that would need
    pickle (object arrays) is refused, so loading never runs code.

    Args:
        file (str, path or file object): source.
        obj: an object with ``serialize(serializer)``.
        path (str): load from this key prefix (e.g. ``'updater/model:main/'``
            to read a model out of a trainer snapshot).
        strict (bool): a key missing from the file is an error.
        ignore_names (callable or list of str): full keys (``path``
            included) not to load; a callable gets the key and returns
            True to skip it.

    Raises:
        ValueError: the file is not a readable npz (truncated, foreign,
            corrupted or holding object arrays), or a shape differs.
        KeyError: a key is missing (strict).
    """
    with _open_npz(file) as npz:
        NpzDeserializer(npz, path=path, strict=strict,
                        ignore_names=ignore_names).load(obj)
