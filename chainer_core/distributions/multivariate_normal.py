"""The multivariate normal distribution."""
import math

import numpy

from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


def _tril_mask(xp, d, dtype):
    return xp.asarray(numpy.tril(numpy.ones((d, d), dtype=dtype)))


def _inv(a):
    """Inverses of the trailing square matrices of ``a``."""
    d = a.shape[-1]
    flat = F.reshape(a, (-1, d, d))
    return F.reshape(F.batch_inv(flat), a.shape)


def _apply(m, v):
    """``m @ v`` over the trailing axes, ``m`` broadcast to ``v``'s batch
    axes (``v`` may have more leading axes)."""
    lead = numpy.broadcast_shapes(m.shape[:-2], v.shape[:-1])
    m = F.broadcast_to(m, lead + m.shape[-2:])
    v = F.broadcast_to(v, lead + v.shape[-1:])
    return F.matmul(m, F.expand_dims(v, -1))[..., 0]


class MultivariateNormal(distribution.Distribution):
    """Multivariate normal distribution, parameterised by the Cholesky
    factor of its covariance.

    .. math::
        p(x; \\mu, L) = \\frac{1}{\\sqrt{(2\\pi)^d |LL^\\top|}}
            \\exp\\left(-\\frac{1}{2}(x - \\mu)^\\top (LL^\\top)^{-1}
            (x - \\mu)\\right)

    Args:
        loc (~chainer_core.Variable or array): the mean :math:`\\mu`, of
            shape ``batch_shape + (d,)``.
        scale_tril (~chainer_core.Variable or array): keyword only, the
            lower-triangular factor :math:`L` of the covariance
            :math:`LL^\\top`, of shape ``batch_shape + (d, d)``, with
            nonzero diagonal. Entries above the diagonal are ignored.

    The batch shapes of the two parameters broadcast together; the event
    shape is ``(d,)``. Samples are reparameterised
    (:math:`x = \\mu + L\\epsilon`).
    """

    def __init__(self, loc, **kwargs):
        scale_tril = kwargs.pop('scale_tril', None)
        if kwargs:
            raise TypeError('MultivariateNormal: unexpected keyword '
                            'arguments {}'.format(', '.join(sorted(kwargs))))
        if scale_tril is None:
            raise ValueError('MultivariateNormal: scale_tril must be given')
        loc, scale_tril = _utils.params(
            'MultivariateNormal', [('loc', loc), ('scale_tril', scale_tril)],
            event_dims={'loc': 1, 'scale_tril': 2}, broadcast=False)
        d = loc.shape[-1]
        if scale_tril.shape[-2:] != (d, d):
            raise ValueError(
                'MultivariateNormal: scale_tril must end with the shape '
                '({0}, {0}) for loc of shape {1}, got {2}'.format(
                    d, loc.shape, scale_tril.shape))
        try:
            batch = numpy.broadcast_shapes(loc.shape[:-1],
                                           scale_tril.shape[:-2])
        except ValueError:
            raise ValueError(
                'MultivariateNormal: the batch shapes of loc {} and '
                'scale_tril {} do not broadcast together'.format(
                    loc.shape, scale_tril.shape)) from None
        if loc.shape[:-1] != batch:
            loc = F.broadcast_to(loc, batch + (d,))
        if scale_tril.shape[:-2] != batch:
            scale_tril = F.broadcast_to(scale_tril, batch + (d, d))
        self.loc = loc
        self.scale_tril = scale_tril

    @property
    def _tril(self):
        d = self.d
        return self.scale_tril * _tril_mask(self.xp, d, self.loc.dtype)

    def _log_det_tril(self):
        diag = F.diagonal(self._tril, 0, -2, -1)
        return F.sum(F.log(F.absolute(diag)), axis=-1)

    @property
    def d(self):
        """int: the dimension of the events."""
        return self.loc.shape[-1]

    @property
    def batch_shape(self):
        return self.loc.shape[:-1]

    @property
    def event_shape(self):
        return self.loc.shape[-1:]

    @property
    def params(self):
        return {'loc': self.loc, 'scale_tril': self.scale_tril}

    @property
    def support(self):
        return 'real'

    def log_prob(self, x):
        x = _utils.value('MultivariateNormal.log_prob', x, self.loc.dtype,
                         self.loc.shape)
        z = _apply(_inv(self._tril), x - self.loc)
        return -0.5 * F.sum(F.square(z), axis=-1) - self._log_det_tril() - \
            0.5 * self.d * math.log(2 * math.pi)

    @property
    def entropy(self):
        return self._log_det_tril() + \
            0.5 * self.d * (1 + math.log(2 * math.pi))

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def covariance(self):
        tril = self._tril
        return F.matmul(tril, tril, transb=True)

    @property
    def variance(self):
        return F.sum(F.square(self._tril), axis=-1)

    def sample_n(self, n):
        n = _utils.check_n('MultivariateNormal', n)
        eps = _utils.random(self.xp).standard_normal(
            (n,) + self.loc.shape).astype(self.loc.dtype)
        return self.loc + _apply(self._tril, eps)


@distribution.register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariate_normal_multivariate_normal(dist1, dist2):
    if dist1.d != dist2.d:
        raise ValueError('kl_divergence: MultivariateNormal event shapes '
                         'differ: {} and {}'.format(dist1.event_shape,
                                                    dist2.event_shape))
    inv2 = _inv(dist2._tril)
    tril1 = dist1._tril
    lead = numpy.broadcast_shapes(inv2.shape[:-2], tril1.shape[:-2])
    m = F.matmul(F.broadcast_to(inv2, lead + inv2.shape[-2:]),
                 F.broadcast_to(tril1, lead + tril1.shape[-2:]))
    trace = F.sum(F.square(m), axis=(-2, -1))
    z = _apply(inv2, dist2.loc - dist1.loc)
    return 0.5 * (trace + F.sum(F.square(z), axis=-1) - dist1.d) + \
        dist2._log_det_tril() - dist1._log_det_tril()
