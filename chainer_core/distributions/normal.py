"""The normal distribution."""
import math

from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils

_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


class Normal(distribution.Distribution):
    """Normal distribution.

    .. math::
        p(x; \\mu, \\sigma) = \\frac{1}{\\sqrt{2\\pi\\sigma^2}}
            \\exp\\left(-\\frac{(x-\\mu)^2}{2\\sigma^2}\\right)

    Args:
        loc (~chainer_core.Variable, array or float): the mean
            :math:`\\mu`.
        scale (~chainer_core.Variable, array or float): the standard
            deviation :math:`\\sigma > 0`.
        log_scale (~chainer_core.Variable, array or float): keyword only,
            :math:`\\log \\sigma`. Exactly one of ``scale`` and
            ``log_scale`` must be given.

    The parameters broadcast together to :attr:`batch_shape`; the event
    shape is ``()``. Samples are reparameterised:
    :math:`x = \\mu + \\sigma \\epsilon` with :math:`\\epsilon` standard
    normal, so gradients flow from them to ``loc`` and ``scale``.
    """

    def __init__(self, loc, scale=None, **kwargs):
        log_scale = kwargs.pop('log_scale', None)
        if kwargs:
            raise TypeError('Normal: unexpected keyword arguments {}'.format(
                ', '.join(sorted(kwargs))))
        if (scale is None) == (log_scale is None):
            raise ValueError(
                'Normal: exactly one of scale and log_scale must be given')
        if scale is not None:
            self.loc, self._scale = _utils.params(
                'Normal', [('loc', loc), ('scale', scale)])
            self._log_scale = None
        else:
            self.loc, self._log_scale = _utils.params(
                'Normal', [('loc', loc), ('log_scale', log_scale)])
            self._scale = None

    @property
    def scale(self):
        """~chainer_core.Variable: :math:`\\sigma`."""
        if self._scale is None:
            return F.exp(self._log_scale)
        return self._scale

    @property
    def log_scale(self):
        """~chainer_core.Variable: :math:`\\log \\sigma`."""
        if self._log_scale is None:
            return F.log(self._scale)
        return self._log_scale

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
        x = _utils.value('Normal.' + method, x, self.loc.dtype,
                         self.batch_shape)
        return (x - self.loc) / self.scale

    def log_prob(self, x):
        z = self._z('log_prob', x)
        return -0.5 * F.square(z) - self.log_scale - _HALF_LOG_2PI

    def cdf(self, x):
        return _utils.ndtr(self._z('cdf', x))

    def log_cdf(self, x):
        return _utils.log_ndtr(self._z('log_cdf', x))

    def survival_function(self, x):
        return _utils.ndtr(-self._z('survival_function', x))

    def log_survival_function(self, x):
        return _utils.log_ndtr(-self._z('log_survival_function', x))

    def icdf(self, x):
        x = _utils.value('Normal.icdf', x, self.loc.dtype, self.batch_shape)
        return self.loc + self.scale * _utils.ndtri(x)

    @property
    def entropy(self):
        return self.log_scale + (0.5 + _HALF_LOG_2PI)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return F.square(self.scale)

    def sample_n(self, n):
        n = _utils.check_n('Normal', n)
        xp = self.xp
        eps = _utils.random(xp).standard_normal(
            (n,) + self.batch_shape).astype(self.loc.dtype)
        return self.loc + self.scale * eps


@distribution.register_kl(Normal, Normal)
def _kl_normal_normal(dist1, dist2):
    return dist2.log_scale - dist1.log_scale + \
        0.5 * (F.square(dist1.scale) + F.square(dist1.loc - dist2.loc)) / \
        F.square(dist2.scale) - 0.5
