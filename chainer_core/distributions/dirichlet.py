"""The Dirichlet distribution."""
from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


def _lbeta_multi(alpha):
    return F.sum(F.lgamma(alpha), axis=-1) - F.lgamma(F.sum(alpha, axis=-1))


class Dirichlet(distribution.Distribution):
    """Dirichlet distribution over the probability simplex.

    .. math::
        p(x; \\alpha) = \\frac{1}{B(\\alpha)}
            \\prod_{i=1}^{K} x_i^{\\alpha_i - 1}, \\quad
        B(\\alpha) = \\frac{\\prod_i \\Gamma(\\alpha_i)}
            {\\Gamma(\\sum_i \\alpha_i)}

    Args:
        alpha (~chainer_core.Variable or array): concentrations
            :math:`\\alpha_i > 0`, of shape ``batch_shape + (K,)``.

    The event shape is ``(K,)``. Samples are not differentiable.
    """

    def __init__(self, alpha):
        self.alpha, = _utils.params('Dirichlet', [('alpha', alpha)],
                                    event_dims={'alpha': 1})

    @property
    def alpha0(self):
        """~chainer_core.Variable: :math:`\\sum_i \\alpha_i`."""
        return F.sum(self.alpha, axis=-1)

    @property
    def batch_shape(self):
        return self.alpha.shape[:-1]

    @property
    def event_shape(self):
        return self.alpha.shape[-1:]

    @property
    def params(self):
        return {'alpha': self.alpha}

    @property
    def support(self):
        return '[0, 1]'

    def log_prob(self, x):
        x = _utils.value('Dirichlet.log_prob', x, self.alpha.dtype,
                         self.alpha.shape)
        xa = _utils.array_of(x)
        xp = self.xp
        shape = xp.broadcast_shapes(xa.shape, self.alpha.shape)
        ok = xp.broadcast_to((xa >= 0) & (xa <= 1), shape)
        inside = _utils.inside_mask(ok)
        if inside is not None:
            x = _utils.safe(x + self.alpha * 0, inside,
                            xp.full((), 0.5, self.alpha.dtype))
        y = F.sum(_utils.mul_log(self.alpha - 1, x), axis=-1) - \
            _lbeta_multi(self.alpha)
        return _utils.fill_outside(
            y, None if inside is None else inside.all(axis=-1),
            -float('inf'))

    @property
    def entropy(self):
        alpha = self.alpha
        alpha0 = self.alpha0
        k = alpha.shape[-1]
        return _lbeta_multi(alpha) + (alpha0 - k) * F.digamma(alpha0) - \
            F.sum((alpha - 1) * F.digamma(alpha), axis=-1)

    @property
    def mean(self):
        return self.alpha / F.expand_dims(self.alpha0, -1)

    @property
    def variance(self):
        alpha0 = F.expand_dims(self.alpha0, -1)
        return self.alpha * (alpha0 - self.alpha) / \
            (F.square(alpha0) * (alpha0 + 1))

    def sample_n(self, n):
        n = _utils.check_n('Dirichlet', n)
        xp = self.xp
        g = _utils.random(xp).gamma(self.alpha.array,
                                    size=(n,) + self.alpha.shape)
        return _utils.sample_variable(g / g.sum(axis=-1, keepdims=True),
                                      self.alpha.dtype)


@distribution.register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(dist1, dist2):
    a, b = dist1.alpha, dist2.alpha
    return -_lbeta_multi(a) + _lbeta_multi(b) + F.sum(
        (a - b) * (F.digamma(a) - F.expand_dims(F.digamma(dist1.alpha0), -1)),
        axis=-1)
