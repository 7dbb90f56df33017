"""The continuous uniform distribution."""
from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Uniform(distribution.Distribution):
    """Continuous uniform distribution on :math:`[l, h]`.

    .. math::
        p(x; l, h) = \\frac{1}{h - l}, \\quad l \\le x \\le h

    Keyword-only arguments: either ``low`` and ``high``, or ``loc`` and
    ``scale`` (then :math:`l = \\mathrm{loc}`,
    :math:`h = \\mathrm{loc} + \\mathrm{scale}`).

    Args:
        low (~chainer_core.Variable, array or float): :math:`l`.
        high (~chainer_core.Variable, array or float): :math:`h > l`.
        loc (~chainer_core.Variable, array or float): :math:`l`.
        scale (~chainer_core.Variable, array or float): :math:`h - l > 0`.

    Samples are reparameterised (:math:`x = l + (h - l) u`, :math:`u`
    uniform on :math:`[0, 1)`).
    """

    def __init__(self, **kwargs):
        unknown = set(kwargs) - {'low', 'high', 'loc', 'scale'}
        if unknown:
            raise TypeError('Uniform: unexpected keyword arguments {}'.format(
                ', '.join(sorted(unknown))))
        given = {k for k, v in kwargs.items() if v is not None}
        if given == {'low', 'high'}:
            self.low, self.high = _utils.params(
                'Uniform', [('low', kwargs['low']),
                            ('high', kwargs['high'])])
        elif given == {'loc', 'scale'}:
            loc, scale = _utils.params(
                'Uniform', [('loc', kwargs['loc']),
                            ('scale', kwargs['scale'])])
            self.low, self.high = loc, loc + scale
        else:
            raise ValueError('Uniform: give either low and high, or loc and '
                             'scale; got {}'.format(
                                 ', '.join(sorted(given)) or 'none'))

    @property
    def loc(self):
        """~chainer_core.Variable: the lower end :math:`l`."""
        return self.low

    @property
    def scale(self):
        """~chainer_core.Variable: the width :math:`h - l`."""
        return self.high - self.low

    @property
    def batch_shape(self):
        return self.low.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'low': self.low, 'high': self.high}

    @property
    def support(self):
        return '[low, high]'

    def _x(self, method, x):
        return _utils.value('Uniform.' + method, x, self.low.dtype,
                            self.batch_shape)

    def log_prob(self, x):
        x = self._x('log_prob', x)
        xa = _utils.array_of(x)
        inside = (xa >= self.low.array) & (xa <= self.high.array)
        y = -F.log(self.scale) + x * 0
        return _utils.fill_outside(y, _utils.inside_mask(inside),
                                   -float('inf'))

    def cdf(self, x):
        x = self._x('cdf', x)
        return F.clip((x - self.low) / self.scale, 0.0, 1.0)

    def icdf(self, x):
        x = self._x('icdf', x)
        return self.low + self.scale * x

    @property
    def entropy(self):
        return F.log(self.scale)

    @property
    def mean(self):
        return 0.5 * (self.low + self.high)

    @property
    def stddev(self):
        return self.scale / 12 ** 0.5

    @property
    def variance(self):
        return F.square(self.scale) / 12

    def sample_n(self, n):
        n = _utils.check_n('Uniform', n)
        u = _utils.random(self.xp).uniform(
            size=(n,) + self.batch_shape).astype(self.low.dtype)
        return self.low + self.scale * u


@distribution.register_kl(Uniform, Uniform)
def _kl_uniform_uniform(dist1, dist2):
    kl = F.log(dist2.scale) - F.log(dist1.scale)
    xp = dist1.xp
    contained = (dist2.low.array <= dist1.low.array) & \
        (dist1.high.array <= dist2.high.array)
    return _utils.fill_outside(
        kl, _utils.inside_mask(xp.broadcast_to(contained, kl.shape)),
        float('inf'))
