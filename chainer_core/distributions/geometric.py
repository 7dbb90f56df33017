"""The geometric distribution."""
from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Geometric(distribution.Distribution):
    """Geometric distribution: the number of trials up to and including
    the first success.

    .. math::
        P(x; p) = (1 - p)^{x - 1} p, \\quad x = 1, 2, 3, \\ldots

    Args:
        p (~chainer_core.Variable, array or float): the success
            probability :math:`0 < p \\le 1`.

    Points outside the support have log probability ``-inf``. Samples
    have the dtype of ``p`` and are not differentiable.
    """

    def __init__(self, p):
        self.p, = _utils.params('Geometric', [('p', p)])

    @property
    def batch_shape(self):
        return self.p.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'p': self.p}

    @property
    def support(self):
        return 'positive integer'

    def log_prob(self, x):
        x = _utils.data('Geometric.log_prob', x, self.p.dtype,
                        self.batch_shape)
        xp = self.xp
        inside = _utils.inside_mask(x >= 1, x == xp.floor(x))
        x = _utils.safe(x, inside, 1)
        y = _utils.mul_log(x - 1, 1 - self.p) + F.log(self.p)
        return _utils.fill_outside(y, inside, -float('inf'))

    def cdf(self, x):
        x = _utils.data('Geometric.cdf', x, self.p.dtype, self.batch_shape)
        xp = self.xp
        k = xp.floor(x)
        inside = _utils.inside_mask(k >= 1)
        k = _utils.safe(k, inside, 1)
        return _utils.fill_outside(-F.expm1(k * F.log1p(-self.p)), inside,
                                   0.0)

    @property
    def entropy(self):
        p = self.p
        q = 1 - p
        return -(_utils.mul_log(q, q) + p * F.log(p)) / p

    @property
    def mean(self):
        return 1 / self.p

    @property
    def variance(self):
        return (1 - self.p) / F.square(self.p)

    def sample_n(self, n):
        n = _utils.check_n('Geometric', n)
        eps = _utils.random(self.xp).geometric(
            self.p.array, size=(n,) + self.batch_shape)
        return _utils.sample_variable(eps, self.p.dtype)


@distribution.register_kl(Geometric, Geometric)
def _kl_geometric_geometric(dist1, dist2):
    return (1 / dist1.p - 1) * (F.log1p(-dist1.p) - F.log1p(-dist2.p)) + \
        F.log(dist1.p) - F.log(dist2.p)
