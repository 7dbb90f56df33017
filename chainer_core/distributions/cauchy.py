"""The Cauchy distribution."""
import math
import warnings

from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Cauchy(distribution.Distribution):
    """Cauchy distribution.

    .. math::
        p(x; x_0, \\gamma) = \\frac{1}{\\pi\\gamma
            \\left[1 + \\left(\\frac{x - x_0}{\\gamma}\\right)^2\\right]}

    Args:
        loc (~chainer_core.Variable, array or float): the location
            :math:`x_0`.
        scale (~chainer_core.Variable, array or float): the scale
            :math:`\\gamma > 0`.

    The mean and the variance are undefined: :attr:`mean` and
    :attr:`variance` warn and return NaN. Samples are reparameterised
    (:math:`x = x_0 + \\gamma \\tan(\\pi(u - 1/2))`, :math:`u` uniform).
    """

    def __init__(self, loc, scale):
        self.loc, self.scale = _utils.params(
            'Cauchy', [('loc', loc), ('scale', scale)])

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
        x = _utils.value('Cauchy.' + method, x, self.loc.dtype,
                         self.batch_shape)
        return (x - self.loc) / self.scale

    def log_prob(self, x):
        z = self._z('log_prob', x)
        return -math.log(math.pi) - F.log(self.scale) - F.log1p(F.square(z))

    def cdf(self, x):
        return F.arctan(self._z('cdf', x)) / math.pi + 0.5

    def icdf(self, x):
        x = _utils.value('Cauchy.icdf', x, self.loc.dtype, self.batch_shape)
        return self.loc + self.scale * F.tan(math.pi * (x - 0.5))

    @property
    def entropy(self):
        return F.log(4 * math.pi * self.scale)

    def _undefined(self, what):
        warnings.warn('The {} of the Cauchy distribution is undefined.'
                      .format(what), RuntimeWarning, stacklevel=3)
        xp = self.xp
        return F.broadcast_to(
            xp.asarray(float('nan'), dtype=self.loc.dtype), self.batch_shape)

    @property
    def mean(self):
        return self._undefined('mean')

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self._undefined('variance')

    @property
    def stddev(self):
        return self._undefined('standard deviation')

    def sample_n(self, n):
        n = _utils.check_n('Cauchy', n)
        u = _utils.uniform(self.xp, (n,) + self.batch_shape, self.loc.dtype)
        return self.loc + self.scale * self.xp.tan(math.pi * (u - 0.5))
