"""The chi-square distribution."""
import math

from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Chisquare(distribution.Distribution):
    """Chi-square distribution with :math:`k` degrees of freedom.

    .. math::
        p(x; k) = \\frac{x^{k/2 - 1} e^{-x/2}}{2^{k/2}\\Gamma(k/2)},
        \\quad x \\ge 0

    Args:
        k (~chainer_core.Variable, array or float): the degrees of freedom
            :math:`k > 0`.

    Samples are not differentiable.
    """

    def __init__(self, k):
        self.k, = _utils.params('Chisquare', [('k', k)])

    @property
    def batch_shape(self):
        return self.k.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'k': self.k}

    @property
    def support(self):
        return 'positive'

    def log_prob(self, x):
        x = _utils.value('Chisquare.log_prob', x, self.k.dtype,
                         self.batch_shape)
        inside = _utils.inside_mask(_utils.array_of(x) >= 0)
        x = _utils.safe(x, inside, 1)
        half_k = 0.5 * self.k
        y = _utils.mul_log(half_k - 1, x) - 0.5 * x - \
            half_k * math.log(2.0) - F.lgamma(half_k)
        return _utils.fill_outside(y, inside, -float('inf'))

    @property
    def entropy(self):
        half_k = 0.5 * self.k
        return half_k + math.log(2.0) + F.lgamma(half_k) + \
            (1 - half_k) * F.digamma(half_k)

    @property
    def mean(self):
        return self.k

    @property
    def variance(self):
        return 2 * self.k

    def sample_n(self, n):
        n = _utils.check_n('Chisquare', n)
        eps = _utils.random(self.xp).chisquare(
            self.k.array, size=(n,) + self.batch_shape)
        return _utils.sample_variable(eps, self.k.dtype)
