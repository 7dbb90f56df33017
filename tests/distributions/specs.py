"""One record per distribution: how to build it from float64 parameters,
points in its support, and float64 references of what it computes (written
with math/NumPy from the textbook formulas)."""
import math

import numpy

import chainer_core.distributions as D

from . import EULER, digamma, lbeta, lgamma, ndtr, ndtri

LOG_2PI = math.log(2 * math.pi)
INF = float('inf')


class Spec:
    """A distribution under test.

    names: parameter names in the order ``make`` takes them.
    params(rng): dict of float64 parameter arrays.
    points(rng, p): float64 points in the support (shape
        ``(4,) + batch_shape + event_shape``).
    refs: name -> reference function of (p) for properties, of (x, p) for
        methods.
    reparam: whether samples are differentiable w.r.t. the parameters.
    """

    def __init__(self, name, names, make, params, points, batch_shape,
                 event_shape, support, refs, reparam, probs=None,
                 sample_dtype=None, outside=None):
        self.name = name
        self.names = names
        self.make = make
        self.params = params
        self.points = points
        self.batch_shape = batch_shape
        self.event_shape = event_shape
        self.support = support
        self.refs = refs
        self.reparam = reparam
        # Probabilities on which icdf is evaluated.
        self.probs = probs
        # The kind of the samples' dtype when it is not the parameters'.
        self.sample_dtype = sample_dtype
        # Points outside the support (log_prob is -inf there).
        self.outside = outside

    def build(self, p, dtype=numpy.float64):
        return self.make(*[numpy.asarray(p[n], dtype=dtype)
                           for n in self.names])

    def __repr__(self):
        return self.name


B = (2, 3)


def _u(lo, hi, shape=B):
    return lambda rng: rng.uniform(lo, hi, size=shape)


def _probs(rng):
    return rng.uniform(0.05, 0.95, size=(4,) + B)


# -- continuous, location-scale ------------------------------------------

def _normal_logpdf(x, loc, scale):
    z = (x - loc) / scale
    return -0.5 * z * z - numpy.log(scale) - 0.5 * LOG_2PI


NORMAL = Spec(
    'Normal', ('loc', 'scale'), lambda loc, scale: D.Normal(loc, scale),
    lambda rng: dict(loc=_u(-1, 1)(rng), scale=_u(0.5, 2)(rng)),
    lambda rng, p: rng.normal(size=(4,) + B) * 2,
    B, (), 'real', dict(
        log_prob=lambda x, p: _normal_logpdf(x, p['loc'], p['scale']),
        cdf=lambda x, p: ndtr((x - p['loc']) / p['scale']),
        survival_function=lambda x, p: ndtr((p['loc'] - x) / p['scale']),
        icdf=lambda q, p: p['loc'] + p['scale'] * ndtri(q),
        entropy=lambda p: 0.5 * numpy.log(2 * math.pi * math.e
                                          * p['scale'] ** 2),
        mean=lambda p: p['loc'], mode=lambda p: p['loc'],
        variance=lambda p: p['scale'] ** 2,
        stddev=lambda p: p['scale']),
    reparam=True, probs=_probs)

NORMAL_LOG_SCALE = Spec(
    'Normal(log_scale)', ('loc', 'log_scale'),
    lambda loc, log_scale: D.Normal(loc, log_scale=log_scale),
    lambda rng: dict(loc=_u(-1, 1)(rng), log_scale=_u(-0.5, 0.7)(rng)),
    lambda rng, p: rng.normal(size=(4,) + B) * 2,
    B, (), 'real', dict(
        log_prob=lambda x, p: _normal_logpdf(x, p['loc'],
                                             numpy.exp(p['log_scale'])),
        cdf=lambda x, p: ndtr((x - p['loc']) / numpy.exp(p['log_scale'])),
        entropy=lambda p: p['log_scale'] + 0.5 * math.log(2 * math.pi
                                                          * math.e),
        mean=lambda p: p['loc'],
        variance=lambda p: numpy.exp(2 * p['log_scale'])),
    reparam=True)


def _lognormal_logpdf(x, mu, sigma):
    return _normal_logpdf(numpy.log(x), mu, sigma) - numpy.log(x)


