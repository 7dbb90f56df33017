"""Chainer's basic_math module: its names, n-ary add, the reflected and
floor-division forms, and values checked against Chainer 7.8.1."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core.functions.math import basic_math
from chainer_core.utils.type_check import InvalidType


def _v(values, dtype=numpy.float32):
    return chainer.Variable(numpy.array(values, dtype))


def test_add_takes_any_number_of_operands():
    x, y, z = _v([1, 2]), _v([10, 20]), _v([[100], [200]])
    y3 = basic_math.add(x, y, z)
    assert isinstance(y3.creator, basic_math.MultiAdd)
    numpy.testing.assert_array_equal(y3.array, [[111, 122], [211, 222]])
    assert basic_math.add(x) is x
    numpy.testing.assert_array_equal(F.add(x, y, x).array, [12, 24])


def test_add_rejects_mixed_dtypes_and_scalars_among_three():
    with pytest.raises(InvalidType, match='MultiAdd'):
        F.add(_v([1.0]), _v([1.0], numpy.float64), _v([1.0]))
    with pytest.raises(TypeError, match='add: a scalar operand'):
        F.add(_v([1.0]), _v([1.0]), 2.0)
    with pytest.raises(TypeError, match='add: takes at least one operand'):
        F.add()


def test_reflected_forms():
    x = _v([1.0, 2.0, 4.0])
    numpy.testing.assert_allclose(basic_math.rsub(x, 7).array, [6, 5, 3])
    numpy.testing.assert_allclose(basic_math.rdiv(x, 8).array, [8, 4, 2])
    numpy.testing.assert_allclose(basic_math.rpow(x, 2).array, [2, 4, 16])
    numpy.testing.assert_allclose(basic_math.rfloordiv(x, 7).array,
                                  [7, 3, 1])
    numpy.testing.assert_allclose(basic_math.floordiv(x, 3).array, [0, 0, 1])
    m = chainer.Variable(numpy.ones((3, 2), numpy.float32))
    a = numpy.arange(6, dtype=numpy.float64).reshape(2, 3)
    y = basic_math.rmatmul(m, a)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, [[3, 3], [12, 12]])
    assert basic_math.matmul(m, a).dtype == numpy.float32


def test_absolute_and_its_gradient():
    x = _v([-2.0, 0.0, 3.0])
    y = basic_math.absolute(x)
    assert isinstance(y.creator, basic_math.Absolute)
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [-1, 0, 1])
    assert abs(x).creator.__class__ is basic_math.Absolute


def test_floordiv_is_outside_the_graph():
    x = _v([3.0, -3.0])
    y = x // 2
    assert y.creator is None and not y.requires_grad
    numpy.testing.assert_array_equal(y.array, [1, -2])


@pytest.mark.parametrize('node,args', [
    ('DivGrad', (True,)), ('PowVarVarGrad', (True, None)),
    ('PowVarConstGrad', (2.0,)), ('PowConstVarGrad', (2.0,)),
    ('DivFromConstantGrad', (2.0,)), ('AbsoluteGrad', (None,)),
    ('MultiAdd', ()), ('Absolute', ())])
def test_node_classes_construct_with_chainers_arguments(node, args):
    assert isinstance(getattr(basic_math, node)(*args),
                      chainer.FunctionNode)


def test_gradient_nodes_are_used():
    x, y = _v([1.0, 2.0]), _v([3.0, 4.0])
    for z, grad_node in ((x / y, basic_math.DivGrad),
                         (x ** y, basic_math.PowVarVarGrad),
                         (x ** 3, basic_math.PowVarConstGrad),
                         (3 ** x, basic_math.PowConstVarGrad),
                         (3 / x, basic_math.DivFromConstantGrad)):
        gx = chainer.grad([z], [x], [_v([1.0, 1.0])],
                          enable_double_backprop=True)[0]
        node = gx.creator
        while node is not None and not isinstance(node, grad_node):
            node = node.inputs[0].creator if node.inputs else None
        assert node is not None, grad_node


def test_values_checked_against_chainer():
    # Chainer 7.8.1: gradient of 2.5 ** x for a float16 constant is
    # 2.5 ** x * log(2.5) with the log of 2.5 itself.
    x = _v([1.0, 2.0, 3.0])
    y = numpy.float16(2.5) ** x
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [2.290727, 5.726817, 14.317043],
                                  rtol=1e-6)
    # rdiv's gradient, bit for bit: -gy / x * a / x in float32.
    x = _v([1.0, 2.0, 3.0])
    y = numpy.array([2.0, 3.0, 4.0]) / x
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(
        x.grad, numpy.array([-2.0, -0.75, -0.44444445], numpy.float32))


def test_operand_of_unsupported_type():
    with pytest.raises(TypeError, match='sub: unsupported operand of type '
                                        'list'):
        _v([1.0]) - [1.0]
    with pytest.raises(TypeError, match='add: unsupported operand of type '
                                        'NoneType'):
        _v([1.0]) + None
