"""batch_renormalization: r and d from the running statistics (clipped),
held constant in backward; the running statistics are updated only with
update_statistics=True."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)
EPS = 2e-5


def _inputs(dtype):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (6, 3, 2)).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, 3).astype(dtype)
    beta = rng.uniform(-1, 1, 3).astype(dtype)
    # Near the batch's statistics, so that r and d are not clipped.
    running_mean = numpy.array([0.05, -0.1, 0.0], dtype)
    running_var = numpy.array([0.3, 0.4, 0.35], dtype)
    return x, gamma, beta, running_mean, running_var


def _r_d(x, running_mean, running_var, rmax, dmax):
    x64 = x.astype('f8')
    std = numpy.sqrt(x64.var(axis=(0, 2)) + EPS)
    sigma = numpy.sqrt(running_var.astype('f8') + EPS)
    r = numpy.clip(std / sigma, 1 / rmax, rmax)
    d = numpy.clip((x64.mean(axis=(0, 2)) - running_mean.astype('f8')) /
                   sigma, -dmax, dmax)
    return r, d


@dtype_param
class TestBatchRenormalization:

    def test_values_with_r_and_d_inside_their_bounds(self, dtype):
        x, gamma, beta, rm, rv = _inputs(dtype)
        r, d = _r_d(x, rm, rv, 10.0, 10.0)
        assert ((r > 1 / 10) & (r < 10) & (r != 1)).all()
        assert ((abs(d) < 10) & (d != 0)).all()
        y = F.batch_renormalization(x, gamma, beta, 10.0, 10.0,
                                    running_mean=rm, running_var=rv)
        assert y.shape == x.shape and y.dtype == dtype
        bn = F.batch_normalization(x, numpy.ones_like(gamma),
                                   numpy.zeros_like(beta)).array
        expected = gamma.astype('f8')[:, None] * (
            bn.astype('f8') * r[:, None] + d[:, None]) + \
            beta.astype('f8')[:, None]
        assert_close(y, expected, dtype)

    def test_r_and_d_are_clipped(self, dtype):
        x, gamma, beta, rm, rv = _inputs(dtype)
        rm = rm + 5
        rv = rv * 100
        r, d = _r_d(x, rm, rv, 1.5, 0.5)
        assert (r == 1 / 1.5).all() and (d == -0.5).all()
        y = F.batch_renormalization(x, gamma, beta, 1.5, 0.5,
                                    running_mean=rm, running_var=rv)
        bn = F.batch_normalization(x, numpy.ones_like(gamma),
                                   numpy.zeros_like(beta)).array
        expected = gamma.astype('f8')[:, None] * (
            bn.astype('f8') / 1.5 - 0.5) + beta.astype('f8')[:, None]
        assert_close(y, expected, dtype)

    def test_rmax_1_dmax_0_is_batch_normalization(self, dtype):
        x, gamma, beta, rm, rv = _inputs(dtype)
        xv, xb = chainer.Variable(x), chainer.Variable(x)
        y = F.batch_renormalization(xv, gamma, beta, 1.0, 0.0,
                                    running_mean=rm, running_var=rv)
        y_bn = F.batch_normalization(xb, gamma, beta)
        assert_close(y, y_bn.array, dtype)
        assert_close(grads(y, (xv,))[0], grads(y_bn, (xb,))[0], dtype)

    def test_gradient_holds_r_and_d_fixed(self, dtype):
        # gx equals that of batch normalization with scale gamma * r, and
        # ggamma = sum(gy (r xhat + d)).
        x, gamma, beta, rm, rv = _inputs(dtype)
        r, d = _r_d(x, rm, rv, 10.0, 10.0)
        xv, gv = chainer.Variable(x), chainer.Variable(gamma)
        y = F.batch_renormalization(xv, gv, beta, 10.0, 10.0,
                                    running_mean=rm, running_var=rv)
        gy = numpy.random.RandomState(3).uniform(-1, 1, x.shape).astype(
            dtype)
        gx, ggamma = grads(y, (xv, gv), gy)
        xb = chainer.Variable(x)
        scaled = (gamma.astype('f8') * r).astype(dtype)
        gx_bn, = grads(F.batch_normalization(xb, scaled, beta), (xb,), gy)
        assert_close(gx, gx_bn, dtype)
        xhat = F.batch_normalization(x, numpy.ones_like(gamma),
                                     numpy.zeros_like(beta)).array
        expected = (gy.astype('f8') * (xhat.astype('f8') * r[:, None] +
                                       d[:, None])).sum(axis=(0, 2))
        assert_close(ggamma, expected, dtype)

    def test_statistics_untouched_by_default(self, dtype):
        x, gamma, beta, rm, rv = _inputs(dtype)
        rm0, rv0 = rm.copy(), rv.copy()
        F.batch_renormalization(x, gamma, beta, 2.0, 1.0, running_mean=rm,
                                running_var=rv)
        numpy.testing.assert_array_equal(rm, rm0)
        numpy.testing.assert_array_equal(rv, rv0)

    def test_update_statistics(self, dtype):
        x, gamma, beta, rm, rv = _inputs(dtype)
        rm0, rv0 = rm.astype('f8'), rv.astype('f8')
        F.batch_renormalization(x, gamma, beta, 2.0, 1.0, running_mean=rm,
                                running_var=rv, decay=0.7,
                                update_statistics=True)
        x64 = x.astype('f8')
        m = 12
        assert_close(rm, 0.7 * rm0 + 0.3 * x64.mean(axis=(0, 2)), dtype)
        assert_close(rv, 0.7 * rv0 + 0.3 * x64.var(axis=(0, 2)) * m /
                     (m - 1), dtype)

    def test_running_statistics_are_required(self, dtype):
        x, gamma, beta, rm, rv = _inputs(dtype)
        with pytest.raises(TypeError, match='running_var'):
            F.batch_renormalization(x, gamma, beta, 2.0, 1.0,
                                    running_mean=rm)


def test_fixed_batch_renormalization_uses_the_given_statistics():
    rng = numpy.random.RandomState(0)
    x = rng.rand(4, 3, 2)
    gamma, beta = rng.rand(3) + 0.5, rng.rand(3)
    mean, var = rng.rand(3), rng.rand(3) + 0.5
    y = F.fixed_batch_renormalization(x, gamma, beta, mean, var, eps=1e-3)
    expected = (gamma[:, None] * (x - mean[:, None]) /
                numpy.sqrt(var[:, None] + 1e-3) + beta[:, None])
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-12)