LOG_NORMAL = Spec(
    'LogNormal', ('mu', 'sigma'), lambda mu, sigma: D.LogNormal(mu, sigma),
    lambda rng: dict(mu=_u(-0.5, 0.5)(rng), sigma=_u(0.3, 1)(rng)),
    lambda rng, p: rng.uniform(0.2, 4, size=(4,) + B),
    B, (), 'positive', dict(
        log_prob=lambda x, p: _lognormal_logpdf(x, p['mu'], p['sigma']),
        cdf=lambda x, p: ndtr((numpy.log(x) - p['mu']) / p['sigma']),
        survival_function=lambda x, p: ndtr(
            (p['mu'] - numpy.log(x)) / p['sigma']),
        icdf=lambda q, p: numpy.exp(p['mu'] + p['sigma'] * ndtri(q)),
        entropy=lambda p: p['mu'] + 0.5 * numpy.log(
            2 * math.pi * math.e * p['sigma'] ** 2),
        mean=lambda p: numpy.exp(p['mu'] + p['sigma'] ** 2 / 2),
        mode=lambda p: numpy.exp(p['mu'] - p['sigma'] ** 2),
        variance=lambda p: (numpy.exp(p['sigma'] ** 2) - 1)
        * numpy.exp(2 * p['mu'] + p['sigma'] ** 2)),
    reparam=True, probs=_probs,
    outside=lambda p: -numpy.ones((1,) + B))


def _laplace_cdf(x, p):
    z = (x - p['loc']) / p['scale']
    return numpy.where(z < 0, 0.5 * numpy.exp(z), 1 - 0.5 * numpy.exp(-z))


def _laplace_icdf(q, p):
    return numpy.where(q < 0.5, p['loc'] + p['scale'] * numpy.log(2 * q),
                       p['loc'] - p['scale'] * numpy.log(2 - 2 * q))


LAPLACE = Spec(
    'Laplace', ('loc', 'scale'), lambda loc, scale: D.Laplace(loc, scale),
    lambda rng: dict(loc=_u(-1, 1)(rng), scale=_u(0.5, 2)(rng)),
    lambda rng, p: p['loc'] + rng.choice([-1, 1], size=(4,) + B)
    * rng.uniform(0.1, 3, size=(4,) + B),
    B, (), 'real', dict(
        log_prob=lambda x, p: -numpy.log(2 * p['scale'])
        - numpy.abs(x - p['loc']) / p['scale'],
        cdf=_laplace_cdf, icdf=_laplace_icdf,
        entropy=lambda p: 1 + numpy.log(2 * p['scale']),
        mean=lambda p: p['loc'], mode=lambda p: p['loc'],
        variance=lambda p: 2 * p['scale'] ** 2,
        stddev=lambda p: math.sqrt(2) * p['scale']),
    reparam=True, probs=_probs)

CAUCHY = Spec(
    'Cauchy', ('loc', 'scale'), lambda loc, scale: D.Cauchy(loc, scale),
    lambda rng: dict(loc=_u(-1, 1)(rng), scale=_u(0.5, 2)(rng)),
    lambda rng, p: rng.normal(size=(4,) + B) * 3,
    B, (), 'real', dict(
        log_prob=lambda x, p: -numpy.log(
            math.pi * p['scale'] * (1 + ((x - p['loc']) / p['scale']) ** 2)),
        cdf=lambda x, p: 0.5 + numpy.arctan(
            (x - p['loc']) / p['scale']) / math.pi,
        icdf=lambda q, p: p['loc'] + p['scale'] * numpy.tan(
            math.pi * (q - 0.5)),
        entropy=lambda p: numpy.log(4 * math.pi * p['scale']),
        mode=lambda p: p['loc']),
    reparam=True, probs=_probs)


def _gumbel_z(x, p):
    return (x - p['loc']) / p['scale']


GUMBEL = Spec(
    'Gumbel', ('loc', 'scale'), lambda loc, scale: D.Gumbel(loc, scale),
    lambda rng: dict(loc=_u(-1, 1)(rng), scale=_u(0.5, 2)(rng)),
    lambda rng, p: rng.normal(size=(4,) + B) * 2,
    B, (), 'real', dict(
        log_prob=lambda x, p: -numpy.log(p['scale']) - _gumbel_z(x, p)
        - numpy.exp(-_gumbel_z(x, p)),
        cdf=lambda x, p: numpy.exp(-numpy.exp(-_gumbel_z(x, p))),
        log_cdf=lambda x, p: -numpy.exp(-_gumbel_z(x, p)),
        icdf=lambda q, p: p['loc'] - p['scale'] * numpy.log(-numpy.log(q)),
        entropy=lambda p: numpy.log(p['scale']) + EULER + 1,
        mean=lambda p: p['loc'] + EULER * p['scale'],
        mode=lambda p: p['loc'],
        variance=lambda p: math.pi ** 2 / 6 * p['scale'] ** 2),
    reparam=True, probs=_probs)

