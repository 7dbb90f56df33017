"""The Poisson distribution."""
from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Poisson(distribution.Distribution):
    """Poisson distribution.

    .. math::
        P(x; \\lambda) = \\frac{\\lambda^x e^{-\\lambda}}{x!}, \\quad
        x = 0, 1, 2, \\ldots

    Args:
        lam (~chainer_core.Variable, array or float): the rate
            :math:`\\lambda > 0`.

    Points outside the support (negative or non-integer) have log
    probability ``-inf``. Samples have the dtype of ``lam`` and are not
    differentiable.
    """

    def __init__(self, lam):
        self.lam, = _utils.params('Poisson', [('lam', lam)])

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
        return 'non negative integer'

    def log_prob(self, x):
        x = _utils.data('Poisson.log_prob', x, self.lam.dtype,
                        self.batch_shape)
        xp = self.xp
        inside = _utils.inside_mask(x >= 0, x == xp.floor(x))
        x = _utils.safe(x, inside, 0)
        y = x * F.log(self.lam) - self.lam - \
            F.lgamma(xp.asarray(x + 1, dtype=x.dtype))
        return _utils.fill_outside(y, inside, -float('inf'))

    @property
    def mean(self):
        return self.lam

    @property
    def variance(self):
        return self.lam

    def sample_n(self, n):
        n = _utils.check_n('Poisson', n)
        eps = _utils.random(self.xp).poisson(
            self.lam.array, size=(n,) + self.batch_shape)
        return _utils.sample_variable(eps, self.lam.dtype)


@distribution.register_kl(Poisson, Poisson)
def _kl_poisson_poisson(dist1, dist2):
    return dist1.lam * (F.log(dist1.lam) - F.log(dist2.lam)) - \
        dist1.lam + dist2.lam
