"""rrelu: in training, slopes drawn uniformly from [l, u) (numpy.random on
the CPU), or the given r; in test mode, the mean slope (l + u) / 2."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _negative(shape, dtype):
    return -numpy.ones(shape, dtype=dtype)


@dtype_param
class TestRReLU:

    def test_return_r_gives_the_slopes_used(self, dtype):
        x = numpy.random.RandomState(0).uniform(-1, 1, (3, 4)).astype(dtype)
        y, r = F.rrelu(x, return_r=True)
        assert y.dtype == dtype and r.dtype == dtype and r.shape == x.shape
        xf = x.astype('f8')
        assert_close(y, numpy.where(xf >= 0, xf, r.astype('f8') * xf), dtype)

    def test_positive_inputs_pass(self, dtype):
        x = typed([0, 0.5, 3], dtype)
        assert_close(F.rrelu(x), x, dtype)

    def test_slope_statistics(self, dtype):
        lower, upper = 0.1, 0.4
        numpy.random.seed(0)
        _, r = F.rrelu(_negative((200, 100), dtype), l=lower, u=upper,
                       return_r=True)
        r = r.astype('f8')
        assert r.min() >= lower and r.max() <= upper
        # 20000 samples: the mean is within ~4 standard errors, and so is
        # the variance of a uniform distribution, (u - l)^2 / 12.
        assert abs(r.mean() - (lower + upper) / 2) < 4 * 0.087 / 141
        assert abs(r.var() - (upper - lower) ** 2 / 12) < 3e-4
        hist, _ = numpy.histogram(r, bins=6, range=(lower, upper))
        assert hist.min() > 0.9 * r.size / 6

    def test_numpy_random_seed_reproduces(self, dtype):
        x = _negative((5,), dtype)
        numpy.random.seed(3)
        _, r1 = F.rrelu(x, return_r=True)
        numpy.random.seed(3)
        _, r2 = F.rrelu(x, return_r=True)
        numpy.testing.assert_array_equal(r1, r2)

    def test_given_r_is_used_in_training(self, dtype):
        x = typed([-1, -2, 3], dtype)
        r = typed([0.2, 0.3, 0.25], dtype)
        y, r_used = F.rrelu(x, r=r, return_r=True)
        assert r_used is r
        assert_close(y, [-0.2, -0.6, 3], dtype)

    def test_test_mode_uses_the_mean_slope(self, dtype):
        x = typed([-1, -2, 3], dtype)
        with chainer.using_config('train', False):
            y, r = F.rrelu(x, l=0.1, u=0.3, r=typed([0.9, 0.9, 0.9], dtype),
                           return_r=True)
        assert_close(y, [-0.2, -0.4, 3], dtype)
        assert_close(r, [0.2, 0.2, 0.2], dtype)

    def test_gradient_is_the_slope(self, dtype):
        x = chainer.Variable(typed([-1, 0, 2], dtype))
        r = typed([0.2, 0.3, 0.25], dtype)
        gx, = grads(F.rrelu(x, r=r), (x,), typed([1, 2, 3], dtype))
        assert_close(gx, [0.2, 2, 3], dtype)

    def test_second_derivative_is_zero(self, dtype):
        x = chainer.Variable(typed([-1, 2], dtype))
        gy = chainer.Variable(typed([1, 1], dtype))
        r = typed([0.25, 0.25], dtype)
        gx, = chainer.grad([F.rrelu(x, r=r)], [x], [gy],
                           enable_double_backprop=True)
        ggx, ggy = chainer.grad([gx], [x, gy], [typed([1, 1], dtype)])
        assert ggx is None or not ggx.array.any()
        assert_close(ggy, [0.25, 1], dtype)

    @pytest.mark.parametrize('l,u', [(-0.1, 0.3), (0.1, 1.0), (0.3, 0.3)])
    def test_bounds(self, dtype, l, u):  # NOQA: E741 (Chainer's name)
        with pytest.raises(ValueError, match='rrelu'):
            F.rrelu(typed([1], dtype), l=l, u=u)
