"""The Pareto distribution."""
from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Pareto(distribution.Distribution):
    """Pareto distribution.

    .. math::
        p(x; x_m, \\alpha) = \\frac{\\alpha x_m^\\alpha}{x^{\\alpha + 1}},
        \\quad x \\ge x_m

    Args:
        scale (~chainer_core.Variable, array or float): the minimum
            :math:`x_m > 0`.
        alpha (~chainer_core.Variable, array or float): the shape
            :math:`\\alpha > 0`.

    Samples are reparameterised (:math:`x = x_m e^{\\epsilon / \\alpha}`
    with :math:`\\epsilon` standard exponential).
    """

    def __init__(self, scale, alpha):
        self.scale, self.alpha = _utils.params(
            'Pareto', [('scale', scale), ('alpha', alpha)])

    @property
    def batch_shape(self):
        return self.scale.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'scale': self.scale, 'alpha': self.alpha}

    @property
    def support(self):
        return '[scale, inf]'

    def _x(self, method, x):
        x = _utils.value('Pareto.' + method, x, self.scale.dtype,
                         self.batch_shape)
        xa = _utils.array_of(x)
        inside = _utils.inside_mask(
            self.xp.broadcast_to(xa >= self.scale.array,
                                 self.xp.broadcast_shapes(
                                     xa.shape, self.batch_shape)))
        if inside is not None:
            x = _utils.safe(x + self.scale * 0, inside,
                            self.xp.ones((), x.dtype))
        return x, inside

    def log_prob(self, x):
        x, inside = self._x('log_prob', x)
        y = F.log(self.alpha) + self.alpha * F.log(self.scale) - \
            (self.alpha + 1) * F.log(x)
        return _utils.fill_outside(y, inside, -float('inf'))

    def cdf(self, x):
        x, inside = self._x('cdf', x)
        y = -F.expm1(self.alpha * (F.log(self.scale) - F.log(x)))
        return _utils.fill_outside(y, inside, 0.0)

    def survival_function(self, x):
        x, inside = self._x('survival_function', x)
        y = F.exp(self.alpha * (F.log(self.scale) - F.log(x)))
        return _utils.fill_outside(y, inside, 1.0)

    def log_survival_function(self, x):
        x, inside = self._x('log_survival_function', x)
        y = self.alpha * (F.log(self.scale) - F.log(x))
        return _utils.fill_outside(y, inside, 0.0)

    def icdf(self, x):
        x = _utils.value('Pareto.icdf', x, self.scale.dtype,
                         self.batch_shape)
        return self.scale * F.exp(-F.log1p(-x) / self.alpha)

    @property
    def entropy(self):
        return F.log(self.scale) - F.log(self.alpha) + 1 / self.alpha + 1

    @property
    def mean(self):
        finite = self.alpha.array > 1
        alpha = _utils.safe(self.alpha, _utils.inside_mask(finite), 2)
        y = alpha * self.scale / (alpha - 1)
        return _utils.fill_outside(y, _utils.inside_mask(finite),
                                   float('inf'))

    @property
    def mode(self):
        return self.scale

    @property
    def variance(self):
        finite = self.alpha.array > 2
        alpha = _utils.safe(self.alpha, _utils.inside_mask(finite), 3)
        y = F.square(self.scale) * alpha / \
            (F.square(alpha - 1) * (alpha - 2))
        return _utils.fill_outside(y, _utils.inside_mask(finite),
                                   float('inf'))

    def sample_n(self, n):
        n = _utils.check_n('Pareto', n)
        eps = _utils.random(self.xp).standard_exponential(
            (n,) + self.batch_shape).astype(self.scale.dtype)
        return self.scale * F.exp(eps / self.alpha)


@distribution.register_kl(Pareto, Pareto)
def _kl_pareto_pareto(dist1, dist2):
    kl = F.log(dist1.alpha) - F.log(dist2.alpha) + \
        dist2.alpha * (F.log(dist1.scale) - F.log(dist2.scale)) + \
        dist2.alpha / dist1.alpha - 1
    xp = dist1.xp
    # The support of q must cover that of p.
    covered = xp.broadcast_to(dist1.scale.array >= dist2.scale.array,
                              kl.shape)
    return _utils.fill_outside(kl, _utils.inside_mask(covered), float('inf'))
