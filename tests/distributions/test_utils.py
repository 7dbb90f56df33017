"""chainer_core.distributions.utils.ModifiedXLogX, checked against Chainer
7.8.1."""
import numpy

import chainer_core as chainer
from chainer_core.distributions import utils
import chainer_core.functions as F


def _x():
    return chainer.Variable(numpy.array([0., .5, 1., 2.], numpy.float32))


def _safe_log(x):
    return F.log(F.where(x.array == 0, numpy.ones(4, numpy.float32), x))


def test_forward_and_backward():
    x = _x()
    y, = utils.ModifiedXLogX(_safe_log(x)).apply((x,))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(
        y.array, [0., .5 * numpy.log(.5), 0., 2 * numpy.log(2.)], rtol=1e-6)
    y.grad = numpy.ones(4, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(
        x.grad, [0., numpy.log(.5) + 1, 1., numpy.log(2.) + 1], rtol=1e-6)


def test_double_backprop():
    x = _x()
    y, = utils.ModifiedXLogX(_safe_log(x)).apply((x,))
    gx, = chainer.grad([F.sum(y)], [x], enable_double_backprop=True)
    x.cleargrad()
    F.sum(gx).backward()
    numpy.testing.assert_allclose(x.grad, [0., 2., 1., .5], rtol=1e-6)
