"""An output gradient set through ``grad_var`` that requires grad is part of
the double-backprop graph on every device (Chainer: ``gy.grad`` is filled)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

SPECS = ['@numpy', 'native:0', '@intel64']


@pytest.fixture(params=SPECS)
def device(request):
    try:
        return chainer.get_device(request.param)
    except Exception as e:
        pytest.skip('{} is not available: {}'.format(request.param, e))


def _host(a):
    return numpy.asarray(chainer.get_device('@numpy').send(a))


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_grad_var_of_the_output_is_differentiated(device, dtype):
    x = chainer.Variable(device.send(numpy.array([1., 2., 3.], dtype)))
    gy = chainer.Variable(device.send(numpy.array([1., 1., 2.], dtype)))
    y = x * x
    y.grad_var = gy
    y.backward(enable_double_backprop=True)
    gx = x.grad_var
    numpy.testing.assert_allclose(_host(gx.array), [2., 4., 12.])
    x.cleargrad()
    F.sum(gx * gx).backward()
    # d/dx sum((2 x gy)^2) = 8 x gy^2; d/dgy = 8 x^2 gy
    numpy.testing.assert_allclose(_host(x.grad), [8., 16., 96.])
    numpy.testing.assert_allclose(_host(gy.grad), [8., 32., 144.])


def test_a_constant_grad_var_stays_out_of_the_graph(device):
    x = chainer.Variable(device.send(numpy.array([1., 2.])))
    gy = chainer.Variable(device.send(numpy.array([3., 4.])),
                          requires_grad=False)
    y = x * x
    y.grad_var = gy
    y.backward(enable_double_backprop=True)
    F.sum(x.grad_var).backward()
    assert gy.grad is None
    # 2 x gy from the first pass, plus d/dx sum(2 x gy) = 2 gy
    numpy.testing.assert_allclose(_host(x.grad), [12., 24.])
