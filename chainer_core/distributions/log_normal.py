"""The log-normal distribution."""
import math

from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


class LogNormal(distribution.Distribution):
    """Log-normal distribution: :math:`\\log x` is normal.

    .. math::
        p(x; \\mu, \\sigma) = \\frac{1}{x \\sqrt{2\\pi\\sigma^2}}
            \\exp\\left(-\\frac{(\\log x - \\mu)^2}{2\\sigma^2}\\right),
        \\quad x > 0

    Args:
        mu (~chainer_core.Variable, array or float): the mean :math:`\\mu`
            of :math:`\\log x`.
        sigma (~chainer_core.Variable, array or float): the standard
            deviation :math:`\\sigma > 0` of :math:`\\log x`.

    Samples are reparameterised (:math:`x = \\exp(\\mu + \\sigma\\epsilon)`).
    """

    def __init__(self, mu, sigma):
        self.mu, self.sigma = _utils.params(
            'LogNormal', [('mu', mu), ('sigma', sigma)])

    @property
    def batch_shape(self):
        return self.mu.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'mu': self.mu, 'sigma': self.sigma}

    @property
    def support(self):
        return 'positive'

    def _x(self, method, x):
        return _utils.value('LogNormal.' + method, x, self.mu.dtype,
                            self.batch_shape)

    def log_prob(self, x):
        x = self._x('log_prob', x)
        inside = _utils.inside_mask(_utils.array_of(x) > 0)
        logx = F.log(_utils.safe(x, inside, 1))
        z = (logx - self.mu) / self.sigma
        y = -0.5 * F.square(z) - F.log(self.sigma) - logx - _HALF_LOG_2PI
        return _utils.fill_outside(y, inside, -float('inf'))

    def cdf(self, x):
        x = self._x('cdf', x)
        inside = _utils.inside_mask(_utils.array_of(x) > 0)
        z = (F.log(_utils.safe(x, inside, 1)) - self.mu) / self.sigma
        return _utils.fill_outside(_utils.ndtr(z), inside, 0.0)

    def log_cdf(self, x):
        x = self._x('log_cdf', x)
        inside = _utils.inside_mask(_utils.array_of(x) > 0)
        z = (F.log(_utils.safe(x, inside, 1)) - self.mu) / self.sigma
        return _utils.fill_outside(_utils.log_ndtr(z), inside,
                                   -float('inf'))

    def survival_function(self, x):
        x = self._x('survival_function', x)
        inside = _utils.inside_mask(_utils.array_of(x) > 0)
        z = (F.log(_utils.safe(x, inside, 1)) - self.mu) / self.sigma
        return _utils.fill_outside(_utils.ndtr(-z), inside, 1.0)

    def log_survival_function(self, x):
        x = self._x('log_survival_function', x)
        inside = _utils.inside_mask(_utils.array_of(x) > 0)
        z = (F.log(_utils.safe(x, inside, 1)) - self.mu) / self.sigma
        return _utils.fill_outside(_utils.log_ndtr(-z), inside, 0.0)

    def icdf(self, x):
        x = self._x('icdf', x)
        return F.exp(self.mu + self.sigma * _utils.ndtri(x))

    @property
    def entropy(self):
        return F.log(self.sigma) + self.mu + (0.5 + _HALF_LOG_2PI)

    @property
    def mean(self):
        return F.exp(self.mu + 0.5 * F.square(self.sigma))

    @property
    def mode(self):
        return F.exp(self.mu - F.square(self.sigma))

    @property
    def variance(self):
        s2 = F.square(self.sigma)
        return F.expm1(s2) * F.exp(2 * self.mu + s2)

    def sample_n(self, n):
        n = _utils.check_n('LogNormal', n)
        eps = _utils.random(self.xp).standard_normal(
            (n,) + self.batch_shape).astype(self.mu.dtype)
        return F.exp(self.mu + self.sigma * eps)


@distribution.register_kl(LogNormal, LogNormal)
def _kl_log_normal_log_normal(dist1, dist2):
    return F.log(dist2.sigma) - F.log(dist1.sigma) + \
        0.5 * (F.square(dist1.sigma) + F.square(dist1.mu - dist2.mu)) / \
        F.square(dist2.sigma) - 0.5
