"""Probability distributions (Chainer's ``chainer.distributions``)."""
from chainer_core import _lazy

__getattr__, __dir__ = _lazy(__name__, {
    '.bernoulli': ('Bernoulli',),
    '.beta': ('Beta',),
    '.categorical': ('Categorical',),
    '.cauchy': ('Cauchy',),
    '.chisquare': ('Chisquare',),
    '.dirichlet': ('Dirichlet',),
    '.exponential': ('Exponential',),
    '.gamma': ('Gamma',),
    '.geometric': ('Geometric',),
    '.gumbel': ('Gumbel',),
    '.independent': ('Independent',),
    '.laplace': ('Laplace',),
    '.log_normal': ('LogNormal',),
    '.multivariate_normal': ('MultivariateNormal',),
    '.normal': ('Normal',),
    '.one_hot_categorical': ('OneHotCategorical',),
    '.pareto': ('Pareto',),
    '.poisson': ('Poisson',),
    '.uniform': ('Uniform',),
    'chainer_core.distribution': (
        'cross_entropy', 'Distribution', 'kl_divergence', 'register_kl'),
}, submodules=True)
