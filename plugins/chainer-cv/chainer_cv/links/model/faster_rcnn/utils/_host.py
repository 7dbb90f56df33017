import numpy

import chainer_core as chainer
from chainer_core.backend import CpuDevice
from chainer_core.backend import get_device_from_array


def to_host(x):
    """``x`` (an array on any device, a Variable or a number) as a NumPy
    array: the box bookkeeping runs on the host."""
    if isinstance(x, chainer.Variable):
        x = x.array
    if isinstance(x, numpy.ndarray) or not hasattr(x, 'shape'):
        return numpy.asarray(x)
    return CpuDevice().send(x)


def like(x, reference):
    """``x`` (NumPy) sent to the device of ``reference``."""
    if isinstance(reference, numpy.ndarray):
        return x
    return get_device_from_array(reference).send(x)