# -- continuous, positive or bounded ---------------------------------------

EXPONENTIAL = Spec(
    'Exponential', ('lam',), lambda lam: D.Exponential(lam),
    lambda rng: dict(lam=_u(0.5, 2)(rng)),
    lambda rng, p: rng.uniform(0.01, 4, size=(4,) + B),
    B, (), 'positive', dict(
        log_prob=lambda x, p: numpy.log(p['lam']) - p['lam'] * x,
        cdf=lambda x, p: 1 - numpy.exp(-p['lam'] * x),
        survival_function=lambda x, p: numpy.exp(-p['lam'] * x),
        icdf=lambda q, p: -numpy.log(1 - q) / p['lam'],
        entropy=lambda p: 1 - numpy.log(p['lam']),
        mean=lambda p: 1 / p['lam'], mode=lambda p: 0 * p['lam'],
        variance=lambda p: p['lam'] ** -2),
    reparam=True, probs=_probs,
    outside=lambda p: -numpy.ones((1,) + B))

UNIFORM = Spec(
    'Uniform', ('low', 'high'),
    lambda low, high: D.Uniform(low=low, high=high),
    lambda rng: dict(low=_u(-1, 0)(rng), high=_u(1, 2)(rng)),
    lambda rng, p: p['low'] + (p['high'] - p['low'])
    * rng.uniform(0.05, 0.95, size=(4,) + B),
    B, (), '[low, high]', dict(
        log_prob=lambda x, p: -numpy.log(p['high'] - p['low']) + 0 * x,
        cdf=lambda x, p: (x - p['low']) / (p['high'] - p['low']),
        icdf=lambda q, p: p['low'] + q * (p['high'] - p['low']),
        entropy=lambda p: numpy.log(p['high'] - p['low']),
        mean=lambda p: (p['low'] + p['high']) / 2,
        variance=lambda p: (p['high'] - p['low']) ** 2 / 12),
    reparam=True, probs=_probs,
    outside=lambda p: numpy.stack([p['low'] - 0.5, p['high'] + 0.5]))

PARETO = Spec(
    'Pareto', ('scale', 'alpha'), lambda scale, alpha: D.Pareto(scale, alpha),
    lambda rng: dict(scale=_u(0.5, 2)(rng), alpha=_u(4.5, 6)(rng)),
    lambda rng, p: p['scale'] * rng.uniform(1.05, 3, size=(4,) + B),
    B, (), '[scale, inf]', dict(
        log_prob=lambda x, p: numpy.log(p['alpha'])
        + p['alpha'] * numpy.log(p['scale'])
        - (p['alpha'] + 1) * numpy.log(x),
        cdf=lambda x, p: 1 - (p['scale'] / x) ** p['alpha'],
        survival_function=lambda x, p: (p['scale'] / x) ** p['alpha'],
        icdf=lambda q, p: p['scale'] * (1 - q) ** (-1 / p['alpha']),
        entropy=lambda p: numpy.log(p['scale'] / p['alpha'])
        + 1 / p['alpha'] + 1,
        mean=lambda p: p['alpha'] * p['scale'] / (p['alpha'] - 1),
        mode=lambda p: p['scale'],
        variance=lambda p: p['scale'] ** 2 * p['alpha']
        / ((p['alpha'] - 1) ** 2 * (p['alpha'] - 2))),
    reparam=True, probs=_probs,
    outside=lambda p: (p['scale'] * 0.9)[None])


def _gamma_logpdf(x, k, theta):
    return (k - 1) * numpy.log(x) - x / theta - lgamma(k) \
        - k * numpy.log(theta)


def _gamma_entropy(k, theta):
    return k + numpy.log(theta) + lgamma(k) + (1 - k) * digamma(k)


GAMMA = Spec(
    'Gamma', ('k', 'theta'), lambda k, theta: D.Gamma(k, theta),
    lambda rng: dict(k=_u(0.5, 4)(rng), theta=_u(0.5, 2)(rng)),
    lambda rng, p: rng.uniform(0.1, 5, size=(4,) + B),
    B, (), 'positive', dict(
        log_prob=lambda x, p: _gamma_logpdf(x, p['k'], p['theta']),
        entropy=lambda p: _gamma_entropy(p['k'], p['theta']),
        mean=lambda p: p['k'] * p['theta'],
        variance=lambda p: p['k'] * p['theta'] ** 2),
    reparam=False, outside=lambda p: -numpy.ones((1,) + B))

