"""The Gumbel distribution."""
import math

from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Gumbel(distribution.Distribution):
    """Gumbel (type-I extreme value) distribution.

    .. math::
        p(x; \\mu, \\beta) = \\frac{1}{\\beta}
            \\exp\\left(-z - e^{-z}\\right), \\quad
        z = \\frac{x - \\mu}{\\beta}

    Args:
        loc (~chainer_core.Variable, array or float): the location
            :math:`\\mu`.
        scale (~chainer_core.Variable, array or float): the scale
            :math:`\\beta > 0`.

    Samples are reparameterised (:math:`x = \\mu - \\beta\\log(-\\log u)`,
    :math:`u` uniform).
    """

    euler = _utils.EULER

    def __init__(self, loc, scale):
        self.loc, self.scale = _utils.params(
            'Gumbel', [('loc', loc), ('scale', scale)])

    @property
    def batch_shape(self):
        return self.loc.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'loc': self.loc, 'scale': self.scale}

    @property
    def support(self):
        return 'real'

    def _z(self, method, x):
        x = _utils.value('Gumbel.' + method, x, self.loc.dtype,
                         self.batch_shape)
        return (x - self.loc) / self.scale

    def log_prob(self, x):
        z = self._z('log_prob', x)
        return -z - F.exp(-z) - F.log(self.scale)

    def cdf(self, x):
        return F.exp(-F.exp(-self._z('cdf', x)))

    def log_cdf(self, x):
        return -F.exp(-self._z('log_cdf', x))

    def survival_function(self, x):
        return -F.expm1(-F.exp(-self._z('survival_function', x)))

    def icdf(self, x):
        x = _utils.value('Gumbel.icdf', x, self.loc.dtype, self.batch_shape)
        return self.loc - self.scale * F.log(-F.log(x))

    @property
    def entropy(self):
        return F.log(self.scale) + (self.euler + 1)

    @property
    def mean(self):
        return self.loc + self.euler * self.scale

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return (math.pi / math.sqrt(6.0)) * self.scale

    @property
    def variance(self):
        return (math.pi ** 2 / 6) * F.square(self.scale)

    def sample_n(self, n):
        n = _utils.check_n('Gumbel', n)
        xp = self.xp
        u = _utils.uniform(xp, (n,) + self.batch_shape, self.loc.dtype)
        return self.loc + self.scale * -xp.log(-xp.log(u))


@distribution.register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(dist1, dist2):
    ratio = dist1.scale / dist2.scale
    return F.log(dist2.scale) - F.log(dist1.scale) - \
        (_utils.EULER + 1) + (dist1.loc - dist2.loc) / dist2.scale + \
        _utils.EULER * ratio + \
        F.exp((dist2.loc - dist1.loc) / dist2.scale + F.lgamma(ratio + 1))
