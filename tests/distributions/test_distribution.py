"""Behaviour beyond the reference tables: numerically hard regions
(far tails, extreme logits, boundaries, zero probabilities), parameter
broadcasting and dtypes, the base class's derived methods, Independent and
MultivariateNormal specifics, double backprop."""
import math
import warnings

import numpy
import pytest

import chainer_core as chainer
import chainer_core.distributions as D
import chainer_core.functions as F
from chainer_core import gradient_check

from . import assert_close


def _log_normal_tail(z):
    """log Phi(z) for z << 0 through Laplace's continued fraction of the
    Mills ratio."""
    x = -z
    frac = x
    for k in range(300, 0, -1):
        frac = x + k / frac
    return -0.5 * x * x - 0.5 * math.log(2 * math.pi) - math.log(frac)


class TestNormalTails:

    @pytest.mark.parametrize('z', [-8.0, -19.0, -21.0, -40.0, -100.0,
                                   -1e3])
    def test_log_cdf_far_in_the_lower_tail(self, z):
        d = D.Normal(numpy.zeros(1), numpy.ones(1))
        y = d.log_cdf(numpy.array([z]))
        numpy.testing.assert_allclose(y.array, [_log_normal_tail(z)],
                                      rtol=1e-12)
        y = d.log_survival_function(numpy.array([-z]))
        numpy.testing.assert_allclose(y.array, [_log_normal_tail(z)],
                                      rtol=1e-12)

    @pytest.mark.parametrize('z', [-9.0, -12.0, -30.0])
    def test_log_cdf_float32(self, z):
        d = D.Normal(numpy.zeros(1, numpy.float32),
                     numpy.ones(1, numpy.float32))
        y = d.log_cdf(numpy.array([z], numpy.float32))
        assert y.dtype == numpy.float32
        numpy.testing.assert_allclose(y.array, [_log_normal_tail(z)],
                                      rtol=1e-5)

    def test_log_cdf_gradient_in_the_tail(self):
        # d/dz log Phi(z) = phi(z) / Phi(z), about -z for z << 0.
        z = chainer.Variable(numpy.array([-30.0, -5.0]))
        d = D.Normal(numpy.zeros(2), numpy.ones(2))
        g, = chainer.grad([d.log_cdf(z)], [z], [numpy.ones(2)])
        expected = [math.exp(-0.5 * v * v - _log_normal_tail(v))
                    / math.sqrt(2 * math.pi) for v in (-30.0, -5.0)]
        numpy.testing.assert_allclose(g.array, expected, rtol=1e-10)

    def test_double_backprop_of_log_prob(self):
        rng = numpy.random.default_rng(0)
        loc, scale = rng.normal(size=3), rng.uniform(0.5, 2, size=3)
        x = rng.normal(size=(2, 3))

        def fn(loc, scale):
            return D.Normal(loc, scale).log_prob(x)

        gradient_check.check_double_backward(
            fn, (loc, scale), rng.normal(size=(2, 3)),
            (rng.normal(size=3), rng.normal(size=3)), eps=1e-5, atol=1e-6,
            rtol=1e-5)


