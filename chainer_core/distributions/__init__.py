"""Probability distributions (Chainer's ``chainer.distributions``)."""
from chainer_core.distribution import (  # NOQA
    Distribution, cross_entropy, kl_divergence, register_kl)
from chainer_core.distributions.bernoulli import Bernoulli  # NOQA
from chainer_core.distributions.beta import Beta  # NOQA
from chainer_core.distributions.categorical import Categorical  # NOQA
from chainer_core.distributions.cauchy import Cauchy  # NOQA
from chainer_core.distributions.chisquare import Chisquare  # NOQA
from chainer_core.distributions.dirichlet import Dirichlet  # NOQA
from chainer_core.distributions.exponential import Exponential  # NOQA
from chainer_core.distributions.gamma import Gamma  # NOQA
from chainer_core.distributions.geometric import Geometric  # NOQA
from chainer_core.distributions.gumbel import Gumbel  # NOQA
from chainer_core.distributions.independent import Independent  # NOQA
from chainer_core.distributions.laplace import Laplace  # NOQA
from chainer_core.distributions.log_normal import LogNormal  # NOQA
from chainer_core.distributions.multivariate_normal import (  # NOQA
    MultivariateNormal)
from chainer_core.distributions.normal import Normal  # NOQA
from chainer_core.distributions.one_hot_categorical import (  # NOQA
    OneHotCategorical)
from chainer_core.distributions.pareto import Pareto  # NOQA
from chainer_core.distributions.poisson import Poisson  # NOQA
from chainer_core.distributions.uniform import Uniform  # NOQA
from chainer_core.distributions import utils  # NOQA
