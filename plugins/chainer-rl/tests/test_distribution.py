"""chainer_rl.distribution against SciPy/NumPy brute force: densities,
entropies, KL divergences (numeric integration and Monte Carlo), sampling
statistics with fixed seeds, and gradients, on every device."""
import numpy
import pytest
from scipy import integrate
from scipy import stats

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check

from chainer_rl import distribution

from array_testing import host


LOGITS = numpy.array([[1.0, 2.0, -1.0, 0.5],
                      [0.0, 0.0, 3.0, -2.0]], dtype=numpy.float32)


def _softmax(x):
    e = numpy.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.mark.parametrize('beta,min_prob', [(1.0, 0.0), (0.5, 0.1)])
def test_softmax_values(device, beta, min_prob):
    d = distribution.SoftmaxDistribution(device.send(LOGITS), beta=beta,
                                         min_prob=min_prob)
    p = _softmax(beta * LOGITS.astype(numpy.float64))
    p = p * (1 - 4 * min_prob) + min_prob
    numpy.testing.assert_allclose(host(d.all_prob), p, rtol=1e-5)
    numpy.testing.assert_allclose(host(d.all_log_prob), numpy.log(p),
                                  rtol=1e-5)
    actions = numpy.array([1, 3])
    numpy.testing.assert_allclose(host(d.prob(actions)),
                                  p[[0, 1], actions], rtol=1e-5)
    numpy.testing.assert_allclose(host(d.log_prob(actions)),
                                  numpy.log(p[[0, 1], actions]), rtol=1e-5)
    numpy.testing.assert_allclose(host(d.entropy),
                                  stats.entropy(p, axis=1), rtol=1e-5)
    numpy.testing.assert_array_equal(host(d.most_probable), [1, 2])
    other = distribution.SoftmaxDistribution(device.send(LOGITS[::-1]))
    q = _softmax(LOGITS[::-1].astype(numpy.float64))
    numpy.testing.assert_allclose(host(d.kl(other)),
                                  stats.entropy(p, q, axis=1), rtol=1e-5)
    assert d.params == (d.logits,)


