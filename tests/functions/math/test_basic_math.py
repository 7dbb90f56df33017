"""Arithmetic: Variable operators, scalar operands, gradients at known
points, broadcasting gradients summed back to each operand's shape."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _var(values, dtype):
    return chainer.Variable(typed(values, dtype))


@dtype_param
class TestAdd:

    def test_operators(self, dtype):
        x, y = _var([1, 2], dtype), _var([10, 20], dtype)
        plain = typed([5, 7], dtype)
        for z, expected in ((x + y, [11, 22]), (x + 2, [3, 4]),
                            (2 + x, [3, 4]), (x + plain, [6, 9]),
                            (plain + x, [6, 9]), (F.add(x, y), [11, 22])):
            assert isinstance(z, chainer.Variable)
            assert z.dtype == dtype
            assert_close(z, expected, dtype)

    def test_broadcast_gradient_is_summed(self, dtype):
        x, y = _var([[1], [2], [3]], dtype), _var([[1, 2, 3, 4]], dtype)
        gy = numpy.arange(12).reshape(3, 4).astype(dtype)
        gx, gy_rhs = grads(x + y, (x, y), gy)
        assert gx.shape == (3, 1) and gy_rhs.shape == (1, 4)
        assert_close(gx, gy.sum(axis=1, keepdims=True), dtype)
        assert_close(gy_rhs, gy.sum(axis=0, keepdims=True), dtype)

    def test_same_variable_twice_accumulates(self, dtype):
        x = _var([1, 2], dtype)
        gx, = grads(x + x, (x,))
        assert_close(gx, [2, 2], dtype)


@dtype_param
class TestSub:

    def test_operators(self, dtype):
        x, y = _var([1, 2], dtype), _var([10, 20], dtype)
        plain = typed([5, 7], dtype)
        for z, expected in ((x - y, [-9, -18]), (x - 2, [-1, 0]),
                            (2 - x, [1, 0]), (plain - x, [4, 5]),
                            (F.sub(3, x), [2, 1])):
            assert z.dtype == dtype
            assert_close(z, expected, dtype)

    def test_gradient_of_rhs_is_negated(self, dtype):
        x, y = _var([[1, 2]], dtype), _var([[1], [2], [3]], dtype)
        gx, gy = grads(x - y, (x, y))
        assert_close(gx, [[3, 3]], dtype)
        assert_close(gy, [[-2], [-2], [-2]], dtype)

    def test_constant_minus_variable_gradient(self, dtype):
        x = _var([1, 2], dtype)
        gx, = grads(5 - x, (x,))
        assert_close(gx, [-1, -1], dtype)


@dtype_param
class TestMul:

    def test_operators(self, dtype):
        x, y = _var([1, 2], dtype), _var([3, 4], dtype)
        for z, expected in ((x * y, [3, 8]), (x * 3, [3, 6]),
                            (3 * x, [3, 6]), (x * numpy.float32(0.5),
                                              [0.5, 1])):
            assert z.dtype == dtype
            assert_close(z, expected, dtype)

    def test_gradients_are_the_other_operand(self, dtype):
        x, y = _var([1, 2], dtype), _var([3, 4], dtype)
        gx, gy = grads(x * y, (x, y))
        assert_close(gx, [3, 4], dtype)
        assert_close(gy, [1, 2], dtype)

    def test_square_by_self(self, dtype):
        x = _var([1, -3], dtype)
        gx, = grads(x * x, (x,))
        assert_close(gx, [2, -6], dtype)

    def test_constant_gradient(self, dtype):
        x = _var([1, 2], dtype)
        gx, = grads(2.5 * x, (x,))
        assert_close(gx, [2.5, 2.5], dtype)


@dtype_param
class TestDiv:

    def test_operators(self, dtype):
        x, y = _var([1, 3], dtype), _var([2, 4], dtype)
        for z, expected in ((x / y, [0.5, 0.75]), (x / 2, [0.5, 1.5]),
                            (3 / x, [3, 1]), (F.div(x, 4), [0.25, 0.75])):
            assert z.dtype == dtype
            assert_close(z, expected, dtype)

    def test_gradients_at_a_known_point(self, dtype):
        x, y = _var([1, 3], dtype), _var([2, 4], dtype)
        gx, gy = grads(x / y, (x, y))
        assert_close(gx, [0.5, 0.25], dtype)
        assert_close(gy, [-0.25, -3 / 16], dtype)

    def test_constant_over_variable_gradient(self, dtype):
        x = _var([1, 2], dtype)
        gx, = grads(2 / x, (x,))
        assert_close(gx, [-2, -0.5], dtype)


@dtype_param
class TestNeg:

    def test_operator(self, dtype):
        x = _var([1, -2], dtype)
        z = -x
        assert z.dtype == dtype
        assert_close(z, [-1, 2], dtype)
        assert_close(F.neg(x), [-1, 2], dtype)

    def test_unary_plus_is_identity(self, dtype):
        x = _var([1, -2], dtype)
        assert_close(+x, [1, -2], dtype)

    def test_gradient(self, dtype):
        x = _var([1, -2], dtype)
        gx, = grads(-x, (x,))
        assert_close(gx, [-1, -1], dtype)


@dtype_param
class TestPow:

    def test_operators(self, dtype):
        x, y = _var([2, 3], dtype), _var([3, 0.5], dtype)
        for z, expected in ((x ** y, [8, math.sqrt(3)]), (x ** 2, [4, 9]),
                            (2 ** x, [4, 8]), (F.pow(x, -1), [0.5, 1 / 3])):
            assert z.dtype == dtype
            assert_close(z, expected, dtype)

    def test_var_var_gradients(self, dtype):
        x, y = _var([2, 3], dtype), _var([3, 2], dtype)
        gx, gy = grads(x ** y, (x, y))
        assert_close(gx, [12, 6], dtype)
        assert_close(gy, [8 * math.log(2), 9 * math.log(3)], dtype)

    def test_integer_exponent_of_negative_base(self, dtype):
        x = _var([-2, -1], dtype)
        z = x ** 3
        assert_close(z, [-8, -1], dtype)
        gx, = grads(z, (x,))
        assert_close(gx, [12, 3], dtype)

    def test_constant_base_gradient(self, dtype):
        x = _var([1, 2], dtype)
        gx, = grads(3 ** x, (x,))
        assert_close(gx, [3 * math.log(3), 9 * math.log(3)], dtype)
