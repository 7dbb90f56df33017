"""Host copies of device arrays and NumPy versions of links, for the tests
that check models against NumPy computations with their own weights."""
import numpy

import chainer_core as chainer


def host(x):
    """A NumPy copy of an array or Variable of any device."""
    array = x.array if isinstance(x, chainer.Variable) else x
    return numpy.asarray(chainer.get_device('@numpy').send(array))


def linear_np(link, x):
    """``link`` (an ``L.Linear``) applied to the host array ``x``."""
    y = x @ host(link.W).T
    return y if link.b is None else y + host(link.b)
