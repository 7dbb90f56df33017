"""Devices and arrays (Chainer's ``chainer.backend``)."""
import numpy

from backend_api import DeviceBase as Device  # NOQA
from backend_api._host import (  # NOQA
    device_from_array as _device_from_array, get_device, host, using_device)
from chainer_core._numpy_backend import CpuDevice  # NOQA


def _array_of(x):
    from chainer_core.variable import Variable
    return x._data if isinstance(x, Variable) else x


def get_array_module(*args):
    """The array namespace (``numpy``, ``cupy`` ...) of the given arrays.

    Variables count by their arrays; anything that is not an array is
    ignored. NumPy when no argument is a non-NumPy array.
    """
    for a in args:
        a = _array_of(a)
        if a is None or type(a) is numpy.ndarray or \
                not hasattr(a, 'shape'):
            continue
        try:
            return host.device_from_array(a).xp
        except TypeError:
            continue
    return numpy


def get_device_from_array(array):
    """The device an array (or a Variable's array) lives on."""
    return _device_from_array(_array_of(array))


def is_arrays_compatible(arrays):
    """Whether all arrays (None ignored) live on one backend."""
    types = {type(a) for a in arrays if a is not None}
    if len(types) <= 1:
        return True
    return len({host.backend_for_array(a) for a in arrays
                if a is not None}) == 1


def copyto(dst, src):
    """Copy ``src`` into ``dst`` across devices."""
    src = get_device_from_array(dst).send(src)
    if type(dst) is numpy.ndarray:
        numpy.copyto(dst, src)
    else:
        dst[...] = src
