"""Sampling: statistics of many draws against the references (fixed seeds,
tolerances from the draws' own spread), the distribution function (a
Kolmogorov-Smirnov bound), dtypes, reproducibility, and gradients through
reparameterised samples."""
import numpy
import pytest

import chainer_core as chainer
from chainer_core import gradient_check

from .specs import SPECS

N = 20000
SEED = 3


def _dist(spec, dtype=numpy.float64):
    p = spec.params(numpy.random.default_rng(SEED))
    return p, spec.build(p, dtype)


def _draw(d, n=N, seed=SEED):
    numpy.random.seed(seed)
    return d.sample(n).array.astype(numpy.float64)


MOMENTS = [s for s in SPECS if 'mean' in s.refs and 'variance' in s.refs]


@pytest.mark.parametrize('spec', MOMENTS, ids=repr)
def test_mean_and_variance(spec):
    p, d = _dist(spec)
    s = _draw(d)
    mean, var = spec.refs['mean'](p), spec.refs['variance'](p)
    m = s.mean(0)
    assert numpy.all(numpy.abs(m - mean) <= 6 * numpy.sqrt(var / N))
    v = s.var(0)
    m4 = ((s - m) ** 4).mean(0)
    se = numpy.sqrt(numpy.maximum(m4 - v ** 2, 0) / N)
    assert numpy.all(numpy.abs(v - var) <= 6 * se + 1e-12)


CDF = [s for s in SPECS if 'cdf' in s.refs]


@pytest.mark.parametrize('spec', CDF, ids=repr)
def test_empirical_distribution_function(spec):
    p, d = _dist(spec)
    s = _draw(d)
    probe = spec.points(numpy.random.default_rng(SEED + 1), p)
    ecdf = (s[:, None] <= probe[None]).mean(0)
    # 1.95 / sqrt(N) is the 0.1% critical value of the KS statistic.
    assert numpy.max(numpy.abs(ecdf - spec.refs['cdf'](probe, p))) < \
        1.95 / numpy.sqrt(N)


def test_mvn_covariance():
    spec = next(s for s in SPECS if s.name == 'MultivariateNormal')
    p, d = _dist(spec)
    s = _draw(d)
    diff = s - s.mean(0)
    cov = numpy.einsum('nbi,nbj->bij', diff, diff) / N
    ref = spec.refs['covariance'](p)
    scale = numpy.sqrt(numpy.einsum('bii,bjj->bij', ref, ref) / N)
    assert numpy.all(numpy.abs(cov - ref) <= 6 * scale)


@pytest.mark.parametrize('name', ['Categorical', 'Categorical(logit)',
                                  'OneHotCategorical'])
def test_category_frequencies(name):
    spec = next(s for s in SPECS if s.name == name)
    p, d = _dist(spec)
    s = _draw(d)
    probs = d.p.array
    if name == 'OneHotCategorical':
        assert numpy.all(s.sum(-1) == 1)
        freq = s.mean(0)
    else:
        freq = (s[..., None] == numpy.arange(4)).mean(0)
    assert numpy.all(numpy.abs(freq - probs) <=
                     6 * numpy.sqrt(probs * (1 - probs) / N))


def test_cauchy_quartiles():
    spec = next(s for s in SPECS if s.name == 'Cauchy')
    p, d = _dist(spec)
    s = _draw(d)
    for q in (0.25, 0.5, 0.75):
        # The q-th draw quantile is within a few draws' spacing of the
        # reference quantile: compare through the distribution function.
        emp = numpy.quantile(s, q, axis=0)
        assert numpy.all(numpy.abs(spec.refs['cdf'](emp, p) - q) <
                         6 * numpy.sqrt(q * (1 - q) / N))


@pytest.mark.parametrize('name,check', [
    ('Bernoulli', lambda s: numpy.isin(s, (0, 1)).all()),
    ('Poisson', lambda s: (s >= 0).all() and (s == numpy.floor(s)).all()),
    ('Geometric', lambda s: (s >= 1).all() and (s == numpy.floor(s)).all()),
    ('Categorical', lambda s: ((s >= 0) & (s < 4)).all()),
    ('Beta', lambda s: ((s >= 0) & (s <= 1)).all()),
    ('Dirichlet', lambda s: numpy.allclose(s.sum(-1), 1)),
    ('Pareto', lambda s: True),
])
def test_samples_lie_in_the_support(name, check):
    spec = next(s for s in SPECS if s.name == name)
    p, d = _dist(spec)
    s = _draw(d, n=500)
    assert check(s)
    assert numpy.all(numpy.isfinite(d.log_prob(s.astype(
        numpy.float64)).array))


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('spec', SPECS, ids=repr)
def test_sample_dtype_and_seed(spec, dtype):
    _, d = _dist(spec, dtype)
    numpy.random.seed(5)
    a = d.sample((3, 2))
    numpy.random.seed(5)
    b = d.sample((3, 2))
    numpy.testing.assert_array_equal(a.array, b.array)
    if spec.sample_dtype is None:
        assert a.dtype == dtype
    else:
        assert a.dtype.kind == spec.sample_dtype


@pytest.mark.parametrize('spec', [s for s in SPECS if s.reparam], ids=repr)
def test_reparameterised_sample_gradients(spec):
    rng = numpy.random.default_rng(SEED)
    p = spec.params(rng)
    params = tuple(p[n] for n in spec.names)

    def fn(*ps):
        # The same noise at every evaluation: the sample is a
        # deterministic, differentiable function of the parameters.
        numpy.random.seed(17)
        return spec.make(*ps).sample(3)

    gy = rng.normal(size=fn(*params).shape)
    gradient_check.check_backward(fn, params, gy, eps=1e-5, atol=1e-6,
                                  rtol=1e-5)


@pytest.mark.parametrize('spec', [s for s in SPECS if not s.reparam],
                         ids=repr)
def test_other_samples_are_not_differentiable(spec):
    p = spec.params(numpy.random.default_rng(SEED))
    params = [chainer.Variable(p[n]) for n in spec.names]
    s = spec.make(*params).sample(2)
    assert s.creator is None
    assert not s.requires_grad


def test_normal_sample_gradient_is_the_noise():
    loc = chainer.Variable(numpy.zeros(3))
    scale = chainer.Variable(numpy.full(3, 2.0))
    numpy.random.seed(0)
    s = chainer.distributions.Normal(loc, scale).sample(4)
    numpy.random.seed(0)
    eps = numpy.random.standard_normal((4, 3))
    gloc, gscale = chainer.grad([s], [loc, scale], [numpy.ones((4, 3))])
    numpy.testing.assert_allclose(gloc.array, numpy.full(3, 4.0))
    numpy.testing.assert_allclose(gscale.array, eps.sum(0))
    numpy.testing.assert_allclose(s.array, 2 * eps)


def test_sample_n_zero():
    d = chainer.distributions.Normal(numpy.zeros(3), numpy.ones(3))
    assert d.sample_n(0).shape == (0, 3)
    assert d.sample((0, 2)).shape == (0, 2, 3)
