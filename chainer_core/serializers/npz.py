"""NPZ serialization: models and optimizers to and from ``.npz`` files.

Files are read with ``allow_pickle=False``: loading never runs code. An
uninitialised parameter (None) is stored as an empty array of a marker
dtype, so no object arrays are needed.
"""
import os
import zipfile
import zlib

import numpy

from chainer_core._runtime.host import device_from_array, host
from chainer_core import serializer
from chainer_core.serializers._atomic import write_atomic
from chainer_core.variable import Variable

_NONE_DTYPE = numpy.dtype([('chainer_core_none', 'u1')])

# What reading a damaged or foreign member of a zip archive raises
# (NotImplementedError: an unknown compression method; RuntimeError: an
# encrypted member).
_READ_ERRORS = (zipfile.BadZipFile, zlib.error, ValueError, OSError,
                EOFError, NotImplementedError, RuntimeError, MemoryError)

# Deflate cannot expand data by more than this factor, so a member that
# declares more is lying about its size (a zip bomb or a damaged header).
_DEFLATE_MAX_RATIO = 1032
# Zip data descriptors and tiny members can beat the ratio by a few bytes.
_DEFLATE_SLACK = 1024


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
        except _DamagedFileError:
            raise
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


def _physical_memory():
    try:
        return os.sysconf('SC_PHYS_PAGES') * os.sysconf('SC_PAGE_SIZE')
    except (AttributeError, ValueError, OSError):
        return None


def _head(file, n):
    if isinstance(file, (str, os.PathLike)):
        with open(file, 'rb') as f:
            return f.read(n)
    pos = file.tell()
    try:
        return file.read(n)
    finally:
        file.seek(pos)


class _DamagedFileError(ValueError):
    """A file that is not a readable npz archive (truncated, corrupted,
    foreign, or needing pickle); the message names the file (and key)."""


class _NpzArchive:
    """The arrays of an npz archive, by key (``files`` lists the keys).

    Unlike ``numpy.load``, each member is checked against what it declares
    (compression method, sizes, the .npy header) before its array is
    allocated or its data decompressed, so a damaged or hostile file gives a
    :class:`_DamagedFileError` rather than another exception, a pickle
    load, or an allocation of the size it claims.
    """

    def __init__(self, file):
        self.name = _file_name(file)
        try:
            if _head(file, 6) == b'\x93NUMPY':
                raise self._error('it holds a single array (.npy), not an '
                                  'npz archive')
            self.zip = zipfile.ZipFile(file)
        except _READ_ERRORS as e:
            if isinstance(e, (FileNotFoundError, IsADirectoryError,
                              PermissionError, _DamagedFileError)):
                raise
            raise self._error('{}: {}'.format(type(e).__name__, e)) from e
        try:
            self._members = self._check_members()
        except _DamagedFileError:
            self.zip.close()
            raise
        self.files = list(self._members)

    def _error(self, detail, key=None):
        what = 'the file' if key is None else repr(key)
        return _DamagedFileError(
            '{} is not a readable npz file: {} is truncated, corrupted or '
            'foreign: {}'.format(self.name, what, detail))

    def _check_members(self):
        members = {}
        foreign = []
        for info in self.zip.infolist():
            if not info.filename.endswith('.npy'):
                foreign.append(info.filename)
                continue
            key = info.filename[:-len('.npy')]
            if info.flag_bits & 0x1:
                raise self._error('the member is encrypted', key)
            if info.compress_type == zipfile.ZIP_STORED:
                consistent = info.file_size == info.compress_size
            elif info.compress_type == zipfile.ZIP_DEFLATED:
                consistent = info.file_size <= \
                    _DEFLATE_MAX_RATIO * info.compress_size + _DEFLATE_SLACK
            else:
                raise self._error('the member uses the compression method '
                                  '{}, not stored or deflate'.format(
                                      info.compress_type), key)
            if not consistent:
                raise self._error(
                    'the member declares {} bytes from {} compressed bytes, '
                    'more than its compression can produce'.format(
                        info.file_size, info.compress_size), key)
            members[key] = info
        if foreign:
            raise self._error('it is a zip archive but not an npz file: it '
                              'has members that are not arrays ({})'.format(
                                  ', '.join(foreign[:5])))
        return members

    def __getitem__(self, key):
        info = self._members[key]
        self.nbytes(key)
        try:
            with self.zip.open(info) as f:
                array = numpy.lib.format.read_array(f, allow_pickle=False)
                # Reading to the end makes zipfile verify the checksum.
                if f.read(1):
                    raise ValueError('data after the array')
        except _READ_ERRORS as e:
            raise self._error('{}: {}'.format(type(e).__name__, e), key) \
                from e
        return array

    def nbytes(self, key):
        """The size of the array ``key``, from its checked .npy header."""
        info = self._members[key]
        try:
            with self.zip.open(info) as f:
                return self._check_header(key, info, f)
        except _READ_ERRORS as e:
            if isinstance(e, _DamagedFileError):
                raise
            raise self._error('{}: {}'.format(type(e).__name__, e), key) \
                from e

    def _check_header(self, key, info, f):
        version = numpy.lib.format.read_magic(f)
        if version == (1, 0):
            header = numpy.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            header = numpy.lib.format.read_array_header_2_0(f)
        else:
            raise self._error('unsupported .npy format version {}.{}'.format(
                *version), key)
        shape, _, dtype = header
        if dtype.hasobject:
            raise self._error('an array of dtype {}, which would need pickle '
                              'to load'.format(dtype), key)
        if any(n < 0 for n in shape):
            raise self._error('negative shape {}'.format(shape), key)
        nbytes = dtype.itemsize
        for n in shape:
            nbytes *= n
        if f.tell() + nbytes != info.file_size:
            raise self._error(
                'its header declares shape {} of {} ({} bytes) but the '
                'member holds {} bytes of data'.format(
                    shape, dtype, nbytes, info.file_size - f.tell()), key)
        memory = _physical_memory()
        if memory is not None and nbytes > memory:
            raise self._error('shape {} of {} needs {} bytes, more than the '
                              'memory of this machine'.format(
                                  shape, dtype, nbytes), key)
        return nbytes

    def close(self):
        self.zip.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


def _read_all(file):
    """Every array of the npz file ``file``, read (and checksummed) before
    anything is loaded, so a damaged file changes nothing.

    Raises:
        _DamagedFileError: the file is not a readable npz file.
    """
    with _NpzArchive(file) as archive:
        total = sum(archive.nbytes(key) for key in archive.files)
        memory = _physical_memory()
        if memory is not None and total > memory:
            raise archive._error('its arrays need {} bytes, more than the '
                                 'memory of this machine'.format(total))
        return {key: archive[key] for key in archive.files}


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
    with _NpzArchive(file) as npz:
        NpzDeserializer(npz, path=path, strict=strict,
                        ignore_names=ignore_names).load(obj)
