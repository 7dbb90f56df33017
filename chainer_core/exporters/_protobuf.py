"""The protocol-buffers wire format, as far as Caffe's model files need it.

A message is built as a list of ``(field number, value)`` pairs and
encoded with :func:`message`; values are typed by wrapping them:
:class:`Varint` (ints, bools, enums), :class:`Float32`, :class:`Packed`
(repeated numbers in one length-delimited field), ``bytes``/``str``
(length-delimited) and nested lists (sub-messages).
"""
import struct

import numpy

_VARINT, _FIXED32, _LENGTH = 0, 5, 2


class Varint(int):
    """An integer field (int32/int64/uint32/bool/enum)."""


class Float32(float):
    """A ``float`` field (4 bytes, little-endian)."""


class Packed:
    """A packed repeated field: ``kind`` is ``'float'`` or ``'int64'``."""

    def __init__(self, kind, values):
        self.kind = kind
        self.values = values


def _varint(n):
    # Negative int32/int64 values are sent as 64-bit two's complement.
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        low = n & 0x7f
        n >>= 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _tag(number, wire_type):
    return _varint((number << 3) | wire_type)


def _length_delimited(number, payload):
    return _tag(number, _LENGTH) + _varint(len(payload)) + payload


def message(fields):
    """Encode ``[(number, value), ...]`` as a message (bytes).

    Args:
        fields (list): pairs of field number and typed value (see the
            module's description); a ``list`` value is a sub-message.

    Returns:
        bytes: the encoded message.
    """
    out = []
    for number, value in fields:
        if isinstance(value, Varint):
            out.append(_tag(number, _VARINT) + _varint(int(value)))
        elif isinstance(value, Float32):
            out.append(_tag(number, _FIXED32) + struct.pack('<f', value))
        elif isinstance(value, Packed):
            if value.kind == 'float':
                payload = numpy.ascontiguousarray(
                    value.values, dtype='<f4').tobytes()
            else:
                payload = b''.join(_varint(int(v)) for v in value.values)
            out.append(_length_delimited(number, payload))
        elif isinstance(value, str):
            out.append(_length_delimited(number, value.encode('utf-8')))
        elif isinstance(value, bytes):
            out.append(_length_delimited(number, value))
        elif isinstance(value, list):
            out.append(_length_delimited(number, message(value)))
        else:
            raise TypeError('protobuf: field {} has an untyped value {!r}'
                            .format(number, value))
    return b''.join(out)
