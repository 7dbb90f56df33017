"""The gamma distribution."""
from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Gamma(distribution.Distribution):
    """Gamma distribution (shape and scale).

    .. math::
        p(x; k, \\theta) = \\frac{x^{k - 1} e^{-x/\\theta}}
            {\\Gamma(k)\\theta^k}, \\quad x \\ge 0

    Args:
        k (~chainer_core.Variable, array or float): the shape
            :math:`k > 0`.
        theta (~chainer_core.Variable, array or float): the scale
            :math:`\\theta > 0`.

    Samples are not differentiable.
    """

    def __init__(self, k, theta):
        self.k, self.theta = _utils.params(
            'Gamma', [('k', k), ('theta', theta)])

    @property
    def batch_shape(self):
        return self.k.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'k': self.k, 'theta': self.theta}

    @property
    def support(self):
        return 'positive'

    def log_prob(self, x):
        x = _utils.value('Gamma.log_prob', x, self.k.dtype, self.batch_shape)
        inside = _utils.inside_mask(_utils.array_of(x) >= 0)
        x = _utils.safe(x, inside, 1)
        y = _utils.mul_log(self.k - 1, x) - x / self.theta - \
            F.lgamma(self.k) - self.k * F.log(self.theta)
        return _utils.fill_outside(y, inside, -float('inf'))

    @property
    def entropy(self):
        return self.k + F.log(self.theta) + F.lgamma(self.k) + \
            (1 - self.k) * F.digamma(self.k)

    @property
    def mean(self):
        return self.k * self.theta

    @property
    def variance(self):
        return self.k * F.square(self.theta)

    def sample_n(self, n):
        n = _utils.check_n('Gamma', n)
        eps = _utils.random(self.xp).gamma(
            self.k.array, self.theta.array, size=(n,) + self.batch_shape)
        return _utils.sample_variable(eps, self.k.dtype)


@distribution.register_kl(Gamma, Gamma)
def _kl_gamma_gamma(dist1, dist2):
    return (dist1.k - dist2.k) * F.digamma(dist1.k) - F.lgamma(dist1.k) + \
        F.lgamma(dist2.k) + \
        dist2.k * (F.log(dist2.theta) - F.log(dist1.theta)) + \
        dist1.k * (dist1.theta / dist2.theta - 1)
