"""The beta distribution."""
from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Beta(distribution.Distribution):
    """Beta distribution.

    .. math::
        p(x; a, b) = \\frac{x^{a - 1}(1 - x)^{b - 1}}{B(a, b)},
        \\quad 0 \\le x \\le 1

    Args:
        a (~chainer_core.Variable, array or float): :math:`a > 0`.
        b (~chainer_core.Variable, array or float): :math:`b > 0`.

    Samples are not differentiable.
    """

    def __init__(self, a, b):
        self.a, self.b = _utils.params('Beta', [('a', a), ('b', b)])

    @property
    def batch_shape(self):
        return self.a.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'a': self.a, 'b': self.b}

    @property
    def support(self):
        return '[0, 1]'

    def log_prob(self, x):
        x = _utils.value('Beta.log_prob', x, self.a.dtype, self.batch_shape)
        xa = _utils.array_of(x)
        inside = _utils.inside_mask(xa >= 0, xa <= 1)
        x = _utils.safe(x, inside, 0.5)
        y = _utils.mul_log(self.a - 1, x) + \
            _utils.mul_log(self.b - 1, 1 - x) - _utils.lbeta(self.a, self.b)
        return _utils.fill_outside(y, inside, -float('inf'))

    @property
    def entropy(self):
        a, b = self.a, self.b
        return _utils.lbeta(a, b) - (a - 1) * F.digamma(a) - \
            (b - 1) * F.digamma(b) + (a + b - 2) * F.digamma(a + b)

    @property
    def mean(self):
        return self.a / (self.a + self.b)

    @property
    def variance(self):
        s = self.a + self.b
        return self.a * self.b / (F.square(s) * (s + 1))

    def sample_n(self, n):
        n = _utils.check_n('Beta', n)
        eps = _utils.random(self.xp).beta(
            self.a.array, self.b.array, size=(n,) + self.batch_shape)
        return _utils.sample_variable(eps, self.a.dtype)


@distribution.register_kl(Beta, Beta)
def _kl_beta_beta(dist1, dist2):
    a1, b1, a2, b2 = dist1.a, dist1.b, dist2.a, dist2.b
    return _utils.lbeta(a2, b2) - _utils.lbeta(a1, b1) + \
        (a1 - a2) * F.digamma(a1) + (b1 - b2) * F.digamma(b1) + \
        (a2 - a1 + b2 - b1) * F.digamma(a1 + b1)