# A chi-square with k degrees of freedom is Gamma(k / 2, 2).
CHISQUARE = Spec(
    'Chisquare', ('k',), lambda k: D.Chisquare(k),
    lambda rng: dict(k=_u(1, 6)(rng)),
    lambda rng, p: rng.uniform(0.1, 8, size=(4,) + B),
    B, (), 'positive', dict(
        log_prob=lambda x, p: _gamma_logpdf(x, p['k'] / 2, 2.0),
        entropy=lambda p: _gamma_entropy(p['k'] / 2, 2.0),
        mean=lambda p: p['k'], variance=lambda p: 2 * p['k']),
    reparam=False, outside=lambda p: -numpy.ones((1,) + B))

BETA = Spec(
    'Beta', ('a', 'b'), lambda a, b: D.Beta(a, b),
    lambda rng: dict(a=_u(0.6, 4)(rng), b=_u(0.6, 4)(rng)),
    lambda rng, p: rng.uniform(0.02, 0.98, size=(4,) + B),
    B, (), '[0, 1]', dict(
        log_prob=lambda x, p: (p['a'] - 1) * numpy.log(x)
        + (p['b'] - 1) * numpy.log(1 - x) - lbeta(p['a'], p['b']),
        entropy=lambda p: lbeta(p['a'], p['b'])
        - (p['a'] - 1) * digamma(p['a']) - (p['b'] - 1) * digamma(p['b'])
        + (p['a'] + p['b'] - 2) * digamma(p['a'] + p['b']),
        mean=lambda p: p['a'] / (p['a'] + p['b']),
        variance=lambda p: p['a'] * p['b']
        / ((p['a'] + p['b']) ** 2 * (p['a'] + p['b'] + 1))),
    reparam=False,
    outside=lambda p: numpy.stack([-0.5 + 0 * p['a'], 1.5 + 0 * p['a']]))


def _dirichlet_points(rng, p):
    g = rng.gamma(2.0, size=(4,) + p['alpha'].shape)
    return g / g.sum(-1, keepdims=True)


def _dirichlet_lnorm(alpha):
    return lgamma(alpha).sum(-1) - lgamma(alpha.sum(-1))


def _dirichlet_entropy(p):
    a = p['alpha']
    a0 = a.sum(-1)
    k = a.shape[-1]
    return _dirichlet_lnorm(a) + (a0 - k) * digamma(a0) \
        - ((a - 1) * digamma(a)).sum(-1)


DIRICHLET = Spec(
    'Dirichlet', ('alpha',), lambda alpha: D.Dirichlet(alpha),
    lambda rng: dict(alpha=_u(0.6, 4)(rng)),
    _dirichlet_points, (2,), (3,), '[0, 1]', dict(
        log_prob=lambda x, p: ((p['alpha'] - 1) * numpy.log(x)).sum(-1)
        - _dirichlet_lnorm(p['alpha']),
        entropy=_dirichlet_entropy,
        mean=lambda p: p['alpha'] / p['alpha'].sum(-1, keepdims=True),
        variance=lambda p: p['alpha']
        * (p['alpha'].sum(-1, keepdims=True) - p['alpha'])
        / (p['alpha'].sum(-1, keepdims=True) ** 2
           * (p['alpha'].sum(-1, keepdims=True) + 1))),
    reparam=False)


def _mvn_params(rng):
    loc = rng.uniform(-1, 1, size=(2, 3))
    a = rng.normal(size=(2, 3, 3))
    cov = a @ a.transpose(0, 2, 1) + numpy.eye(3)
    return dict(loc=loc, scale_tril=numpy.linalg.cholesky(cov))


def _mvn_logpdf(x, p):
    cov = p['scale_tril'] @ numpy.swapaxes(p['scale_tril'], -1, -2)
    diff = x - p['loc']
    sol = numpy.linalg.solve(numpy.broadcast_to(cov, diff.shape + (3,)),
                             diff[..., None])[..., 0]
    _, logdet = numpy.linalg.slogdet(cov)
    return -0.5 * (diff * sol).sum(-1) - 0.5 * logdet - 1.5 * LOG_2PI


