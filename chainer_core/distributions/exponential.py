"""The exponential distribution."""
from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Exponential(distribution.Distribution):
    """Exponential distribution.

    .. math::
        p(x; \\lambda) = \\lambda e^{-\\lambda x}, \\quad x \\ge 0

    Args:
        lam (~chainer_core.Variable, array or float): the rate
            :math:`\\lambda > 0`.

    Samples are reparameterised (:math:`x = \\epsilon / \\lambda` with
    :math:`\\epsilon` standard exponential).
    """

    def __init__(self, lam):
        self.lam, = _utils.params('Exponential', [('lam', lam)])

    @property
    def batch_shape(self):
        return self.lam.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'lam': self.lam}

    @property
    def support(self):
        return 'positive'

    def _x(self, method, x):
        x = _utils.value('Exponential.' + method, x, self.lam.dtype,
                         self.batch_shape)
        inside = _utils.inside_mask(_utils.array_of(x) >= 0)
        return _utils.safe(x, inside, 0), inside

    def log_prob(self, x):
        x, inside = self._x('log_prob', x)
        y = F.log(self.lam) - self.lam * x
        return _utils.fill_outside(y, inside, -float('inf'))

    def cdf(self, x):
        x, inside = self._x('cdf', x)
        return _utils.fill_outside(-F.expm1(-self.lam * x), inside, 0.0)

    def survival_function(self, x):
        x, inside = self._x('survival_function', x)
        return _utils.fill_outside(F.exp(-self.lam * x), inside, 1.0)

    def log_survival_function(self, x):
        x, inside = self._x('log_survival_function', x)
        return _utils.fill_outside(-self.lam * x, inside, 0.0)

    def icdf(self, x):
        x = _utils.value('Exponential.icdf', x, self.lam.dtype,
                         self.batch_shape)
        return -F.log1p(-x) / self.lam

    @property
    def entropy(self):
        return 1 - F.log(self.lam)

    @property
    def mean(self):
        return 1 / self.lam

    @property
    def mode(self):
        return self.lam * 0

    @property
    def stddev(self):
        return 1 / self.lam

    @property
    def variance(self):
        return 1 / F.square(self.lam)

    def sample_n(self, n):
        n = _utils.check_n('Exponential', n)
        eps = _utils.random(self.xp).standard_exponential(
            (n,) + self.batch_shape).astype(self.lam.dtype)
        return eps / self.lam


@distribution.register_kl(Exponential, Exponential)
def _kl_exponential_exponential(dist1, dist2):
    return F.log(dist1.lam) - F.log(dist2.lam) + dist2.lam / dist1.lam - 1
