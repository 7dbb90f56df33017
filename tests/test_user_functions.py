"""User-written functions in Chainer v7's styles, and Chainer's gradient
bookkeeping, on every installed device.

``FunctionNode`` subclasses that define only ``forward_cpu`` (and
``forward_gpu``) and old-style ``Function`` subclasses with
``forward_cpu``/``backward_cpu`` are what most user code defines.
"""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core.testing.backend import device_params


def _host(a):
    return numpy.asarray(chainer.backend.CpuDevice().send(a))


class _Square(chainer.FunctionNode):

    def forward_cpu(self, inputs):
        x, = inputs
        assert isinstance(x, numpy.ndarray)
        self.retain_inputs((0,))
        return numpy.square(x),

    def forward_gpu(self, inputs):
        raise AssertionError('forward_gpu called for CPU arrays')

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return 2.0 * x * grad_outputs[0],


class _OldSquare(chainer.Function):

    def forward_cpu(self, inputs):
        assert isinstance(inputs[0], numpy.ndarray)
        return numpy.square(inputs[0]),

    def backward_cpu(self, inputs, grad_outputs):
        assert isinstance(inputs[0], numpy.ndarray)
        assert isinstance(grad_outputs[0], numpy.ndarray)
        return 2 * inputs[0] * grad_outputs[0],


class _ForwardOnly(chainer.FunctionNode):
    pass


@pytest.mark.parametrize('device', device_params())
class TestChainerStyleFunctions:

    def _x(self, device):
        return chainer.Variable(device.send(
            numpy.array([1.0, -2.0, 3.0], numpy.float32)))

    def test_function_node_with_forward_cpu(self, device):
        x = self._x(device)
        y, = _Square().apply((x,))
        assert chainer.backend.get_device_from_array(y.array) == device
        F.sum(y).backward()
        numpy.testing.assert_allclose(_host(y.array), [1, 4, 9])
        numpy.testing.assert_allclose(_host(x.grad), [2, -4, 6])

    def test_old_style_function_with_forward_cpu(self, device):
        x = self._x(device)
        y = _OldSquare()(x)
        assert chainer.backend.get_device_from_array(y.array) == device
        F.sum(y).backward()
        numpy.testing.assert_allclose(_host(y.array), [1, 4, 9])
        numpy.testing.assert_allclose(_host(x.grad), [2, -4, 6])

    def test_neither_forward_nor_forward_cpu(self, device):
        with pytest.raises(NotImplementedError,
                           match='_ForwardOnly.*forward_cpu'):
            _ForwardOnly().apply((self._x(device),))

    def test_second_backward_through_a_shared_graph(self, device):
        x = self._x(device)
        h = F.tanh(x) * 2.0
        F.sum(h).backward()
        g1 = _host(x.grad).copy()
        F.sum(h * h).backward()
        t = numpy.tanh(numpy.array([1.0, -2.0, 3.0]))
        numpy.testing.assert_allclose(g1, 2 * (1 - t * t), rtol=1e-5)
        numpy.testing.assert_allclose(
            _host(x.grad), g1 + 8 * t * (1 - t * t), rtol=1e-5)

    def test_backward_adds_to_gradients_already_held(self, device):
        x = self._x(device)
        x.grad = device.send(numpy.full(3, 10.0, numpy.float32))
        F.sum(x * 3.0).backward()
        numpy.testing.assert_allclose(_host(x.grad), [13, 13, 13])

    def test_gradient_preset_on_a_sibling_output_is_used(self, device):
        x = chainer.Variable(device.send(
            numpy.array([1.0, 2.0], numpy.float32)))
        a, b = F.split_axis(x * 1.0, 2, 0)
        b.grad = device.send(numpy.array([5.0], numpy.float32))
        a.grad = device.send(numpy.array([1.0], numpy.float32))
        a.backward()
        numpy.testing.assert_allclose(_host(x.grad), [1, 5])


@pytest.mark.parametrize('device', device_params())
def test_parameter_array_replaced_between_steps(device):
    # Optimizers and user code assign param.array; the next forward pass
    # must take the new array (on native:0 the parameter rejoins the
    # graph).
    link = chainer.links.Linear(2, 3).to_device(device)
    x = device.send(numpy.ones((1, 2), numpy.float32))
    for step in range(3):
        link.cleargrads()
        F.sum(link(x)).backward()
        link.W.array = link.W.array - 0.5 * link.W.grad
    expected = link.W.array
    y = link(x)
    want = _host(x) @ _host(expected).T + _host(link.b.array)
    numpy.testing.assert_allclose(_host(y.array), want, rtol=1e-6)


@pytest.mark.parametrize('device', device_params())
class TestGradientsHeldBeforeBackward:
    """Chainer's rule: a gradient held by an intermediate variable counts
    only where no gradient reaches that variable in the pass."""

    def _v(self, device, values):
        return chainer.Variable(device.send(
            numpy.array(values, numpy.float64)))

    def test_reached_intermediate_keeps_its_own_gradient(self, device):
        x = self._v(device, [1.0])
        h = x * 3.0
        y = h * 2.0
        h.grad = device.send(numpy.array([10.0]))
        y.grad = device.send(numpy.array([1.0]))
        y.backward()
        numpy.testing.assert_allclose(_host(x.grad), [6.0])
        numpy.testing.assert_allclose(_host(h.grad), [10.0])

    def test_intermediate_with_two_consumers(self, device):
        x = self._v(device, [1.0])
        h = x * 3.0
        y = F.sum(h * 2.0 + h * 5.0)
        h.grad = device.send(numpy.array([100.0]))
        y.backward()
        numpy.testing.assert_allclose(_host(x.grad), [21.0])

    def test_retain_grad_twice(self, device):
        x = self._v(device, [1.0])
        h = x * 3.0
        y = F.sum(h * 2.0)
        y.backward(retain_grad=True)
        y.backward(retain_grad=True)
        numpy.testing.assert_allclose(_host(x.grad), [12.0])
        numpy.testing.assert_allclose(_host(h.grad), [2.0])
