"""Devices and arrays (Chainer's ``chainer.backend``)."""
import numpy

from backend_api import DeviceBase as Device  # NOQA
from chainer_core._runtime.host import (  # NOQA
    device_from_array as _device_from_array, get_device, host,
    unavailable_reason as _unavailable_reason, using_device)
from chainer_core._numpy_backend import CpuDevice  # NOQA
from chainer_core.backends._chainer import (  # NOQA
    ChainerxDevice, GpuDevice, Intel64Device, from_chx, to_chx)


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


def get_device_from_array(*arrays):
    """The device the first array (or Variable) among ``arrays`` lives on;
    ``@numpy`` when none is given or all are None."""
    for a in arrays:
        a = _array_of(a)
        if a is not None:
            return _device_from_array(a)
    return get_device('@numpy')


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


def _backend_states():
    """``(backend, device 0 or None, why not)`` per discovered backend, in
    the order automatic selection tries them."""
    states = []
    for backend in host.ordered_backends():
        try:
            if not backend.is_available():
                states.append((backend, None, _unavailable_reason(backend)))
            elif backend.device_count() < 1:
                states.append((backend, None, 'the backend reports no device'))
            else:
                states.append((backend, backend.get_device(0), None))
        except Exception as e:
            states.append((backend, None, '{}: {}'.format(
                type(e).__name__, e)))
    return states


def available_devices():
    """The devices this installation can use, one per backend.

    Device 0 of every discovered backend that is available here, in the
    order automatic device selection tries them (``CHAINER_BACKENDS`` when
    set, otherwise by priority), so the first one is what
    :func:`get_device` picks by default. Discovers the plugins if that has
    not happened yet. A backend that is not available, has no device or
    raises while asked is left out; :func:`unavailable_backends` says why.

    Chainer v7 has no counterpart: its backends were fixed, here they are
    whatever is installed. The conformance kit
    (``chainer_core.testing.conformance``) runs on these devices.
    """
    return [device for _, device, _ in _backend_states()
            if device is not None]


def unavailable_backends():
    """``{backend name: reason}`` for every discovered backend that
    :func:`available_devices` leaves out (no driver, no device, a library
    that does not load...), in the same order."""
    return {backend.name: reason for backend, device, reason
            in _backend_states() if device is None}


def derivative_rules():
    """``{graph kernel name: backend_api.rules.Rule}``: the derivative rule
    of every op with a graph kernel, as the core declares it.

    A backend that records the graph itself executes these rules (see
    :mod:`backend_api.rules`); the names of the kernels they call are those
    of :func:`rule_kernels`.
    """
    from chainer_core._runtime import graphs
    return {s.name: s.derivative for s in graphs.specs()
            if s.derivative is not None}


def rule_kernels():
    """``{name: (array names, parameter names, number of outputs, doc)}``
    of every kernel a derivative rule may call."""
    from chainer_core._runtime import rules
    return {k: (s.arrays, s.params, s.n_outputs, s.doc)
            for k, s in rules.specs().items()}