class TestExtremes:

    def test_bernoulli_large_logits(self):
        logit = numpy.array([-60.0, 60.0, 0.0])
        d = D.Bernoulli(logit=logit)
        lp1 = d.log_prob(numpy.ones(3)).array
        lp0 = d.log_prob(numpy.zeros(3)).array
        numpy.testing.assert_allclose(lp1, [-60.0, -math.exp(-60),
                                            math.log(0.5)], rtol=1e-12)
        numpy.testing.assert_allclose(lp0, [-math.exp(-60), -60.0,
                                            math.log(0.5)], rtol=1e-12)
        h = d.entropy.array
        assert numpy.all(numpy.isfinite(h))
        numpy.testing.assert_allclose(h[2], math.log(2), rtol=1e-14)
        assert 0 < h[0] < 1e-24

    def test_bernoulli_extreme_probabilities(self):
        d = D.Bernoulli(numpy.array([0.0, 1.0, 0.5]))
        numpy.testing.assert_allclose(d.entropy.array, [0, 0, math.log(2)])
        lp = d.log_prob(numpy.array([0.0, 1.0, 1.0])).array
        numpy.testing.assert_allclose(lp, [0, 0, math.log(0.5)])

    def test_categorical_large_logits(self):
        logit = numpy.array([[1000.0, 0.0, -1000.0]])
        d = D.Categorical(logit=logit)
        lp = d.log_prob(numpy.array([0, 1, 2])[:, None]).array[:, 0]
        numpy.testing.assert_allclose(lp, [0.0, -1000.0, -2000.0],
                                      atol=1e-12)
        assert numpy.isfinite(d.entropy.array).all()

    def test_zero_probability_categories(self):
        p = numpy.array([[0.5, 0.5, 0.0]])
        d = D.Categorical(p)
        assert_close(d.entropy, [math.log(2)], numpy.float64)
        assert d.log_prob(numpy.array([[2]])).array[0, 0] == -numpy.inf
        q = D.Categorical(numpy.array([[0.25, 0.25, 0.5]]))
        assert_close(chainer.kl_divergence(d, q), [math.log(2)],
                     numpy.float64)
        oh = D.OneHotCategorical(p[0])
        assert_close(oh.entropy, math.log(2), numpy.float64)
        assert oh.log_prob(numpy.array([0.0, 0.0, 1.0])).array == -numpy.inf
        assert_close(oh.log_prob(numpy.array([1.0, 0.0, 0.0])),
                     math.log(0.5), numpy.float64)

    def test_beta_at_the_ends_of_the_interval(self):
        d = D.Beta(numpy.array([1.0, 2.0, 0.5, 1.0]),
                   numpy.array([1.0, 1.0, 1.0, 3.0]))
        lp = d.log_prob(numpy.array([0.0, 0.0, 0.0, 1.0])).array
        assert lp[0] == 0
        assert lp[1] == -numpy.inf
        assert lp[2] == numpy.inf
        assert lp[3] == -numpy.inf

    def test_gamma_and_exponential_at_zero(self):
        d = D.Gamma(numpy.array([1.0, 2.0]), numpy.array([2.0, 2.0]))
        lp = d.log_prob(numpy.zeros(2)).array
        numpy.testing.assert_allclose(lp[0], -math.log(2.0))
        assert lp[1] == -numpy.inf
        e = D.Exponential(numpy.array([3.0]))
        numpy.testing.assert_allclose(e.log_prob(numpy.zeros(1)).array,
                                      [math.log(3.0)])
        assert e.cdf(numpy.array([-1.0])).array[0] == 0

    def test_no_nan_gradients_outside_the_support(self):
        a = chainer.Variable(numpy.array([2.0, 2.0]))
        b = chainer.Variable(numpy.array([3.0, 3.0]))
        y = D.Beta(a, b).log_prob(numpy.array([0.5, 1.5]))
        ga, gb = chainer.grad([y], [a, b], [numpy.ones(2)])
        assert numpy.isfinite(ga.array).all() and ga.array[1] == 0
        assert numpy.isfinite(gb.array).all()
        lam = chainer.Variable(numpy.array([1.0, 1.0]))
        y = D.Exponential(lam).log_prob(numpy.array([1.0, -1.0]))
        g, = chainer.grad([y], [lam], [numpy.ones(2)])
        numpy.testing.assert_allclose(g.array, [0.0, 0.0])

    def test_cauchy_mean_and_variance_are_undefined(self):
        d = D.Cauchy(numpy.zeros(2), numpy.ones(2))
        for name in ('mean', 'variance'):
            with pytest.warns(RuntimeWarning, match='undefined'):
                v = getattr(d, name)
            assert v.shape == (2,) and numpy.isnan(v.array).all()

    def test_pareto_moments_are_infinite_for_small_alpha(self):
        d = D.Pareto(numpy.ones(3), numpy.array([0.5, 1.5, 3.0]))
        m, v = d.mean.array, d.variance.array
        assert m[0] == numpy.inf and numpy.isfinite(m[1:]).all()
        assert v[0] == v[1] == numpy.inf and numpy.isfinite(v[2])
        numpy.testing.assert_allclose(m[1], 3.0)


