"""Trigonometric functions: values at known angles, gradients, the
quadrants of arctan2 and its broadcasting."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)
PI = math.pi


@dtype_param
class TestSin:

    def test_known_values(self, dtype):
        y = F.sin(typed([0, PI / 6, PI / 2, -PI / 2], dtype))
        assert y.dtype == dtype
        assert_close(y, [0, 0.5, 1, -1], dtype)

    def test_gradient_is_cos(self, dtype):
        x = chainer.Variable(typed([0, PI / 3, PI], dtype))
        gx, = grads(F.sin(x), (x,))
        assert_close(gx, [1, 0.5, -1], dtype)


@dtype_param
class TestCos:

    def test_known_values(self, dtype):
        y = F.cos(typed([0, PI / 3, PI], dtype))
        assert_close(y, [1, 0.5, -1], dtype)

    def test_gradient_is_minus_sin(self, dtype):
        x = chainer.Variable(typed([0, PI / 6, PI / 2], dtype))
        gx, = grads(F.cos(x), (x,))
        assert_close(gx, [0, -0.5, -1], dtype)


@dtype_param
class TestTan:

    def test_known_values(self, dtype):
        y = F.tan(typed([0, PI / 4, -PI / 4], dtype))
        assert_close(y, [0, 1, -1], dtype)

    def test_gradient_is_one_over_cos_squared(self, dtype):
        x = chainer.Variable(typed([0, PI / 4], dtype))
        gx, = grads(F.tan(x), (x,))
        assert_close(gx, [1, 2], dtype)


@dtype_param
class TestArcsin:

    def test_known_values(self, dtype):
        y = F.arcsin(typed([0, 0.5, -1], dtype))
        assert_close(y, [0, PI / 6, -PI / 2], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([0, 0.6], dtype))
        gx, = grads(F.arcsin(x), (x,))
        assert_close(gx, [1, 1.25], dtype)

    def test_outside_the_domain_is_nan(self, dtype):
        with numpy.errstate(invalid='ignore'):
            y = F.arcsin(typed([1.5], dtype))
        assert numpy.isnan(y.array).all()


@dtype_param
class TestArccos:

    def test_known_values(self, dtype):
        y = F.arccos(typed([1, 0.5, -1], dtype))
        assert_close(y, [0, PI / 3, PI], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([0, 0.6], dtype))
        gx, = grads(F.arccos(x), (x,))
        assert_close(gx, [-1, -1.25], dtype)


@dtype_param
class TestArctan:

    def test_known_values(self, dtype):
        y = F.arctan(typed([0, 1, -1], dtype))
        assert_close(y, [0, PI / 4, -PI / 4], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(typed([0, 1, 2], dtype))
        gx, = grads(F.arctan(x), (x,))
        assert_close(gx, [1, 0.5, 0.2], dtype)


@dtype_param
class TestArctan2:

    def test_quadrants(self, dtype):
        y = F.arctan2(typed([1, 1, -1, -1, 0], dtype),
                      typed([1, -1, -1, 1, -1], dtype))
        assert y.dtype == dtype
        assert_close(y, [PI / 4, 3 * PI / 4, -3 * PI / 4, -PI / 4, PI],
                     dtype)

    def test_gradients(self, dtype):
        # d atan2(a, b) = (b da - a db) / (a^2 + b^2)
        a = chainer.Variable(typed([1, 2], dtype))
        b = chainer.Variable(typed([1, -1], dtype))
        ga, gb = grads(F.arctan2(a, b), (a, b))
        assert_close(ga, [0.5, -0.2], dtype)
        assert_close(gb, [-0.5, -0.4], dtype)

    def test_broadcast_gradients_keep_shapes(self, dtype):
        a = chainer.Variable(typed([[1], [2]], dtype))
        b = chainer.Variable(typed([1, -1, 2], dtype))
        y = F.arctan2(a, b)
        assert y.shape == (2, 3)
        ga, gb = grads(y, (a, b))
        assert ga.shape == (2, 1) and gb.shape == (3,)
        a64, b64 = numpy.array([[1.], [2.]]), numpy.array([1., -1., 2.])
        norm = a64 ** 2 + b64 ** 2
        assert_close(ga, (b64 / norm).sum(axis=1, keepdims=True), dtype)
        assert_close(gb, (-a64 / norm).sum(axis=0), dtype)
