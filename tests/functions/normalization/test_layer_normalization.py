"""layer_normalization: each row standardized over its units (biased
variance, eps inside the square root), then gamma and beta per unit."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed
from . import assert_sums_to_zero

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _inputs(dtype):
    # Multiples of 1/64: shifting them by small multiples of 1/2 is exact
    # in every dtype.
    rng = numpy.random.RandomState(0)
    return ((rng.randint(-64, 65, (3, 5)) / 64).astype(dtype),
            rng.uniform(0.5, 1.5, 5).astype(dtype),
            rng.uniform(-1, 1, 5).astype(dtype))


@dtype_param
class TestLayerNormalization:

    def test_rows_are_standardized(self, dtype):
        x, _, _ = _inputs(dtype)
        y = F.layer_normalization(x, numpy.ones(5, dtype),
                                  numpy.zeros(5, dtype), eps=0.0)
        assert y.shape == (3, 5) and y.dtype == dtype
        y64 = y.array.astype('f8')
        assert_close(y64.mean(axis=1), numpy.zeros(3), dtype)
        assert_close(y64.var(axis=1), numpy.ones(3), dtype)

    def test_values(self, dtype):
        x = typed([[1, 3], [0, 4]], dtype)
        y = F.layer_normalization(x, typed([2, 1], dtype),
                                  typed([0, 10], dtype), eps=1.0)
        # Row variances 1 and 4: divided by sqrt(2) and sqrt(5).
        expected = [[-2 / numpy.sqrt(2), 10 + 1 / numpy.sqrt(2)],
                    [-4 / numpy.sqrt(5), 10 + 2 / numpy.sqrt(5)]]
        assert_close(y, expected, dtype)

    def test_invariant_to_shifting_a_row(self, dtype):
        x, gamma, beta = _inputs(dtype)
        shifted = x + typed([[1], [-2], [0.5]], dtype)
        assert_close(F.layer_normalization(shifted, gamma, beta),
                     F.layer_normalization(x, gamma, beta).array, dtype)

    def test_rows_are_independent(self, dtype):
        x, gamma, beta = _inputs(dtype)
        y = F.layer_normalization(x, gamma, beta).array
        y0 = F.layer_normalization(x[:1], gamma, beta).array
        numpy.testing.assert_array_equal(y[:1], y0)

    def test_gradients_of_gamma_and_beta(self, dtype):
        x, gamma, beta = (chainer.Variable(a) for a in _inputs(dtype))
        y = F.layer_normalization(x, gamma, beta)
        gy = numpy.random.RandomState(1).uniform(-1, 1, (3, 5)).astype(dtype)
        gx, ggamma, gbeta = grads(y, (x, gamma, beta), gy)
        x64 = x.array.astype('f8')
        xhat = (x64 - x64.mean(axis=1, keepdims=True)) / numpy.sqrt(
            x64.var(axis=1, keepdims=True) + 1e-5)
        assert_close(gbeta, gy.astype('f8').sum(axis=0), dtype)
        assert_close(ggamma, (gy.astype('f8') * xhat).sum(axis=0), dtype)
        # The gradient of each row sums to zero (shift invariance).
        assert_sums_to_zero(gx, 1, dtype)

    def test_third_order(self, dtype):
        # The second-order gradient is itself differentiable exactly:
        # check the second derivative of the first-order gradient.
        if dtype != numpy.float64:
            pytest.skip('numerical third derivatives need float64')
        from chainer_core import gradient_check
        rng = numpy.random.RandomState(4)
        x, gamma, beta = _inputs(numpy.float64)
        gy = rng.uniform(-1, 1, x.shape)

        def first_order(x, gamma):
            y = F.layer_normalization(x, gamma, beta)
            return tuple(chainer.grad([y], [x, gamma], [gy],
                                      enable_double_backprop=True))

        gradient_check.check_double_backward(
            first_order, (x, gamma), (rng.uniform(-1, 1, x.shape),
                                      rng.uniform(-1, 1, gamma.shape)),
            (rng.uniform(-1, 1, x.shape), rng.uniform(-1, 1, gamma.shape)))
