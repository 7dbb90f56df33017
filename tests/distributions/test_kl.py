"""KL divergences of the registered pairs against float64 references
(quadrature for univariate densities, exact sums for discrete
distributions, the closed form through NumPy linear algebra for the
multivariate normal, Monte Carlo for the Dirichlet), their gradients, and
the registry."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.distributions as D
from chainer_core import gradient_check

from . import assert_close, lbeta
from .specs import SPECS

SPEC = {s.name: s for s in SPECS}


def _pair(name, adjust=None):
    spec = SPEC[name]
    p1 = spec.params(numpy.random.default_rng(1))
    p2 = spec.params(numpy.random.default_rng(2))
    if adjust is not None:
        adjust(p1, p2)
    return spec, p1, p2


def _trapezoid(f, x):
    # numpy.trapezoid is NumPy 2 only and numpy.trapz is gone from 2.4.
    dx = numpy.diff(x).reshape((-1,) + (1,) * (f.ndim - 1))
    return ((f[1:] + f[:-1]) * dx).sum(axis=0) / 2


def _quad(spec, p1, p2, grid, to_x):
    """int p log(p/q) dx over x = to_x(t) (returns x and dx/dt) by the
    trapezoidal rule on the grid of t."""
    t = grid.reshape((-1,) + (1,) * len(spec.batch_shape))
    x, jac = to_x(t, p1)
    x = numpy.broadcast_to(x, (grid.size,) + spec.batch_shape)
    lp = spec.refs['log_prob'](x, p1)
    lq = spec.refs['log_prob'](x, p2)
    with numpy.errstate(invalid='ignore', over='ignore'):
        f = numpy.where(lp > -700, numpy.exp(lp) * (lp - lq) * jac, 0.0)
    return _trapezoid(f, grid)


def _real(t, p):
    return t, 1.0


def _positive(t, p):
    return numpy.exp(t), numpy.exp(t)


def _above_scale(t, p):
    x = p['scale'] * numpy.exp(t)
    return x, x


def _keep_inside(p1, p2):
    p2['low'] = p1['low'] - 0.3
    p2['high'] = p1['high'] + 0.2


def _lower_scale(p1, p2):
    p2['scale'] = p1['scale'] * 0.8


QUADRATURE = [
    ('Normal', numpy.linspace(-60, 60, 200001), _real, None),
    ('Laplace', numpy.linspace(-80, 80, 400001), _real, None),
    ('Gumbel', numpy.linspace(-30, 90, 200001), _real, None),
    ('LogNormal', numpy.linspace(-30, 30, 200001), _positive, None),
    ('Exponential', numpy.linspace(-40, 6, 200001), _positive, None),
    ('Gamma', numpy.linspace(-60, 6, 200001), _positive, None),
    ('Pareto', numpy.linspace(0, 30, 200001), _above_scale, _lower_scale),
]


@pytest.mark.parametrize('name,grid,to_x,adjust', QUADRATURE,
                         ids=[q[0] for q in QUADRATURE])
def test_kl_by_quadrature(name, grid, to_x, adjust):
    spec, p1, p2 = _pair(name, adjust)
    kl = chainer.kl_divergence(spec.build(p1), spec.build(p2))
    assert kl.shape == spec.batch_shape
    expected = _quad(spec, p1, p2, grid, to_x)
    assert numpy.all(expected > 0)
    numpy.testing.assert_allclose(kl.array, expected, rtol=1e-6, atol=1e-8)


def test_beta_kl_by_quadrature():
    # Over t = logit(x), with log x and log(1 - x) formed from t so that
    # neither rounds to log 0 in the tails.
    spec, p1, p2 = _pair('Beta')
    kl = chainer.kl_divergence(spec.build(p1), spec.build(p2))
    t = numpy.linspace(-80, 80, 400001).reshape(-1, 1, 1)
    log_x, log_1mx = -numpy.logaddexp(0, -t), -numpy.logaddexp(0, t)

    def log_pdf(p):
        return (p['a'] - 1) * log_x + (p['b'] - 1) * log_1mx - \
            lbeta(p['a'], p['b'])

    lp, lq = log_pdf(p1), log_pdf(p2)
    f = numpy.exp(lp + log_x + log_1mx) * (lp - lq)
    expected = _trapezoid(f, t[:, 0, 0])
    numpy.testing.assert_allclose(kl.array, expected, rtol=1e-6, atol=1e-8)


def test_uniform_kl():
    spec, p1, p2 = _pair('Uniform', _keep_inside)
    kl = chainer.kl_divergence(spec.build(p1), spec.build(p2))
    assert_close(kl, numpy.log((p2['high'] - p2['low'])
                               / (p1['high'] - p1['low'])), numpy.float64)
    # Where the first support is not inside the second, the divergence is
    # infinite.
    p2['low'][0, 0] = p1['low'][0, 0] + 0.1
    kl = chainer.kl_divergence(spec.build(p1), spec.build(p2)).array
    assert kl[0, 0] == numpy.inf
    assert numpy.isfinite(kl.ravel()[1:]).all()


def test_pareto_kl_is_infinite_below_the_other_scale():
    spec, p1, p2 = _pair('Pareto', _lower_scale)
    p2['scale'][1, 2] = p1['scale'][1, 2] * 1.1
    kl = chainer.kl_divergence(spec.build(p1), spec.build(p2)).array
    assert kl[1, 2] == numpy.inf
    assert numpy.isfinite(kl.ravel()[:-1]).all()


def _exact_sum(spec, p1, p2, support):
    total = 0.0
    for k in support:
        x = numpy.full(spec.batch_shape + spec.event_shape, k, numpy.float64) \
            if numpy.ndim(k) == 0 else numpy.broadcast_to(
                k, spec.batch_shape + spec.event_shape)
        lp = spec.refs['log_prob'](x, p1)
        lq = spec.refs['log_prob'](x, p2)
        total = total + numpy.exp(lp) * (lp - lq)
    return total


EXACT = [
    ('Bernoulli', (0, 1)),
    ('Bernoulli(logit)', (0, 1)),
    ('Poisson', range(0, 200)),
    ('Geometric', range(1, 3000)),
    ('Categorical', range(4)),
    ('Categorical(logit)', range(4)),
    ('OneHotCategorical', list(numpy.eye(4))),
]


@pytest.mark.parametrize('name,support', EXACT, ids=[e[0] for e in EXACT])
def test_kl_by_exact_sum(name, support):
    spec, p1, p2 = _pair(name)
    kl = chainer.kl_divergence(spec.build(p1), spec.build(p2))
    assert kl.shape == spec.batch_shape
    assert_close(kl, _exact_sum(spec, p1, p2, support), numpy.float64,
                 scale=100)


def _mvn_kl(p1, p2):
    c1 = p1['scale_tril'] @ numpy.swapaxes(p1['scale_tril'], -1, -2)
    c2 = p2['scale_tril'] @ numpy.swapaxes(p2['scale_tril'], -1, -2)
    c2inv = numpy.linalg.inv(c2)
    dm = p2['loc'] - p1['loc']
    return 0.5 * (numpy.trace(c2inv @ c1, axis1=-2, axis2=-1)
                  + numpy.einsum('bi,bij,bj->b', dm, c2inv, dm) - 3
                  + numpy.linalg.slogdet(c2)[1] - numpy.linalg.slogdet(c1)[1])


def test_multivariate_normal_kl():
    spec, p1, p2 = _pair('MultivariateNormal')
    kl = chainer.kl_divergence(spec.build(p1), spec.build(p2))
    assert kl.shape == (2,)
    assert_close(kl, _mvn_kl(p1, p2), numpy.float64, scale=100)


def test_multivariate_normal_kl_broadcasts_batches():
    spec, p1, p2 = _pair('MultivariateNormal')
    q = D.MultivariateNormal(p2['loc'][0], scale_tril=p2['scale_tril'][0])
    kl = chainer.kl_divergence(spec.build(p1), q)
    p2b = {k: numpy.broadcast_to(v[:1], v.shape) for k, v in p2.items()}
    assert_close(kl, _mvn_kl(p1, p2b), numpy.float64, scale=100)


def test_dirichlet_kl_by_monte_carlo():
    spec, p1, p2 = _pair('Dirichlet')
    kl = chainer.kl_divergence(spec.build(p1), spec.build(p2)).array
    rng = numpy.random.default_rng(0)
    n = 200000
    for b in range(2):
        x = rng.dirichlet(p1['alpha'][b], size=n)
        one = {'alpha': p1['alpha'][b]}
        two = {'alpha': p2['alpha'][b]}
        r = spec.refs['log_prob'](x, one) - spec.refs['log_prob'](x, two)
        assert abs(kl[b] - r.mean()) < 6 * r.std() / math.sqrt(n)


def test_independent_kl_sums_the_base_divergences():
    spec, p1, p2 = _pair('Normal')
    kl = chainer.kl_divergence(
        D.Independent(spec.build(p1)), D.Independent(spec.build(p2)))
    base = chainer.kl_divergence(spec.build(p1), spec.build(p2))
    assert kl.shape == (2,)
    assert_close(kl, base.array.sum(-1), numpy.float64)
    kl0 = chainer.kl_divergence(
        D.Independent(spec.build(p1), 0), D.Independent(spec.build(p2), 0))
    assert_close(kl0, base.array, numpy.float64)


def test_independent_kl_rejects_different_event_shapes():
    spec, p1, p2 = _pair('Normal')
    with pytest.raises(ValueError, match='event shapes'):
        chainer.kl_divergence(D.Independent(spec.build(p1), 1),
                              D.Independent(spec.build(p2), 2))


KL_SPECS = [n for n, *_ in QUADRATURE] + [n for n, _ in EXACT] + [
    'Beta', 'Uniform', 'MultivariateNormal', 'Dirichlet', 'Independent',
    'Normal(log_scale)']


@pytest.mark.parametrize('name', KL_SPECS)
def test_kl_of_a_distribution_with_itself_is_zero(name):
    spec, p1, _ = _pair(name)
    kl = chainer.kl_divergence(spec.build(p1), spec.build(p1))
    numpy.testing.assert_allclose(kl.array, 0, atol=1e-12)


ADJUST = {'Uniform': _keep_inside, 'Pareto': _lower_scale}


@pytest.mark.parametrize('name', KL_SPECS)
def test_kl_gradients(name):
    spec, p1, p2 = _pair(name, ADJUST.get(name))
    k = len(spec.names)
    params = tuple(p1[n] for n in spec.names) + \
        tuple(p2[n] for n in spec.names)

    def fn(*ps):
        return chainer.kl_divergence(spec.make(*ps[:k]), spec.make(*ps[k:]))

    gy = numpy.random.default_rng(0).normal(size=fn(*params).shape)
    gradient_check.check_backward(fn, params, gy, eps=1e-5, atol=1e-6,
                                  rtol=1e-5)


def test_cross_entropy_is_entropy_plus_kl():
    spec, p1, p2 = _pair('Normal')
    p, q = spec.build(p1), spec.build(p2)
    # -E_p[log q] for normals, written out.
    expected = numpy.log(p2['scale']) + 0.5 * math.log(2 * math.pi) + \
        (p1['scale'] ** 2 + (p1['loc'] - p2['loc']) ** 2) / \
        (2 * p2['scale'] ** 2)
    assert_close(chainer.cross_entropy(p, q), expected, numpy.float64)


class TestRegistry:

    def test_missing_pair_names_both_classes(self):
        with pytest.raises(NotImplementedError, match='Normal and Gamma'):
            chainer.kl_divergence(D.Normal(0.0, 1.0), D.Gamma(1.0, 1.0))
        with pytest.raises(NotImplementedError, match='Cauchy and Cauchy'):
            chainer.kl_divergence(D.Cauchy(0.0, 1.0), D.Cauchy(0.0, 1.0))

    def test_chainer_pairs_are_registered(self):
        from chainer_core.distribution import _KL_REGISTRY
        for cls in (D.Bernoulli, D.Beta, D.Categorical, D.Dirichlet,
                    D.Exponential, D.Gamma, D.Geometric, D.Gumbel,
                    D.Independent, D.Laplace, D.LogNormal,
                    D.MultivariateNormal, D.Normal, D.OneHotCategorical,
                    D.Pareto, D.Poisson, D.Uniform):
            assert (cls, cls) in _KL_REGISTRY, cls

    def test_register_a_new_pair_and_subclass_dispatch(self):
        class Point(D.Normal):
            pass

        class Sharper(Point):
            pass

        @chainer.register_kl(Point, D.Normal)
        def _kl_point_normal(p, q):
            return q.loc * 0 + 42.0

        assert _kl_point_normal.__name__ == '_kl_point_normal'
        a = Point(numpy.zeros(2), numpy.ones(2))
        b = D.Normal(numpy.zeros(2), numpy.ones(2))
        numpy.testing.assert_array_equal(chainer.kl_divergence(a, b).array,
                                         [42.0, 42.0])
        # A subclass without its own pair uses the nearest registered one.
        s = Sharper(numpy.zeros(2), numpy.ones(2))
        numpy.testing.assert_array_equal(chainer.kl_divergence(s, b).array,
                                         [42.0, 42.0])
        # Normal–Normal still applies to (Normal, Point).
        numpy.testing.assert_array_equal(chainer.kl_divergence(b, a).array,
                                         [0.0, 0.0])

    def test_bad_registrations(self):
        with pytest.raises(TypeError, match='Dist1'):
            chainer.register_kl(int, D.Normal)
        with pytest.raises(TypeError, match='Dist2'):
            chainer.register_kl(D.Normal, 'Normal')
        with pytest.raises(TypeError, match='callable'):
            chainer.register_kl(D.Normal, D.Normal)(3)

    def test_arguments_must_be_distributions(self):
        with pytest.raises(TypeError, match='dist2'):
            chainer.kl_divergence(D.Normal(0.0, 1.0), numpy.zeros(2))

    def test_exports(self):
        assert chainer.Distribution is D.Distribution
        assert chainer.distributions.kl_divergence is chainer.kl_divergence
        assert chainer.distributions.register_kl is chainer.register_kl
