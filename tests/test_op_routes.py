"""The short routes of an op on every device: operators between Variables of
one backend's graph go to its graph kernel alone, and a graph kernel that
checks its inputs runs before (instead of) the op's Python type check. Bad
input gets the error of the type check all the same, and hooks,
``type_check``, ``enable_backprop``, ``debug``, labels and double backprop
see the op as ``apply`` makes it."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core.testing.backend import discovered_devices
from chainer_core.utils import type_check

DEVICES = discovered_devices()
OPERATORS = [
    ('_ + _', lambda a, b: a + b),
    ('_ - _', lambda a, b: a - b),
    ('_ * _', lambda a, b: a * b),
    ('_ / _', lambda a, b: a / b),
]


@pytest.fixture(params=DEVICES)
def device(request):
    return chainer.get_device(request.param)


def _var(device, values, dtype=numpy.float32, requires_grad=True):
    return chainer.Variable(device.send(numpy.asarray(values, dtype)),
                            requires_grad=requires_grad)


def _host(a):
    return numpy.asarray(chainer.get_device('@numpy').send(a))


def _invalid(fn):
    with pytest.raises(type_check.InvalidType) as info:
        fn()
    return info.value


@pytest.mark.parametrize('label,op', OPERATORS)
def test_operands_of_two_dtypes_name_the_op_and_both(device, label, op):
    x = _var(device, [1, 2])
    y = _var(device, [3, 4], numpy.float64)
    e = _invalid(lambda: op(x, y))
    assert 'Invalid operation is performed in: {} (Forward)'.format(
        label) in str(e)
    assert e.expect == 'lhs.dtype == rhs.dtype'
    assert e.actual == 'float32 != float64'


@pytest.mark.parametrize('label,op', OPERATORS)
def test_shapes_that_do_not_broadcast_name_the_op_and_both(device, label,
                                                            op):
    x = _var(device, [1, 2])
    y = _var(device, [1, 2, 3])
    e = _invalid(lambda: op(x, y))
    assert label in str(e)
    assert e.expect == 'broadcastable shapes: lhs.shape, rhs.shape'
    assert e.actual == '(2,), (3,)'


def test_integer_input_of_an_activation_names_the_op(device):
    x = _var(device, [1, -2], numpy.int32)
    for fn, label in ((F.relu, 'ReLU'), (F.sigmoid, 'Sigmoid'),
                      (F.tanh, 'Tanh'), (F.exp, 'Exp'), (F.log, 'Log')):
        e = _invalid(lambda: fn(x))
        assert 'performed in: {} (Forward)'.format(label) in str(e)
        assert e.expect == "x.dtype.kind == 'f'"
        assert e.actual == "'i' != 'f'"


def test_linear_with_sizes_that_differ_names_the_op_and_argument(device):
    x = _var(device, numpy.ones((2, 3)))
    W = _var(device, numpy.ones((4, 2)))
    e = _invalid(lambda: F.linear(x, W))
    assert 'LinearFunction' in str(e)
    assert e.expect == 'x.shape[1] == W.shape[1]'
    assert e.actual == '3 != 2'
    b = _var(device, numpy.ones(5))
    e = _invalid(lambda: F.linear(x, _var(device, numpy.ones((4, 3))), b))
    assert e.expect == 'b.shape[0] == W.shape[0]'


def test_softmax_cross_entropy_with_bad_labels_names_the_op(device):
    x = _var(device, numpy.ones((2, 3)))
    e = _invalid(lambda: F.softmax_cross_entropy(
        x, device.send(numpy.array([0, 1], numpy.uint8))))
    assert 'SoftmaxCrossEntropy' in str(e)
    assert e.expect == "t.dtype.kind == 'i'"
    e = _invalid(lambda: F.softmax_cross_entropy(
        x, device.send(numpy.array([0, 1, 1], numpy.int32))))
    assert e.expect == 'x.shape[0] == t.shape[0]'
    with pytest.raises(ValueError, match='t holds the label 5, outside '
                       r'\[0, 3\) and not ignore_label \(-1\)'):
        F.softmax_cross_entropy(x, device.send(numpy.array([0, 5],
                                                           numpy.int32)))
    loss = F.softmax_cross_entropy(
        x, device.send(numpy.array([-1, 2], numpy.int32)))
    numpy.testing.assert_allclose(_host(loss.array), numpy.log(3),
                                  rtol=1e-6)


def test_linear_of_weights_in_another_float_dtype(device):
    x = _var(device, numpy.ones((2, 3)))
    W = _var(device, numpy.ones((4, 3)), numpy.float64)
    y = F.linear(x, W)
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(_host(y.array), numpy.full((2, 4), 3))
    y.grad = device.send(numpy.ones((2, 4), numpy.float32))
    y.backward()
    assert W.grad.dtype == numpy.float64


def test_without_type_check_operands_of_two_dtypes_are_computed(device):
    x = _var(device, [1, 2])
    y = _var(device, [3, 4], numpy.float64)
    with chainer.using_config('type_check', False):
        z = x + y
    numpy.testing.assert_allclose(_host(z.array), [4, 6])


@pytest.mark.parametrize('label,op', OPERATORS)
def test_labels_values_and_gradients(device, label, op):
    a, b = numpy.array([1., 2.]), numpy.array([4., 8.])
    x, y = _var(device, a), _var(device, b)
    z = op(x, y)
    assert isinstance(z, chainer.Variable)
    assert z.creator.label == label
    numpy.testing.assert_allclose(_host(z.array), op(a, b).astype(
        numpy.float32), rtol=1e-6)
    gx, gy = chainer.grad([F.sum(z)], [x, y])
    eps = 1e-3
    for var, g, other in ((x, gx, False), (y, gy, True)):
        args = (a, b + eps) if other else (a + eps, b)
        numeric = (op(*args) - op(a, b)) / eps
        numpy.testing.assert_allclose(_host(g.array), numeric, rtol=1e-2)


def test_one_operand_without_gradient(device):
    x = _var(device, [1, 2])
    c = _var(device, [3, 4], requires_grad=False)
    z = x * c
    assert z.requires_grad
    gx, = chainer.grad([F.sum(z)], [x])
    numpy.testing.assert_array_equal(_host(gx.array), [3, 4])
    w = c + c
    assert not w.requires_grad
    assert w.creator is None


def test_no_backprop_mode_records_nothing(device):
    x = _var(device, [1, 2])
    with chainer.no_backprop_mode():
        z = x + x
    assert z.creator is None
    numpy.testing.assert_array_equal(_host(z.array), [2, 4])


def test_function_hooks_see_the_operators(device):
    x, y = _var(device, [1, 2]), _var(device, [3, 4])
    seen = []

    class Recorder(chainer.FunctionHook):
        name = 'Recorder'

        def forward_preprocess(self, function, in_data):
            seen.append(function.label)

    with Recorder():
        x + y
        x * y
        F.relu(x)
    assert seen == ['_ + _', '_ * _', 'ReLU']


def test_debug_mode_finds_nan(device):
    x = _var(device, [0, 1])
    y = _var(device, [0, 1])
    with chainer.using_config('debug', True), \
            numpy.errstate(invalid='ignore'):
        with pytest.raises(RuntimeError, match='NaN is detected on forward '
                           'computation of _ / _'):
            x / y
        with pytest.raises(RuntimeError, match='NaN is detected on forward '
                           'computation of Log'):
            F.log(_var(device, [-1, 1]))


def test_double_backprop_through_operators(device):
    x = _var(device, [1, 2])
    y = x * x * x
    gx, = chainer.grad([F.sum(y)], [x], enable_double_backprop=True)
    numpy.testing.assert_allclose(_host(gx.array), [3, 12])
    ggx, = chainer.grad([F.sum(gx)], [x])
    numpy.testing.assert_allclose(_host(ggx.array), [6, 12])


def test_graph_survives_backward_and_runs_again(device):
    x = _var(device, [1, 2])
    loss = F.sum(x * x + x)
    loss.backward()
    numpy.testing.assert_array_equal(_host(x.grad), [3, 5])
    x.cleargrad()
    loss.backward()
    numpy.testing.assert_array_equal(_host(x.grad), [3, 5])
