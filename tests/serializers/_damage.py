"""Ways an npz file can be damaged or forged, for the tests that load one.

Each damage is a function ``damage(data, marker)`` of the bytes of a good
npz file (written by ``save_npz``) returning the damaged bytes and the key
whose member is damaged (None when the whole file is). ``marker`` is a
path that a pickle payload would create if code ran.
"""
import io
import os
import pickle
import struct
import zipfile

import numpy

# The size of the forged oversized members: small once deflated, yet more
# than PRETENDED_MEMORY.
BOMB_BYTES = 8 * 2 ** 20


class _Payload:
    """Unpickling it creates the folder ``marker``: proof that code ran."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def _first_key(data):
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return sorted(z.namelist())[0][:-len('.npy')]


def _rebuild(data, replace=None, add=None, compression=None):
    """``data`` written again, with some members' bytes replaced (by name),
    others added, and the first member compressed with ``compression``."""
    replace = replace or {}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, 'w') as dst:
        first = sorted(src.namelist())[0]
        for info in src.infolist():
            method = info.compress_type
            if compression is not None and info.filename == first:
                method = compression
            dst.writestr(info.filename,
                         replace.get(info.filename, src.read(info)),
                         compress_type=method)
        for name, member in (add or {}).items():
            dst.writestr(name, member, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _patch_central(data, name, offset, fmt, value):
    """Overwrite a field of the central directory entry of ``name`` (what
    zipfile trusts when reading); ``offset`` is from the entry's start."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        pos = z.start_dir
    data = bytearray(data)
    while data[pos:pos + 4] == b'PK\x01\x02':
        n, m, k = struct.unpack('<HHH', data[pos + 28:pos + 34])
        if data[pos + 46:pos + 46 + n].decode() == name:
            struct.pack_into(fmt, data, pos + offset, value)
            return bytes(data)
        pos += 46 + n + m + k
    raise AssertionError('no member ' + name)


def _npy(shape_text, dtype_text, body):
    header = "{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}" \
        .format(dtype_text, shape_text)
    header += ' ' * (63 - len(header) % 64) + '\n'
    return b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + \
        header.encode('latin1') + body


def truncated(data, marker):
    return data[:len(data) // 2], None


def empty(data, marker):
    return b'', None


def text(data, marker):
    return b'not an npz file at all', None


def pickled(data, marker):
    return pickle.dumps({'W': _Payload(marker)}), None


def single_npy(data, marker):
    buf = io.BytesIO()
    numpy.save(buf, numpy.zeros(3))
    return buf.getvalue(), None


def bad_crc(data, marker):
    key = _first_key(data)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        crc = z.getinfo(key + '.npy').CRC
    return _patch_central(data, key + '.npy', 16, '<I', crc ^ 1), key


def flipped_bytes(data, marker):
    key = _first_key(data)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        info = z.getinfo(key + '.npy')
    n, m = struct.unpack('<HH', data[info.header_offset + 26:
                                     info.header_offset + 30])
    start = info.header_offset + 30 + n + m
    data = bytearray(data)
    # Well inside the member's (compressed or stored) data.
    for i in range(start + info.compress_size // 4,
                   start + info.compress_size // 2):
        data[i] ^= 0xFF
    return bytes(data), key


def unknown_method(data, marker):
    key = _first_key(data)
    return _patch_central(data, key + '.npy', 10, '<H', 99), key


def lzma_member(data, marker):
    return _rebuild(data, compression=zipfile.ZIP_LZMA), _first_key(data)


def encrypted(data, marker):
    key = _first_key(data)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        flags = z.getinfo(key + '.npy').flag_bits
    return _patch_central(data, key + '.npy', 8, '<H', flags | 1), key


def foreign_member(data, marker):
    return _rebuild(data, add={'readme.txt': b'weights elsewhere'}), None


def member_not_npy(data, marker):
    key = _first_key(data)
    return _rebuild(data, replace={key + '.npy': b'not an array'}), key


def object_array(data, marker):
    key = _first_key(data)
    arr = numpy.empty(2, dtype=object)
    arr[0] = _Payload(marker)
    buf = io.BytesIO()
    numpy.save(buf, arr, allow_pickle=True)
    return _rebuild(data, replace={key + '.npy': buf.getvalue()}), key


def huge_shape(data, marker):
    key = _first_key(data)
    member = _npy('({},)'.format(10 ** 12), '<f8', b'\0' * 64)
    return _rebuild(data, replace={key + '.npy': member}), key


def short_data(data, marker):
    key = _first_key(data)
    member = _npy('(9,)', '<f8', b'\0' * 64)
    return _rebuild(data, replace={key + '.npy': member}), key


def size_lie(data, marker):
    # Some kilobytes of deflate that claim to expand to 4 GiB.
    key = _first_key(data)
    member = _npy('({},)'.format(BOMB_BYTES), '|u1', b'\0' * BOMB_BYTES)
    data = _rebuild(data, replace={key + '.npy': member},
                    compression=zipfile.ZIP_DEFLATED)
    return _patch_central(data, key + '.npy', 24, '<I', 0xFFFF0000), key


def larger_than_memory(data, marker):
    # Honest sizes, but more than the memory the tests pretend to have.
    key = _first_key(data)
    member = _npy('({},)'.format(BOMB_BYTES), '|u1', b'\0' * BOMB_BYTES)
    return _rebuild(data, replace={key + '.npy': member},
                    compression=zipfile.ZIP_DEFLATED), key


DAMAGES = {f.__name__: f for f in [
    truncated, empty, text, pickled, single_npy, bad_crc, flipped_bytes,
    unknown_method, lzma_member, encrypted, foreign_member, member_not_npy,
    object_array, huge_shape, short_data, size_lie, larger_than_memory]}

# The memory the tests make the loader believe the machine has: enough for
# any good file they write, not for BOMB_BYTES.
PRETENDED_MEMORY = BOMB_BYTES // 2
