"""A reader of MATLAB level 5 MAT-files (the format of ``save -v7`` and
earlier), enough for numeric arrays: no SciPy needed.

Layout: a 128-byte header (text, subsystem offset, version 0x0100 and the
endianness mark ``IM``/``MI``), then data elements, each an 8-byte tag
(type, byte count) with its data padded to 8 bytes, or a "small" element
whose count and type share the first 4 bytes and whose data fill the next
4. ``miCOMPRESSED`` elements hold one zlib-compressed element;
``miMATRIX`` elements hold the array flags, the dimensions, the name and
the real (and imaginary) part, stored column-major, possibly in a narrower
type than the array's class.
"""
import zlib

import numpy

_MI_MATRIX = 14
_MI_COMPRESSED = 15

# Data element types (miINT8 ...) and the dtypes of their contents.
_MI_TYPES = {1: 'i1', 2: 'u1', 3: 'i2', 4: 'u2', 5: 'i4', 6: 'u4', 7: 'f4',
             9: 'f8', 12: 'i8', 13: 'u8', 16: 'u1', 17: 'u2', 18: 'u4'}

# Numeric array classes (mxDOUBLE_CLASS ...) and their dtypes.
_MX_CLASSES = {6: 'f8', 7: 'f4', 8: 'i1', 9: 'u1', 10: 'i2', 11: 'u2',
               12: 'i4', 13: 'u4', 14: 'i8', 15: 'u8'}
_MX_CHAR = 4
_MX_NAMES = {1: 'cell array', 2: 'struct', 3: 'object', 5: 'sparse array',
             16: 'function handle', 17: 'opaque object'}
_FLAG_COMPLEX = 0x800
_FLAG_LOGICAL = 0x200


class _Reader:
    def __init__(self, data, endian, path):
        self.data = data
        self.endian = endian
        self.path = path

    def error(self, message):
        return ValueError('{} is not a readable MAT-file: {}'.format(
            self.path, message))

    def elements(self, start, stop):
        """``(type, payload)`` of the data elements in
        ``data[start:stop]``."""
        pos = start
        while pos < stop:
            if stop - pos < 8:
                raise self.error('truncated element at byte {}'.format(pos))
            first, second = numpy.frombuffer(self.data, self.endian + 'u4', 2,
                                             pos)
            first = int(first)
            if first >> 16:
                kind, size = first & 0xffff, first >> 16
                if size > 4:
                    raise self.error('bad small element at byte {}'.format(
                        pos))
                yield kind, self.data[pos + 4:pos + 4 + size]
                pos += 8
                continue
            kind, size = first, int(second)
            begin = pos + 8
            if begin + size > stop:
                raise self.error('element at byte {} runs past the end'
                                 .format(pos))
            yield kind, self.data[begin:begin + size]
            # Compressed elements are not padded.
            pos = begin + size if kind == _MI_COMPRESSED else \
                begin + (size + 7) // 8 * 8

    def numbers(self, kind, payload):
        code = _MI_TYPES.get(kind)
        if code is None:
            raise self.error('unknown data type {}'.format(kind))
        dtype = numpy.dtype(code).newbyteorder(self.endian)
        return numpy.frombuffer(payload, dtype,
                                len(payload) // dtype.itemsize)

    def matrix(self, payload):
        """``(name, array)``; ``array`` is None for unsupported classes,
        with ``name`` then paired with the class description."""
        sub = _Reader(payload, self.endian, self.path)
        parts = list(sub.elements(0, len(payload)))
        if not parts:
            return None, None
        if len(parts) < 3:
            raise self.error('a matrix element lacks its header parts')
        flags = int(sub.numbers(*parts[0])[0])
        mx_class = flags & 0xff
        name = bytes(parts[2][1]).decode('ascii', 'replace')
        if mx_class not in _MX_CLASSES and mx_class != _MX_CHAR:
            return name, _MX_NAMES.get(mx_class, 'class {}'.format(mx_class))
        dims = tuple(int(d) for d in sub.numbers(*parts[1]))
        if len(parts) < 4:
            raise self.error('the matrix {!r} has no data'.format(name))
        real = sub.numbers(*parts[3])
        count = int(numpy.prod(dims))
        if len(real) != count:
            raise self.error('the matrix {!r} has {} values for dimensions '
                             '{}'.format(name, len(real), dims))
        if mx_class == _MX_CHAR:
            array = real.astype(numpy.uint32).view('U1')
            return name, array.reshape(dims, order='F')
        array = real.astype(_MX_CLASSES[mx_class])
        if flags & _FLAG_COMPLEX:
            if len(parts) < 5:
                raise self.error('the complex matrix {!r} has no imaginary '
                                 'part'.format(name))
            imag = sub.numbers(*parts[4])
            array = array + 1j * imag.astype(array.dtype)
        if flags & _FLAG_LOGICAL:
            array = array.astype(bool)
        return name, array.reshape(dims, order='F')


def load_mat(path):
    """The numeric and character arrays of a level 5 MAT-file.

    Args:
        path (str): the file.

    Returns:
        dict: variable name to array (in MATLAB's shape, native byte
        order). Cell arrays, structs, objects and sparse arrays are left
        out.

    Raises:
        ValueError: the file is not a level 5 MAT-file (for example a v7.3
            file, which is HDF5) or is damaged.
    """
    with open(path, 'rb') as f:
        data = memoryview(f.read())
    if data[:8] == b'\x89HDF\r\n\x1a\n' or data[512:520] == \
            b'\x89HDF\r\n\x1a\n':
        raise ValueError('{} is a MATLAB v7.3 (HDF5) file; only level 5 '
                         'MAT-files (v7 and earlier) are read'.format(path))
    if len(data) < 128:
        raise ValueError('{} is not a MAT-file: too short'.format(path))
    mark = bytes(data[126:128])
    if mark == b'IM':
        endian = '<'
    elif mark == b'MI':
        endian = '>'
    else:
        raise ValueError('{} is not a level 5 MAT-file (no endianness mark '
                         'in its header)'.format(path))
    version = int(numpy.frombuffer(data, endian + 'u2', 1, 124)[0])
    if version != 0x0100:
        raise ValueError('{}: unknown MAT-file version {:#06x}'.format(
            path, version))
    reader = _Reader(data, endian, path)
    arrays = {}
    for kind, payload in reader.elements(128, len(data)):
        if kind == _MI_COMPRESSED:
            try:
                inner = zlib.decompress(payload)
            except zlib.error as e:
                raise reader.error('bad compressed element: {}'.format(e))
            sub = _Reader(memoryview(inner), endian, path)
            found = list(sub.elements(0, len(inner)))
        else:
            sub, found = reader, [(kind, payload)]
        for inner_kind, inner_payload in found:
            if inner_kind != _MI_MATRIX:
                continue
            name, array = sub.matrix(inner_payload)
            if isinstance(array, numpy.ndarray):
                arrays[name] = array
    return arrays
