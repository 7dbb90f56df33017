"""gaussian: mean + exp(ln_var / 2) * eps; the samples' statistics, eps
given or returned, gradients for the drawn noise, drawn in test mode
too."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestGaussian:

    def test_sample_statistics(self, dtype):
        numpy.random.seed(0)
        n = 100000
        mean = numpy.full(n, 1.5, dtype)
        ln_var = numpy.full(n, math.log(4), dtype)
        y = F.gaussian(mean, ln_var)
        assert y.shape == (n,) and y.dtype == dtype
        y64 = y.array.astype('f8')
        # Standard error of the mean 2 / sqrt(n), of the variance about
        # 4 sqrt(2 / n).
        assert abs(y64.mean() - 1.5) < 5 * 2 / math.sqrt(n)
        assert abs(y64.var() - 4) < 5 * 4 * math.sqrt(2 / n) + 0.02

    def test_given_eps(self, dtype):
        eps = typed([0.5, -1, 2], dtype)
        y = F.gaussian(typed([1, 2, 3], dtype), typed([0, math.log(4), 0],
                                                      dtype), eps=eps)
        assert_close(y, [1.5, 0, 5], dtype)

    def test_return_eps(self, dtype):
        mean = typed([1, 2, 3], dtype)
        ln_var = typed([0, 1, -1], dtype)
        y, eps = F.gaussian(mean, ln_var, return_eps=True)
        assert eps.shape == (3,) and eps.dtype == dtype
        expected = mean.astype('f8') + numpy.exp(ln_var.astype('f8') / 2) * \
            eps.astype('f8')
        assert_close(y, expected, dtype)

    def test_noise_is_drawn_in_test_mode_too(self, dtype):
        mean = numpy.zeros(50, dtype)
        ln_var = numpy.zeros(50, dtype)
        with chainer.using_config('train', False):
            y = F.gaussian(mean, ln_var)
        assert (y.array != 0).any()

    def test_gradients(self, dtype):
        mean = chainer.Variable(typed([1, 2], dtype))
        ln_var = chainer.Variable(typed([0, math.log(4)], dtype))
        eps = typed([0.5, -1], dtype)
        y = F.gaussian(mean, ln_var, eps=eps)
        gmean, gln_var = grads(y, (mean, ln_var), typed([1, 3], dtype))
        assert_close(gmean, [1, 3], dtype)
        # d/d ln_var of exp(ln_var / 2) eps is exp(ln_var / 2) eps / 2.
        assert_close(gln_var, [0.25, 3 * -1.0], dtype)

    def test_second_order(self, dtype):
        ln_var = chainer.Variable(typed([0, 1], dtype))
        eps = typed([1, 2], dtype)
        y = F.gaussian(typed([0, 0], dtype), ln_var, eps=eps)
        g, = chainer.grad([y], [ln_var], [typed([1, 1], dtype)],
                          enable_double_backprop=True)
        gg, = grads(g, (ln_var,))
        expected = numpy.exp(numpy.array([0, 1.0]) / 2) * [1, 2] / 4
        assert_close(gg, expected, dtype)
