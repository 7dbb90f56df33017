"""The Laplace distribution."""
import math

from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Laplace(distribution.Distribution):
    """Laplace distribution.

    .. math::
        p(x; \\mu, b) = \\frac{1}{2b}
            \\exp\\left(-\\frac{|x - \\mu|}{b}\\right)

    Args:
        loc (~chainer_core.Variable, array or float): the location
            :math:`\\mu`.
        scale (~chainer_core.Variable, array or float): the scale
            :math:`b > 0`.

    Samples are reparameterised (:math:`x = \\mu + b\\epsilon` with
    :math:`\\epsilon` standard Laplace).
    """

    def __init__(self, loc, scale):
        self.loc, self.scale = _utils.params(
            'Laplace', [('loc', loc), ('scale', scale)])

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
        x = _utils.value('Laplace.' + method, x, self.loc.dtype,
                         self.batch_shape)
        return (x - self.loc) / self.scale

    def log_prob(self, x):
        z = self._z('log_prob', x)
        return -F.absolute(z) - F.log(2 * self.scale)

    def cdf(self, x):
        z = self._z('cdf', x)
        # 1/2 exp(z) below the location, 1 - 1/2 exp(-z) above, in one form.
        return 0.5 - 0.5 * F.sign(z) * F.expm1(-F.absolute(z))

    def icdf(self, x):
        x = _utils.value('Laplace.icdf', x, self.loc.dtype, self.batch_shape)
        d = x - 0.5
        return self.loc - self.scale * F.sign(d) * \
            F.log1p(-2 * F.absolute(d))

    @property
    def entropy(self):
        return 1.0 + F.log(2 * self.scale)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return math.sqrt(2.0) * self.scale

    @property
    def variance(self):
        return 2 * F.square(self.scale)

    def sample_n(self, n):
        n = _utils.check_n('Laplace', n)
        eps = _utils.random(self.xp).laplace(
            size=(n,) + self.batch_shape).astype(self.loc.dtype)
        return self.loc + self.scale * eps


@distribution.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(dist1, dist2):
    diff = F.absolute(dist1.loc - dist2.loc)
    return F.log(dist2.scale) - F.log(dist1.scale) + diff / dist2.scale + \
        dist1.scale / dist2.scale * F.exp(-diff / dist1.scale) - 1