def test_softmax_sampling_frequencies(device):
    n = 20000
    logits = numpy.tile(LOGITS, (n // 2, 1))
    d = distribution.SoftmaxDistribution(device.send(logits))
    numpy.random.seed(3)
    samples = host(d.sample())
    assert samples.dtype == numpy.int32 and samples.shape == (n,)
    p = _softmax(LOGITS.astype(numpy.float64))
    for row in range(2):
        counts = numpy.bincount(samples[row::2], minlength=4)
        # Pearson's chi-square with 3 degrees of freedom: 16.3 is its
        # 0.999 quantile.
        expected = p[row] * (n // 2)
        chi2 = ((counts - expected) ** 2 / expected).sum()
        assert chi2 < 16.3, (counts, expected)
    numpy.random.seed(3)
    again = host(d.sample())
    numpy.testing.assert_array_equal(samples, again)


def test_softmax_gradients(device):
    rng = numpy.random.RandomState(0)
    logits = rng.standard_normal((3, 4))
    actions = device.send(numpy.array([0, 3, 2], numpy.int32))
    gy = rng.standard_normal(3)
    for what in ('entropy', 'log_prob', 'kl'):
        def f(x):
            d = distribution.SoftmaxDistribution(x, beta=1.5, min_prob=0.05)
            if what == 'entropy':
                return d.entropy
            if what == 'log_prob':
                return d.log_prob(actions)
            ref = distribution.SoftmaxDistribution(device.send(
                logits[::-1].copy()))
            return d.kl(ref)
        gradient_check.check_backward(f, device.send(logits),
                                      device.send(gy), dtype=numpy.float64)


def test_softmax_copy_getitem_and_checks():
    logits = chainer.Variable(LOGITS)
    d = distribution.SoftmaxDistribution(logits, beta=2.0)
    c = d.copy()
    assert c.logits.creator is None and c.logits.array is not logits.array
    numpy.testing.assert_array_equal(c.logits.array, LOGITS)
    assert c.beta == 2.0
    one = d[1]
    assert one.logits.shape == (1, 4)
    numpy.testing.assert_allclose(one.all_prob.array, d.all_prob.array[1:])
    with pytest.raises(ValueError, match='SoftmaxDistribution: min_prob'):
        distribution.SoftmaxDistribution(LOGITS, min_prob=0.3)
    with pytest.raises(ValueError, match='logits must have 2 dimensions'):
        distribution.SoftmaxDistribution(LOGITS[0])
    with pytest.raises(TypeError, match='SoftmaxDistribution.kl: distrib '
                                        'must be a CategoricalDistribution'):
        d.kl(distribution.GaussianDistribution(LOGITS, numpy.ones_like(
            LOGITS)))
    with pytest.raises(ValueError, match='log_prob: actions must have '
                                         'shape'):
        d.log_prob(numpy.array([0]))


def _mellowmax(q, omega):
    return numpy.log(numpy.mean(numpy.exp(omega * q), axis=1)) / omega


@pytest.mark.parametrize('omega', [1.0, 8.0])
def test_mellowmax_policy(device, omega):
    values = numpy.array([[1.0, 2.0, 0.5],
                          [0.2, 0.1, 0.15],
                          [3.0, 3.0, 3.0]], dtype=numpy.float32)
    d = distribution.MellowmaxDistribution(device.send(values), omega=omega)
    p = host(d.all_prob).astype(numpy.float64)
    numpy.testing.assert_allclose(p.sum(axis=1), 1, rtol=1e-6)
    q = values.astype(numpy.float64)
    mm = _mellowmax(q, omega)
    # The defining property: zero expected advantage over mellowmax...
    numpy.testing.assert_allclose((p * (q - mm[:, None])).sum(axis=1), 0,
                                  atol=1e-6)
    # ...of a Boltzmann policy: log-probability gaps proportional to value
    # gaps, with one positive beta per state.
    for row in range(2):
        logp = numpy.log(p[row])
        betas = (logp[1:] - logp[0]) / (q[row, 1:] - q[row, 0])
        numpy.testing.assert_allclose(betas, betas[0], rtol=1e-4)
        assert betas[0] > 0
    numpy.testing.assert_allclose(p[2], [1 / 3] * 3, rtol=1e-6)
    numpy.testing.assert_allclose(host(d.entropy),
                                  stats.entropy(p, axis=1), rtol=1e-5)


def test_mellowmax_checks_and_copy():
    values = numpy.array([[1.0, 2.0]], dtype=numpy.float32)
    with pytest.raises(ValueError, match='MellowmaxDistribution: omega must '
                                         'be positive'):
        distribution.MellowmaxDistribution(values, omega=0)
    d = distribution.MellowmaxDistribution(values, omega=2.0)
    assert d.copy().omega == 2.0
    assert d[0].values.shape == (1, 2)


MEAN = numpy.array([[0.5, -1.0, 2.0], [0.0, 0.3, -0.2]], dtype=numpy.float32)
VAR = numpy.array([[1.0, 0.25, 2.0], [0.5, 1.5, 0.1]], dtype=numpy.float32)


def test_gaussian_log_prob_entropy(device):
    d = distribution.GaussianDistribution(device.send(MEAN),
                                          device.send(VAR))
    x = numpy.array([[0.0, 0.0, 0.0], [1.0, -1.0, 0.5]], dtype=numpy.float32)
    expected = stats.norm.logpdf(x, MEAN, numpy.sqrt(VAR)).sum(axis=1)
    numpy.testing.assert_allclose(host(d.log_prob(x)), expected, rtol=1e-5)
    numpy.testing.assert_allclose(host(d.prob(x)), numpy.exp(expected),
                                  rtol=1e-5)
    entropy = [stats.multivariate_normal(MEAN[i], numpy.diag(VAR[i]))
               .entropy() for i in range(2)]
    numpy.testing.assert_allclose(host(d.entropy), entropy, rtol=1e-5)
    numpy.testing.assert_allclose(host(d.most_probable), MEAN)


def test_gaussian_kl_against_integration(device):
    p = distribution.GaussianDistribution(device.send(MEAN),
                                          device.send(VAR))
    q = distribution.GaussianDistribution(device.send(MEAN[::-1].copy()),
                                          device.send(VAR[::-1].copy()))
    got = host(p.kl(q))
    for row in range(2):
        total = 0.0
        for k in range(3):
            pp = stats.norm(MEAN[row, k], numpy.sqrt(VAR[row, k]))
            qq = stats.norm(MEAN[::-1][row, k], numpy.sqrt(VAR[::-1][row, k]))
            total += integrate.quad(
                lambda t: pp.pdf(t) * (pp.logpdf(t) - qq.logpdf(t)),
                -30, 30, limit=200)[0]
        numpy.testing.assert_allclose(got[row], total, rtol=1e-4)
    numpy.testing.assert_allclose(host(p.kl(p)), [0, 0], atol=1e-6)


def test_gaussian_sampling_statistics(device):
    n = 40000
    mean = numpy.tile(numpy.array([[1.0, -2.0]], numpy.float32), (n, 1))
    var = numpy.tile(numpy.array([[0.25, 4.0]], numpy.float32), (n, 1))
    d = distribution.GaussianDistribution(device.send(mean),
                                          device.send(var))
    numpy.random.seed(0)
    s = host(d.sample())
    # Standard errors: sqrt(var / n) = 0.0025 and 0.01.
    numpy.testing.assert_allclose(s.mean(axis=0), [1.0, -2.0], atol=0.01)
    numpy.testing.assert_allclose(s.var(axis=0), [0.25, 4.0], rtol=0.03)
    numpy.random.seed(0)
    s2, logp = d.sample_with_log_prob()
    numpy.testing.assert_array_equal(host(s2), s)
    numpy.testing.assert_allclose(
        host(logp), stats.norm.logpdf(s, mean, numpy.sqrt(var)).sum(1),
        rtol=1e-4)


def test_gaussian_gradients(device):
    rng = numpy.random.RandomState(0)
    mean = rng.standard_normal((2, 3))
    var = rng.uniform(0.5, 2.0, (2, 3))
    x = device.send(rng.standard_normal((2, 3)))
    gy = rng.standard_normal(2)
    other = distribution.GaussianDistribution(
        device.send(rng.standard_normal((2, 3))),
        device.send(rng.uniform(0.5, 2.0, (2, 3))))

    def log_prob(m, v):
        return distribution.GaussianDistribution(m, v).log_prob(x)

    def entropy_and_kl(m, v):
        d = distribution.GaussianDistribution(m, v)
        return d.entropy + d.kl(other)

    for f in (log_prob, entropy_and_kl):
        gradient_check.check_backward(
            f, (device.send(mean), device.send(var)), device.send(gy),
            dtype=numpy.float64)


def test_gaussian_sample_is_reparameterized(device):
    mean = chainer.Variable(device.send(MEAN))
    var = chainer.Variable(device.send(VAR))
    d = distribution.GaussianDistribution(mean, var)
    numpy.random.seed(5)
    s = d.sample()
    numpy.random.seed(5)
    eps = numpy.random.standard_normal(MEAN.shape)
    F.sum(s).backward()
    numpy.testing.assert_allclose(host(mean.grad), numpy.ones_like(MEAN))
    # d(mean + sqrt(var) eps)/d var = eps / (2 sqrt(var))
    numpy.testing.assert_allclose(host(var.grad),
                                  eps / (2 * numpy.sqrt(VAR)), rtol=1e-5)


def test_gaussian_checks_and_copy():
    d = distribution.GaussianDistribution(MEAN, VAR[:1])
    assert d.var.shape == MEAN.shape
    with pytest.raises(ValueError, match='GaussianDistribution: var must '
                                         'have the shape of mean'):
        distribution.GaussianDistribution(MEAN, VAR[:, :2])
    with pytest.raises(TypeError, match='var must have the dtype of mean'):
        distribution.GaussianDistribution(MEAN, VAR.astype(numpy.float64))
    with pytest.raises(ValueError, match='mean must have 2 dimensions'):
        distribution.GaussianDistribution(MEAN[0], VAR[0])
    with pytest.raises(TypeError, match='GaussianDistribution.kl: distrib '
                                        'must be a GaussianDistribution'):
        d.kl(distribution.SoftmaxDistribution(MEAN))
    with pytest.raises(ValueError, match='log_prob: x must have shape'):
        d.log_prob(numpy.zeros((2, 2), numpy.float32))
    c = d.copy()
    assert c.mean.creator is None
    numpy.testing.assert_array_equal(c.var.array, d.var.array)
    assert d[0].mean.shape == (1, 3)


def _squashed_logpdf(y, mean, var):
    """log density of tanh(X), X ~ N(mean, var), by change of variables
    in float64."""
    y = y.astype(numpy.float64)
    x = numpy.arctanh(y)
    return (stats.norm.logpdf(x, mean, numpy.sqrt(var))
            - numpy.log1p(-y ** 2)).sum(axis=-1)


def test_squashed_gaussian_log_prob(device):
    d = distribution.SquashedGaussianDistribution(device.send(MEAN),
                                                  device.send(VAR))
    y = numpy.array([[0.1, -0.5, 0.9], [0.0, 0.99, -0.3]], numpy.float32)
    numpy.testing.assert_allclose(host(d.log_prob(y)),
                                  _squashed_logpdf(y, MEAN, VAR), rtol=1e-4)
    numpy.testing.assert_allclose(host(d.most_probable), numpy.tanh(MEAN),
                                  rtol=1e-6)
    # The density integrates to one (first state, first dimension).
    one = integrate.quad(lambda t: numpy.exp(_squashed_logpdf(
        numpy.array([t]), MEAN[0, :1], VAR[0, :1])), -1, 1)[0]
    assert abs(one - 1) < 1e-6


def test_squashed_gaussian_sample_with_log_prob(device):
    n = 20000
    mean = numpy.tile(numpy.array([[0.3, -1.0]], numpy.float32), (n, 1))
    var = numpy.tile(numpy.array([[0.5, 2.0]], numpy.float32), (n, 1))
    d = distribution.SquashedGaussianDistribution(device.send(mean),
                                                  device.send(var))
    numpy.random.seed(1)
    y, logp = d.sample_with_log_prob()
    y, logp = host(y), host(logp)
    assert numpy.all(numpy.abs(y) <= 1)
    # Recover the pre-squash draws where tanh is invertible in float32.
    inner = numpy.all(numpy.abs(y) < 0.999, axis=1)
    x = numpy.arctanh(y[inner].astype(numpy.float64))
    numpy.testing.assert_allclose(
        logp[inner], _squashed_logpdf(y[inner], mean[inner], var[inner]),
        rtol=2e-3, atol=2e-3)
    numpy.random.seed(1)
    eps = numpy.random.standard_normal((n, 2))
    raw = mean + numpy.sqrt(var) * eps
    numpy.testing.assert_allclose(x, raw[inner], rtol=1e-3, atol=1e-3)
    numpy.testing.assert_allclose(raw.mean(0), [0.3, -1.0], atol=0.03)


def test_squashed_gaussian_stable_at_saturation(device):
    # tanh saturates to +-1 in float32: the pre-squash log density stays
    # exact, and log_prob of the boundary stays finite.
    mean = numpy.array([[20.0, -20.0]], numpy.float32)
    var = numpy.array([[1.0, 1.0]], numpy.float32)
    d = distribution.SquashedGaussianDistribution(device.send(mean),
                                                  device.send(var))
    numpy.random.seed(0)
    y, logp = d.sample_with_log_prob()
    numpy.random.seed(0)
    x = mean + numpy.random.standard_normal((1, 2))
    expected = (stats.norm.logpdf(x, mean, 1.0)
                - 2 * (numpy.log(2) - x - numpy.logaddexp(0, -2 * x)))
    numpy.testing.assert_allclose(host(logp), expected.sum(1), rtol=1e-5)
    numpy.testing.assert_array_equal(numpy.abs(host(y)), [[1, 1]])
    assert numpy.all(numpy.isfinite(host(d.log_prob(host(y)))))


def test_squashed_gaussian_kl_monte_carlo(device):
    mean_p = numpy.array([[0.2, -0.4]], numpy.float64)
    var_p = numpy.array([[0.3, 0.8]], numpy.float64)
    mean_q = numpy.array([[-0.1, 0.1]], numpy.float64)
    var_q = numpy.array([[0.6, 0.5]], numpy.float64)
    p = distribution.SquashedGaussianDistribution(device.send(mean_p),
                                                  device.send(var_p))
    q = distribution.SquashedGaussianDistribution(device.send(mean_q),
                                                  device.send(var_q))
    rng = numpy.random.RandomState(0)
    y = numpy.tanh(mean_p + numpy.sqrt(var_p)
                   * rng.standard_normal((200000, 2)))
    y = y[numpy.all(numpy.abs(y) < 1 - 1e-12, axis=1)]
    mc = numpy.mean(_squashed_logpdf(y, mean_p, var_p)
                    - _squashed_logpdf(y, mean_q, var_q))
    # Standard error of this estimate is about 0.002.
    numpy.testing.assert_allclose(host(p.kl(q)), [mc], atol=0.01)


def test_squashed_gaussian_gradients(device):
    rng = numpy.random.RandomState(3)
    mean = rng.standard_normal((2, 2)) * 0.5
    var = rng.uniform(0.5, 1.5, (2, 2))
    y = device.send(numpy.tanh(rng.standard_normal((2, 2))))
    gy = rng.standard_normal(2)

    def log_prob(m, v):
        return distribution.SquashedGaussianDistribution(m, v).log_prob(y)

    def sampled_log_prob(m, v):
        numpy.random.seed(11)
        d = distribution.SquashedGaussianDistribution(m, v)
        sample, logp = d.sample_with_log_prob()
        return logp + F.sum(sample, axis=1)

    for f in (log_prob, sampled_log_prob):
        gradient_check.check_backward(
            f, (device.send(mean), device.send(var)), device.send(gy),
            dtype=numpy.float64)


def test_squashed_gaussian_has_no_entropy():
    d = distribution.SquashedGaussianDistribution(MEAN, VAR)
    with pytest.raises(NotImplementedError, match='no closed form'):
        d.entropy
    with pytest.raises(TypeError, match='SquashedGaussianDistribution.kl'):
        d.kl(distribution.GaussianDistribution(MEAN, VAR))
    assert d[1].mean.shape == (1, 3)
    assert d.copy().mean.creator is None


def test_continuous_deterministic(device):
    x = chainer.Variable(device.send(MEAN))
    d = distribution.ContinuousDeterministicDistribution(x)
    assert d.sample() is x and d.most_probable is x
    assert d.params == (x,)
    numpy.testing.assert_array_equal(host(d[0].x), MEAN[:1])
    assert d.copy().x.creator is None
    for what in ('entropy',):
        with pytest.raises(RuntimeError, match='not defined'):
            getattr(d, what)
    with pytest.raises(RuntimeError, match='log_prob: not defined'):
        d.log_prob(x)
    with pytest.raises(RuntimeError, match='prob: not defined'):
        d.prob(x)
    with pytest.raises(RuntimeError, match='kl: not defined'):
        d.kl(d)


def test_sample_discrete_actions_checks():
    with pytest.raises(ValueError, match='sample_discrete_actions'):
        distribution.sample_discrete_actions(numpy.ones(3))
    numpy.random.seed(0)
    got = distribution.sample_discrete_actions(
        numpy.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]))
    numpy.testing.assert_array_equal(got, [1, 2])