class TestParameters:

    def test_parameters_broadcast_and_gradients_keep_their_shapes(self):
        loc = chainer.Variable(numpy.zeros((2, 3)))
        scale = chainer.Variable(numpy.array(2.0))
        d = D.Normal(loc, scale)
        assert d.batch_shape == (2, 3)
        gl, gs = chainer.grad([d.log_prob(numpy.ones((2, 3)))],
                              [loc, scale], [numpy.ones((2, 3))])
        assert gl.shape == (2, 3) and gs.shape == ()
        # d/dsigma of -z^2/2 - log sigma at z = 1/2, summed over 6 points.
        numpy.testing.assert_allclose(gs.array, 6 * (0.25 / 2 - 0.5))

    def test_python_numbers(self):
        d = D.Normal(0.0, 1.0)
        assert d.batch_shape == ()
        assert d.loc.dtype == numpy.float32
        d = D.Normal(numpy.zeros(2, numpy.float64), 2)
        assert d.scale.dtype == numpy.float64
        assert d.log_prob(0.5).shape == (2,)

    def test_parameters_are_kept(self):
        loc = chainer.Variable(numpy.zeros(3))
        scale = chainer.Variable(numpy.ones(3))
        d = D.Normal(loc, scale)
        assert d.loc is loc and d.scale is scale
        assert d.params['loc'] is loc and d.params['scale'] is scale

    def test_float16(self):
        d = D.Normal(numpy.zeros(2, numpy.float16),
                     numpy.ones(2, numpy.float16))
        y = d.log_prob(numpy.array([0.0, 1.0], numpy.float16))
        assert y.dtype == numpy.float16
        numpy.testing.assert_allclose(
            y.array, [-0.5 * math.log(2 * math.pi),
                      -0.5 - 0.5 * math.log(2 * math.pi)], rtol=2e-3)
        assert d.sample(3).dtype == numpy.float16

    def test_normal_log_scale(self):
        log_scale = chainer.Variable(numpy.array([0.0, math.log(2.0)]))
        d = D.Normal(numpy.zeros(2), log_scale=log_scale)
        assert d.log_scale is log_scale
        numpy.testing.assert_allclose(d.scale.array, [1.0, 2.0])
        assert set(d.params) == {'loc', 'scale'}

    def test_uniform_loc_scale(self):
        d = D.Uniform(loc=numpy.array([1.0]), scale=numpy.array([2.0]))
        numpy.testing.assert_allclose(d.low.array, [1.0])
        numpy.testing.assert_allclose(d.high.array, [3.0])
        numpy.testing.assert_allclose(d.scale.array, [2.0])
        assert set(d.params) == {'low', 'high'}

    def test_bernoulli_and_categorical_parameters(self):
        d = D.Bernoulli(numpy.array([0.25]))
        numpy.testing.assert_allclose(d.logit.array, [math.log(1 / 3)])
        d = D.Bernoulli(logit=numpy.array([0.0]))
        numpy.testing.assert_allclose(d.p.array, [0.5])
        assert set(d.params) == {'logit'}
        c = D.Categorical(logit=numpy.log(numpy.array([[1.0, 3.0]])))
        numpy.testing.assert_allclose(c.p.array, [[0.25, 0.75]])
        numpy.testing.assert_allclose(c.log_p.array,
                                      numpy.log([[0.25, 0.75]]))


class TestIndependent:

    def test_default_reinterprets_all_but_the_first_batch_axis(self):
        base = D.Normal(numpy.zeros((4, 3, 2)), numpy.ones((4, 3, 2)))
        d = D.Independent(base)
        assert d.reinterpreted_batch_ndims == 2
        assert d.batch_shape == (4,) and d.event_shape == (3, 2)
        assert d.distribution is base
        assert D.Independent(D.Normal(numpy.zeros(3),
                                      numpy.ones(3))).batch_shape == (3,)

    def test_log_prob_and_entropy_sum_over_the_event_axes(self):
        rng = numpy.random.default_rng(0)
        base = D.Normal(rng.normal(size=(4, 3, 2)), numpy.ones((4, 3, 2)))
        d = D.Independent(base, 1)
        x = rng.normal(size=(5, 4, 3, 2))
        numpy.testing.assert_allclose(
            d.log_prob(x).array, base.log_prob(x).array.sum(-1))
        numpy.testing.assert_allclose(d.entropy.array,
                                      base.entropy.array.sum(-1))
        assert d.sample(7).shape == (7, 4, 3, 2)
        d0 = D.Independent(base, 0)
        assert d0.batch_shape == (4, 3, 2) and d0.event_shape == ()

    def test_of_a_multivariate_base(self):
        base = D.MultivariateNormal(numpy.zeros((2, 3)),
                                    scale_tril=numpy.broadcast_to(
                                        numpy.eye(3), (2, 3, 3)))
        d = D.Independent(base, 1)
        assert d.batch_shape == () and d.event_shape == (2, 3)
        x = numpy.ones((2, 3))
        numpy.testing.assert_allclose(d.log_prob(x).array,
                                      base.log_prob(x).array.sum())


