"""The categorical distribution."""
from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


def _sample_indices(xp, p, n):
    """``n`` draws of category indices by inverting the cumulative
    probabilities (the last axis of ``p``)."""
    cum = xp.cumsum(p, axis=-1)
    cum = cum / cum[..., -1:]
    u = _utils.random(xp).uniform(size=(n,) + p.shape[:-1] + (1,))
    idx = (cum < u).sum(axis=-1)
    return xp.minimum(idx, p.shape[-1] - 1)


class Categorical(distribution.Distribution):
    """Categorical distribution over the indices ``0 ... K-1``.

    .. math::
        P(x = i; p) = p_i

    Args:
        p (~chainer_core.Variable or array): probabilities, of shape
            ``batch_shape + (K,)``.
        logit (~chainer_core.Variable or array): keyword only,
            unnormalised log probabilities (normalised by softmax). Exactly
            one of ``p`` and ``logit`` must be given.

    The event shape is ``()``: points are integer indices. Samples are
    integer arrays and are not differentiable.
    """

    def __init__(self, p=None, **kwargs):
        logit = kwargs.pop('logit', None)
        if kwargs:
            raise TypeError('Categorical: unexpected keyword arguments {}'
                            .format(', '.join(sorted(kwargs))))
        if (p is None) == (logit is None):
            raise ValueError(
                'Categorical: exactly one of p and logit must be given')
        if p is None:
            self._logit, = _utils.params('Categorical', [('logit', logit)],
                                         event_dims={'logit': 1})
            self._p = None
        else:
            self._p, = _utils.params('Categorical', [('p', p)],
                                     event_dims={'p': 1})
            self._logit = None

    @property
    def _param(self):
        return self._p if self._logit is None else self._logit

    @property
    def p(self):
        """~chainer_core.Variable: the probabilities."""
        if self._p is None:
            return F.softmax(self._logit, axis=-1)
        return self._p

    @property
    def logit(self):
        """~chainer_core.Variable: log probabilities (up to a constant)."""
        if self._logit is None:
            return F.log(self._p)
        return self._logit

    @property
    def log_p(self):
        """~chainer_core.Variable: the normalised log probabilities."""
        if self._logit is None:
            return F.log(self._p)
        return F.log_softmax(self._logit, axis=-1)

    @property
    def batch_shape(self):
        return self._param.shape[:-1]

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'logit': self.logit}

    @property
    def xp(self):
        return self._param.xp

    @property
    def support(self):
        return '{0, 1, ..., K-1}'

    def log_prob(self, x):
        dtype = self._param.dtype
        x = _utils.data('Categorical.log_prob', x, dtype, self.batch_shape)
        xp = self.xp
        k = self._param.shape[-1]
        shape = xp.broadcast_shapes(x.shape, self.batch_shape)
        x = xp.broadcast_to(x, shape)
        valid = (x >= 0) & (x < k) & (x == xp.floor(x))
        idx = xp.where(valid, x, 0).astype(xp.int64)[..., None]
        log_p = F.broadcast_to(self.log_p, shape + (k,))
        y = F.take_along_axis(log_p, idx, axis=-1)
        y = F.reshape(y, shape)
        return _utils.fill_outside(y, _utils.inside_mask(valid),
                                   -float('inf'))

    @property
    def entropy(self):
        return -F.sum(_neg_entropy_terms(self), axis=-1)

    def sample_n(self, n):
        n = _utils.check_n('Categorical', n)
        idx = _sample_indices(self.xp, self.p.array, n)
        return _utils.sample_variable(idx, self.xp.int64)


def _neg_entropy_terms(dist):
    if dist._logit is None:
        return _utils.mul_log(dist._p, dist._p)
    return dist.p * dist.log_p


def _cross_terms(p1, dist2):
    if dist2._logit is None:
        return _utils.mul_log(p1, dist2._p)
    return p1 * dist2.log_p


@distribution.register_kl(Categorical, Categorical)
def _kl_categorical_categorical(dist1, dist2):
    return F.sum(_neg_entropy_terms(dist1) - _cross_terms(dist1.p, dist2),
                 axis=-1)
