"""Old-style Function: forward/backward on arrays through FunctionAdapter."""
import gc
import weakref

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import function, gradient_check


class Square(chainer.Function):
    def forward(self, inputs):
        x, = inputs
        return x * x,

    def backward(self, inputs, grad_outputs):
        x, = inputs
        gy, = grad_outputs
        return 2 * x * gy,


class MulAdd(chainer.Function):
    """``(x * y + z, x - y)``, with per-device forward and backward."""

    def __init__(self):
        self.calls = []

    def forward_cpu(self, inputs):
        self.calls.append('forward_cpu')
        x, y, z = inputs
        return x * y + z, x - y

    def backward_cpu(self, inputs, grad_outputs):
        self.calls.append('backward_cpu')
        x, y, z = inputs
        g0, g1 = grad_outputs
        if g1 is None:
            g1 = numpy.zeros_like(x)
        return g0 * y + g1, g0 * x - g1, g0


class ExpRetainingOutput(chainer.Function):
    def forward(self, inputs):
        self.retain_inputs(())
        self.retain_outputs((0,))
        return numpy.exp(inputs[0]),

    def backward(self, inputs, grad_outputs):
        assert inputs == (None,)
        y, = self.output_data
        return grad_outputs[0] * y,


def _array(*values):
    return numpy.array(values, numpy.float32)


def test_call_returns_a_variable_and_backprops():
    x = chainer.Variable(_array(1.0, -2.0, 3.0))
    y = Square()(x)
    assert isinstance(y, chainer.Variable)
    numpy.testing.assert_array_equal(y.array, [1, 4, 9])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [2, -4, 6])
    assert isinstance(y.creator_node, function.FunctionAdapter)
    assert isinstance(y.creator_node.function, Square)
    assert y.creator_node.label == 'Square'


def test_arrays_as_inputs_and_several_outputs():
    f = MulAdd()
    x, y = chainer.Variable(_array(1, 2)), chainer.Variable(_array(3, 4))
    a, b = f(x, y, _array(10, 20))
    numpy.testing.assert_array_equal(a.array, [13, 28])
    numpy.testing.assert_array_equal(b.array, [-2, -2])
    F.sum(a).backward()
    numpy.testing.assert_array_equal(x.grad, [3, 4])
    numpy.testing.assert_array_equal(y.grad, [1, 2])
    assert f.calls == ['forward_cpu', 'backward_cpu']


def test_numerical_gradient():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (3, 2))
    gy = rng.uniform(-1, 1, (3, 2))
    gradient_check.check_backward(lambda v: Square()(v), x, gy)


def test_retain_inputs_and_outputs():
    x = chainer.Variable(_array(0.0, 1.0))
    f = ExpRetainingOutput()
    y = f(x)
    numpy.testing.assert_allclose(f.output_data[0], numpy.exp([0, 1]))
    y.grad = _array(1, 1)
    y.backward()
    numpy.testing.assert_allclose(x.grad, numpy.exp([0, 1]), rtol=1e-6)


def test_default_backward_gives_no_gradient():
    class NoGrad(chainer.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

    x = chainer.Variable(_array(1.0))
    y = NoGrad()(x)
    y.grad = _array(1.0)
    y.backward()
    assert x.grad is None


def test_missing_forward_is_reported():
    with pytest.raises(NotImplementedError, match='forward_cpu'):
        chainer.Function()(_array(1.0))


def test_backward_must_return_one_gradient_per_input():
    class Bad(chainer.Function):
        def forward(self, inputs):
            return inputs[0] + inputs[1],

        def backward(self, inputs, grad_outputs):
            return grad_outputs[0],

    x = chainer.Variable(_array(1.0))
    y = Bad()(x, _array(2.0))
    y.grad = _array(1.0)
    with pytest.raises(ValueError, match='1 gradients for 2 inputs'):
        y.backward()


def test_type_check_names_the_function():
    from chainer_core.utils import type_check

    class FloatOnly(Square):
        def check_type_forward(self, in_types):
            type_check.expect(in_types[0].dtype == numpy.float32)

    with pytest.raises(type_check.InvalidType, match='FloatOnly'):
        FloatOnly()(numpy.array([1, 2], numpy.int32))
    FloatOnly()(_array(1.0))


def test_one_call_per_instance_with_a_graph():
    f = Square()
    x = chainer.Variable(_array(1.0))
    y = f(x)
    with pytest.raises(RuntimeError, match='new instance'):
        f(x)
    # Once the graph is gone the instance may compute again.
    del y
    f(x)


def test_instance_can_be_reused_without_a_graph():
    f = Square()
    with chainer.no_backprop_mode():
        f(_array(2.0))
        y = f(_array(3.0))
    numpy.testing.assert_array_equal(y.array, [9])


def test_graph_keeps_the_function_alive():
    x = chainer.Variable(_array(2.0))
    f = Square()
    ref = weakref.ref(f)
    y = f(x)
    del f
    gc.collect()
    assert ref() is not None
    y.grad = _array(1.0)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [4])
    del y
    gc.collect()
    assert ref() is None


def test_node_properties_and_hooks():
    f = Square()
    x = chainer.Variable(_array(2.0))
    events = []

    class Hook(chainer.FunctionHook):
        name = 'H'

        def forward_preprocess(self, fn, in_data):
            events.append(fn.label)

    f.add_hook(Hook())
    assert 'H' in f.local_function_hooks
    y = f(x)
    assert events == ['Square']
    assert f.inputs[0] is x.node
    assert f.outputs[0]() is y.node
    assert f.rank == 0 and y.creator_node is f.node
    f.delete_hook('H')
    f.unchain()
    assert y.creator_node is None


def test_timer_hook_names_the_function_class():
    from chainer_core import function_hooks
    hook = function_hooks.TimerHook()
    with hook:
        Square()(_array(1.0))
    assert hook.call_history[0][0] == 'Square'


def test_retain_after_backward_is_deprecated():
    class Retaining(Square):
        def forward(self, inputs):
            self.retain_outputs((0,), retain_after_backward=True)
            return super().forward(inputs)

    with pytest.warns(DeprecationWarning):
        Retaining()(chainer.Variable(_array(1.0)))


def test_module_names():
    assert chainer.Function is function.Function
    assert chainer.FunctionAdapter is function.FunctionAdapter
    assert function.no_backprop_mode is chainer.no_backprop_mode
    assert function.force_backprop_mode is chainer.force_backprop_mode
    with function.no_backprop_mode():
        with function.force_backprop_mode():
            assert chainer.config.enable_backprop
        assert not chainer.config.enable_backprop
