"""gradient_check on a backend whose arrays are an ndarray subclass and
whose xp is NumPy itself: the numerical gradient is taken on that device,
not on @numpy."""
import numpy

import chainer_core
import chainer_core.functions as F
from chainer_core import gradient_check


def test_check_backward_keeps_the_inputs_on_the_device(sandbox):
    sandbox.add_backend('tplug')
    device = chainer_core.get_device('tplug:0')
    x = device.send(numpy.linspace(-1, 1, 6, dtype=numpy.float32))
    gy = device.send(numpy.ones(6, numpy.float32))
    seen = set()

    def exp(v):
        seen.add(type(v.array))
        return F.exp(v)

    gradient_check.check_backward(exp, x, gy, dtype=numpy.float64,
                                  atol=1e-3, rtol=1e-3)
    assert seen == {type(x)}