class TestMultivariateNormal:

    def test_upper_triangle_is_ignored(self):
        rng = numpy.random.default_rng(0)
        tril = numpy.tril(rng.normal(size=(3, 3))) + 3 * numpy.eye(3)
        full = tril + numpy.triu(rng.normal(size=(3, 3)), 1)
        x = rng.normal(size=(4, 3))
        a = D.MultivariateNormal(numpy.zeros(3), scale_tril=tril)
        b = D.MultivariateNormal(numpy.zeros(3), scale_tril=full)
        numpy.testing.assert_allclose(a.log_prob(x).array,
                                      b.log_prob(x).array)
        numpy.testing.assert_allclose(b.covariance.array, tril @ tril.T)

    def test_batch_broadcast_and_the_chainer_example(self):
        d = D.MultivariateNormal(numpy.zeros(3),
                                 scale_tril=numpy.broadcast_to(
                                     numpy.eye(3), (2, 3, 3)))
        assert d.batch_shape == (2,) and d.event_shape == (3,)
        rng = numpy.random.default_rng(0)
        loc = rng.normal(size=(4, 3, 2)).astype(numpy.float32)
        a = rng.normal(size=(4, 3, 2, 2))
        cov = a @ numpy.swapaxes(a, -1, -2) + numpy.eye(2)
        dist = D.MultivariateNormal(
            loc, scale_tril=numpy.linalg.cholesky(cov).astype(numpy.float32))
        assert dist.event_shape == (2,) and dist.batch_shape == (4, 3)
        assert dist.sample(sample_shape=(6, 5)).shape == (6, 5, 4, 3, 2)
        assert dist.log_prob(numpy.zeros((6, 4, 3, 2), numpy.float32)
                             ).shape == (6, 4, 3)


class TestBaseClass:

    def test_derived_methods(self):
        class Half(chainer.Distribution):
            """A unit exponential defined only through log_prob, cdf,
            variance and sample_n."""

            batch_shape = (2,)
            event_shape = ()

            def log_prob(self, x):
                return -chainer.as_variable(x)

            def cdf(self, x):
                return 1 - F.exp(-chainer.as_variable(x))

            @property
            def variance(self):
                return chainer.Variable(numpy.full(2, 4.0))

            def sample_n(self, n):
                return chainer.Variable(numpy.ones((n, 2)))

        d = Half()
        x = numpy.array([0.5, 2.0])
        numpy.testing.assert_allclose(d.prob(x).array, numpy.exp(-x))
        numpy.testing.assert_allclose(d.survival_function(x).array,
                                      numpy.exp(-x))
        numpy.testing.assert_allclose(d.log_survival_function(x).array, -x)
        numpy.testing.assert_allclose(d.log_cdf(x).array,
                                      numpy.log1p(-numpy.exp(-x)))
        numpy.testing.assert_allclose(d.stddev.array, [2.0, 2.0])
        assert d.sample().shape == (2,)
        assert d.sample(3).shape == (3, 2)
        assert d.sample([2, 2]).shape == (2, 2, 2)
        with pytest.raises(NotImplementedError, match='Half does not define '
                                                      'entropy'):
            d.entropy

    def test_xp_and_device(self):
        d = D.Normal(numpy.zeros(2), numpy.ones(2))
        assert d.xp is numpy
        assert d.device is not None
        assert D.Bernoulli(logit=numpy.zeros(2)).xp is numpy

    def test_distributions_are_distributions(self):
        for name in ('Bernoulli', 'Beta', 'Categorical', 'Cauchy',
                     'Chisquare', 'Dirichlet', 'Exponential', 'Gamma',
                     'Geometric', 'Gumbel', 'Independent', 'Laplace',
                     'LogNormal', 'MultivariateNormal', 'Normal',
                     'OneHotCategorical', 'Pareto', 'Poisson', 'Uniform'):
            assert issubclass(getattr(D, name), chainer.Distribution)

    def test_no_warnings_on_ordinary_use(self):
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            d = D.Gamma(numpy.ones(2), numpy.ones(2))
            d.log_prob(numpy.array([0.5, 1.0]))
            d.entropy
