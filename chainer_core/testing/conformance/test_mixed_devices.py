"""Inputs of one op on devices of two backends must raise
DeviceMismatchError naming both devices, never copy silently.

The one exception is Chainer's: NumPy arrays mix with arrays of a backend
whose arrays are NumPy arrays themselves (a subclass in host memory, as
``@intel64``'s), which they join without a copy."""
import itertools

import numpy
import pytest

import chainer_core.functions as F
from backend_api import DeviceMismatchError
from chainer_core.backend import available_devices, get_device
from chainer_core.testing.backend import discovered_devices

# Each device under test against one device of every other usable backend;
# pairs are ordered so that each backend's arrays appear on both sides of
# the op.
_TESTED = [get_device(spec) for spec in discovered_devices()]
_DEVICES = _TESTED + [d for d in available_devices() if d not in _TESTED]
_ORDERED = [(a, b) for a, b in itertools.permutations(_DEVICES, 2)
            if a.backend.name != b.backend.name
            and (a in _TESTED or b in _TESTED)]


def _host_subclass(device):
    return isinstance(device.send(numpy.zeros(1)), numpy.ndarray)


def _mixable(a, b):
    return 'numpy' in (a.backend.name, b.backend.name) and \
        _host_subclass(a) and _host_subclass(b)


_PAIRS = [pytest.param(a, b, id='{}+{}'.format(a.name, b.name))
          for a, b in _ORDERED if not _mixable(a, b)]
_MIXABLE = [pytest.param(a, b, id='{}+{}'.format(a.name, b.name))
            for a, b in _ORDERED if _mixable(a, b)]

_OPS = [
    ('add', lambda a, b: F.add(a((3, 4)), b((3, 4)))),
    ('matmul', lambda a, b: F.matmul(a((3, 4)), b((4, 2)))),
    ('linear', lambda a, b: F.linear(a((3, 4)), b((2, 4)), a((2,)))),
    ('mean_squared_error',
     lambda a, b: F.mean_squared_error(a((3, 4)), b((3, 4)))),
    ('softmax_cross_entropy',
     lambda a, b: F.softmax_cross_entropy(a((4, 3)), b((4,), numpy.int32))),
]


def _maker(device):
    def make(shape, dtype=numpy.float32):
        return device.send(numpy.zeros(shape, dtype=dtype))
    return make


@pytest.mark.skipif(not _PAIRS, reason='needs devices of two distinct '
                    'backends whose arrays do not mix')
@pytest.mark.parametrize('first, second', _PAIRS)
@pytest.mark.parametrize('op', [fn for _, fn in _OPS],
                         ids=[name for name, _ in _OPS])
def test_mixed_devices_raise(op, first, second):
    with pytest.raises(DeviceMismatchError) as info:
        op(_maker(first), _maker(second))
    message = str(info.value)
    assert first.name in message and second.name in message, message


@pytest.mark.skipif(not _MIXABLE,
                    reason='needs a backend whose arrays subclass ndarray')
@pytest.mark.parametrize('first, second', _MIXABLE)
@pytest.mark.parametrize('op', [fn for _, fn in _OPS],
                         ids=[name for name, _ in _OPS])
def test_numpy_mixes_with_host_subclass_arrays(op, first, second):
    numpy_device = first if first.backend.name == 'numpy' else second
    other = second if first is numpy_device else first
    expected = op(_maker(numpy_device), _maker(numpy_device))
    y = op(_maker(first), _maker(second))
    assert type(y.array) is type(other.send(numpy.zeros(1)))
    numpy.testing.assert_array_equal(numpy.asarray(y.array),
                                     numpy.asarray(expected.array))