def _mvn_cov(p):
    return p['scale_tril'] @ numpy.swapaxes(p['scale_tril'], -1, -2)


MULTIVARIATE_NORMAL = Spec(
    'MultivariateNormal', ('loc', 'scale_tril'),
    lambda loc, scale_tril: D.MultivariateNormal(loc, scale_tril=scale_tril),
    _mvn_params, lambda rng, p: rng.normal(size=(4, 2, 3)) * 2,
    (2,), (3,), 'real', dict(
        log_prob=_mvn_logpdf,
        entropy=lambda p: 0.5 * numpy.linalg.slogdet(
            2 * math.pi * math.e * _mvn_cov(p))[1],
        mean=lambda p: p['loc'], mode=lambda p: p['loc'],
        covariance=_mvn_cov,
        variance=lambda p: numpy.diagonal(_mvn_cov(p), 0, -2, -1)),
    reparam=True)

INDEPENDENT = Spec(
    'Independent', ('loc', 'scale'),
    lambda loc, scale: D.Independent(D.Normal(loc, scale)),
    lambda rng: dict(loc=_u(-1, 1)(rng), scale=_u(0.5, 2)(rng)),
    lambda rng, p: rng.normal(size=(4,) + B) * 2,
    (2,), (3,), 'real', dict(
        log_prob=lambda x, p: _normal_logpdf(x, p['loc'], p['scale']).sum(-1),
        entropy=lambda p: 0.5 * numpy.log(
            2 * math.pi * math.e * p['scale'] ** 2).sum(-1),
        mean=lambda p: p['loc'], variance=lambda p: p['scale'] ** 2),
    reparam=True)

# -- discrete ---------------------------------------------------------------


def _direct_entropy(logpmf, support, p):
    """-sum P log P over an explicit (truncated) support."""
    lp = numpy.stack([logpmf(numpy.full(B, k, dtype=numpy.float64), p)
                      for k in support])
    return -(numpy.exp(lp) * lp).sum(0)


def _poisson_logpmf(x, p):
    return x * numpy.log(p['lam']) - p['lam'] - lgamma(x + 1)


POISSON = Spec(
    'Poisson', ('lam',), lambda lam: D.Poisson(lam),
    lambda rng: dict(lam=_u(0.5, 4)(rng)),
    lambda rng, p: rng.integers(0, 8, size=(4,) + B).astype(numpy.float64),
    B, (), 'non negative integer', dict(
        log_prob=_poisson_logpmf,
        mean=lambda p: p['lam'], variance=lambda p: p['lam']),
    reparam=False,
    outside=lambda p: numpy.stack([-1 + 0 * p['lam'], 1.5 + 0 * p['lam']]))


def _geometric_logpmf(x, p):
    return (x - 1) * numpy.log(1 - p['p']) + numpy.log(p['p'])


GEOMETRIC = Spec(
    'Geometric', ('p',), lambda p: D.Geometric(p),
    lambda rng: dict(p=_u(0.2, 0.8)(rng)),
    lambda rng, p: rng.integers(1, 8, size=(4,) + B).astype(numpy.float64),
    B, (), 'positive integer', dict(
        log_prob=_geometric_logpmf,
        cdf=lambda x, p: 1 - (1 - p['p']) ** x,
        entropy=lambda p: _direct_entropy(_geometric_logpmf,
                                          range(1, 400), p),
        mean=lambda p: 1 / p['p'],
        variance=lambda p: (1 - p['p']) / p['p'] ** 2),
    reparam=False,
    outside=lambda p: numpy.stack([0 * p['p'], 2.5 + 0 * p['p']]))


def _bernoulli_logpmf(x, prob):
    return numpy.where(x == 1, numpy.log(prob), numpy.log(1 - prob))


def _sigmoid(t):
    return 1 / (1 + numpy.exp(-t))


BERNOULLI = Spec(
    'Bernoulli', ('p',), lambda p: D.Bernoulli(p),
    lambda rng: dict(p=_u(0.1, 0.9)(rng)),
    lambda rng, p: rng.integers(0, 2, size=(4,) + B).astype(numpy.float64),
    B, (), '{0, 1}', dict(
        log_prob=lambda x, p: _bernoulli_logpmf(x, p['p']),
        entropy=lambda p: -(p['p'] * numpy.log(p['p'])
                            + (1 - p['p']) * numpy.log(1 - p['p'])),
        mean=lambda p: p['p'], variance=lambda p: p['p'] * (1 - p['p'])),
    reparam=False, sample_dtype='i',
    outside=lambda p: numpy.stack([0.5 + 0 * p['p'], 2 + 0 * p['p']]))

