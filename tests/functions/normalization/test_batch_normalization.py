"""batch_normalization: batch statistics whatever the mode, default and
explicit axes, the running statistics updated in place (unbiased variance),
gradients and double backprop."""
import warnings

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _inputs(dtype, shape=(4, 3, 2, 2), channels=(3,)):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, shape).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, channels).astype(dtype)
    beta = rng.uniform(-1, 1, channels).astype(dtype)
    return x, gamma, beta


@dtype_param
class TestBatchNormalization:

    def test_each_channel_is_standardized_over_batch_and_space(self, dtype):
        x, gamma, beta = _inputs(dtype)
        y = F.batch_normalization(x, numpy.ones_like(gamma),
                                  numpy.zeros_like(beta), eps=0.0)
        assert y.shape == x.shape and y.dtype == dtype
        y64 = y.array.astype(numpy.float64)
        assert_close(y64.mean(axis=(0, 2, 3)), numpy.zeros(3), dtype)
        assert_close(y64.var(axis=(0, 2, 3)), numpy.ones(3), dtype)

    def test_scale_and_shift(self, dtype):
        x, gamma, beta = _inputs(dtype)
        y0 = F.batch_normalization(x, numpy.ones_like(gamma),
                                   numpy.zeros_like(beta)).array
        y = F.batch_normalization(x, gamma, beta)
        expected = y0.astype('f8') * gamma.astype('f8')[:, None, None] + \
            beta.astype('f8')[:, None, None]
        assert_close(y, expected, dtype)

    def test_eps_is_added_to_the_variance(self, dtype):
        x = typed([[-1], [1]], dtype)   # mean 0, biased variance 1
        y = F.batch_normalization(x, typed([1], dtype), typed([0], dtype),
                                  eps=3.0)
        assert_close(y, [[-0.5], [0.5]], dtype)

    def test_batch_statistics_in_test_mode_too(self, dtype):
        x, gamma, beta = _inputs(dtype)
        y_train = F.batch_normalization(x, gamma, beta).array
        with chainer.using_config('train', False):
            y_test = F.batch_normalization(x, gamma, beta).array
        numpy.testing.assert_array_equal(y_train, y_test)

    def test_running_statistics_are_updated_in_place(self, dtype):
        x, gamma, beta = _inputs(dtype)
        mean0 = typed([0.1, 0.2, 0.3], dtype)
        var0 = typed([1.0, 2.0, 3.0], dtype)
        running_mean, running_var = mean0.copy(), var0.copy()
        F.batch_normalization(x, gamma, beta, running_mean=running_mean,
                              running_var=running_var, decay=0.8)
        x64 = x.astype('f8')
        m = x.size // 3
        batch_mean = x64.mean(axis=(0, 2, 3))
        unbiased = x64.var(axis=(0, 2, 3)) * m / (m - 1)
        assert_close(running_mean, 0.8 * mean0.astype('f8') +
                     0.2 * batch_mean, dtype)
        assert_close(running_var, 0.8 * var0.astype('f8') + 0.2 * unbiased,
                     dtype)

    def test_running_statistics_of_a_wider_dtype(self, dtype):
        x, gamma, beta = _inputs(dtype)
        running_mean = numpy.zeros(3, numpy.float64)
        running_var = numpy.ones(3, numpy.float64)
        F.batch_normalization(x, gamma, beta, running_mean=running_mean,
                              running_var=running_var, decay=0.0)
        assert running_mean.dtype == numpy.float64
        assert_close(running_mean, x.astype('f8').mean(axis=(0, 2, 3)),
                     dtype)

    def test_explicit_axis(self, dtype):
        # Statistics over axes 0 and 2: gamma has the shape of axis 1.
        x, gamma, beta = _inputs(dtype, (3, 4, 5), (4,))
        y = F.batch_normalization(x, gamma, beta, axis=(0, 2))
        y_default = F.batch_normalization(x, gamma, beta)
        assert_close(y, y_default.array, dtype)
        # Statistics over axis 0 only: gamma has the shape (4, 5).
        x, gamma, beta = _inputs(dtype, (3, 4, 5), (4, 5))
        y = F.batch_normalization(x, gamma, beta, axis=0, eps=0.0)
        y64 = y.array.astype('f8')
        assert_close(y64.mean(axis=0), numpy.zeros((4, 5)) +
                     beta.astype('f8'), dtype)

    def test_last_axis_as_the_reduced_one(self, dtype):
        x, gamma, beta = _inputs(dtype, (3, 6), (3,))
        y = F.batch_normalization(x, gamma, beta, axis=-1)
        expected = F.batch_normalization(x.T, gamma, beta).array.T
        assert_close(y, expected, dtype)

    def test_single_sample_warns_and_gives_beta(self, dtype):
        x, gamma, beta = _inputs(dtype, (1, 3), (3,))
        with pytest.warns(UserWarning, match='single sample'):
            y = F.batch_normalization(x, gamma, beta)
        assert_close(y, beta[None], dtype)

    def test_no_warning_for_a_normal_batch(self, dtype):
        x, gamma, beta = _inputs(dtype)
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            F.batch_normalization(x, gamma, beta)

    def test_train_argument_is_refused(self, dtype):
        x, gamma, beta = _inputs(dtype)
        with pytest.raises(ValueError, match='using_config'):
            F.batch_normalization(x, gamma, beta, train=True)

    def test_gradients(self, dtype):
        x, gamma, beta = (chainer.Variable(a) for a in _inputs(dtype))
        y = F.batch_normalization(x, gamma, beta)
        gy = numpy.random.RandomState(1).uniform(-1, 1, x.shape).astype(
            dtype)
        gx, ggamma, gbeta = grads(y, (x, gamma, beta), gy)
        x64, g64 = x.array.astype('f8'), gy.astype('f8')
        axes = (0, 2, 3)
        xhat = (x64 - x64.mean(axis=axes, keepdims=True)) / numpy.sqrt(
            x64.var(axis=axes, keepdims=True) + 2e-5)
        assert_close(gbeta, g64.sum(axis=axes), dtype)
        assert_close(ggamma, (g64 * xhat).sum(axis=axes), dtype)
        scale = gamma.array.astype('f8')[:, None, None] / numpy.sqrt(
            x64.var(axis=axes, keepdims=True) + 2e-5)
        expected = scale * (g64 - g64.mean(axis=axes, keepdims=True) -
                            xhat * (g64 * xhat).mean(axis=axes,
                                                     keepdims=True))
        assert_close(gx, expected, dtype)

    def test_second_order_gradient_wrt_gamma_only(self, dtype):
        # d/dgamma of sum(gx^2): gx is linear in gamma, so this is
        # 2 sum(gx^2) / gamma per channel.
        x, gamma, beta = (chainer.Variable(a) for a in _inputs(
            dtype, (5, 2), (2,)))
        y = F.batch_normalization(x, gamma, beta)
        gy = numpy.random.RandomState(2).uniform(-1, 1, (5, 2)).astype(dtype)
        gx, = chainer.grad([y], [x], [gy], enable_double_backprop=True)
        g_gamma, = grads(F.sum(gx * gx), (gamma,))
        gx64 = gx.array.astype('f8')
        assert_close(g_gamma, 2 * (gx64 ** 2).sum(axis=0) /
                     gamma.array.astype('f8'), dtype)

    def test_third_order(self, dtype):
        # The second-order gradient is itself differentiable exactly:
        # check the second derivative of the first-order gradient.
        if dtype != numpy.float64:
            pytest.skip('numerical third derivatives need float64')
        from chainer_core import gradient_check
        rng = numpy.random.RandomState(4)
        x, gamma, beta = _inputs(dtype, (4, 2, 2), (2,))
        gy = rng.uniform(-1, 1, x.shape)

        def first_order(x, gamma, gy):
            y = F.batch_normalization(x, gamma, beta)
            return tuple(chainer.grad([y], [x, gamma], [gy],
                                      enable_double_backprop=True))

        def r(shape):
            return rng.uniform(-1, 1, shape)

        gradient_check.check_double_backward(
            first_order, (x, gamma, gy), (r(x.shape), r(gamma.shape)),
            (r(x.shape), r(gamma.shape), r(gy.shape)))