BERNOULLI_LOGIT = Spec(
    'Bernoulli(logit)', ('logit',), lambda logit: D.Bernoulli(logit=logit),
    lambda rng: dict(logit=_u(-3, 3)(rng)),
    lambda rng, p: rng.integers(0, 2, size=(4,) + B).astype(numpy.float64),
    B, (), '{0, 1}', dict(
        log_prob=lambda x, p: _bernoulli_logpmf(x, _sigmoid(p['logit'])),
        entropy=lambda p: -(_sigmoid(p['logit'])
                            * numpy.log(_sigmoid(p['logit']))
                            + _sigmoid(-p['logit'])
                            * numpy.log(_sigmoid(-p['logit']))),
        mean=lambda p: _sigmoid(p['logit']),
        variance=lambda p: _sigmoid(p['logit']) * _sigmoid(-p['logit'])),
    reparam=False, sample_dtype='i')


def _cat_p(rng):
    w = rng.uniform(0.2, 1, size=(2, 4))
    return dict(p=w / w.sum(-1, keepdims=True))


def _log_softmax(t):
    m = t.max(-1, keepdims=True)
    return t - m - numpy.log(numpy.exp(t - m).sum(-1, keepdims=True))


def _cat_logpmf(x, log_p):
    idx = x.astype(numpy.int64)
    lp = numpy.broadcast_to(log_p, idx.shape + log_p.shape[-1:])
    return numpy.take_along_axis(lp, idx[..., None], -1)[..., 0]


CATEGORICAL = Spec(
    'Categorical', ('p',), lambda p: D.Categorical(p), _cat_p,
    lambda rng, p: rng.integers(0, 4, size=(4, 2)).astype(numpy.float64),
    (2,), (), '{0, 1, ..., K-1}', dict(
        log_prob=lambda x, p: _cat_logpmf(x, numpy.log(p['p'])),
        entropy=lambda p: -(p['p'] * numpy.log(p['p'])).sum(-1)),
    reparam=False, sample_dtype='i',
    outside=lambda p: numpy.array([[-1.0, 4.0]]))

CATEGORICAL_LOGIT = Spec(
    'Categorical(logit)', ('logit',), lambda logit: D.Categorical(logit=logit),
    lambda rng: dict(logit=rng.normal(size=(2, 4))),
    lambda rng, p: rng.integers(0, 4, size=(4, 2)).astype(numpy.float64),
    (2,), (), '{0, 1, ..., K-1}', dict(
        log_prob=lambda x, p: _cat_logpmf(x, _log_softmax(p['logit'])),
        entropy=lambda p: -(numpy.exp(_log_softmax(p['logit']))
                            * _log_softmax(p['logit'])).sum(-1)),
    reparam=False, sample_dtype='i')


def _one_hot_points(rng, p):
    idx = rng.integers(0, 4, size=(4, 2))
    return (idx[..., None] == numpy.arange(4)).astype(numpy.float64)


ONE_HOT_CATEGORICAL = Spec(
    'OneHotCategorical', ('p',), lambda p: D.OneHotCategorical(p), _cat_p,
    _one_hot_points, (2,), (4,), '{0, 1}', dict(
        log_prob=lambda x, p: (x * numpy.log(p['p'])).sum(-1),
        entropy=lambda p: -(p['p'] * numpy.log(p['p'])).sum(-1),
        mean=lambda p: p['p'], variance=lambda p: p['p'] * (1 - p['p'])),
    reparam=False, sample_dtype='i')

SPECS = [NORMAL, NORMAL_LOG_SCALE, LOG_NORMAL, LAPLACE, CAUCHY, GUMBEL,
         EXPONENTIAL, UNIFORM, PARETO, GAMMA, CHISQUARE, BETA, DIRICHLET,
         MULTIVARIATE_NORMAL, INDEPENDENT, POISSON, GEOMETRIC, BERNOULLI,
         BERNOULLI_LOGIT, CATEGORICAL, CATEGORICAL_LOGIT, ONE_HOT_CATEGORICAL]

# Reference names that are methods of points (the others are properties).
METHODS = ('log_prob', 'cdf', 'survival_function')
PROPERTIES = ('entropy', 'mean', 'mode', 'variance', 'stddev', 'covariance')
