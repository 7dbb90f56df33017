"""The one-hot categorical distribution."""
from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils
from chainer_core.distributions import categorical


class OneHotCategorical(distribution.Distribution):
    """Categorical distribution over one-hot vectors.

    .. math::
        P(x; p) = \\prod_i p_i^{x_i}, \\quad
        x \\in \\{0, 1\\}^K, \\ \\sum_i x_i = 1

    Args:
        p (~chainer_core.Variable or array): probabilities, of shape
            ``batch_shape + (K,)``.

    The event shape is ``(K,)``. Samples are integer one-hot arrays and are
    not differentiable.
    """

    def __init__(self, p):
        self.p, = _utils.params('OneHotCategorical', [('p', p)],
                                event_dims={'p': 1})

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return self.p.shape[-1:]

    @property
    def params(self):
        return {'p': self.p}

    @property
    def support(self):
        return '{0, 1}'

    def log_prob(self, x):
        x = _utils.data('OneHotCategorical.log_prob', x, self.p.dtype,
                        self.p.shape)
        return F.sum(_utils.mul_log(x, self.p), axis=-1)

    @property
    def entropy(self):
        return -F.sum(_utils.mul_log(self.p, self.p), axis=-1)

    @property
    def mean(self):
        return self.p

    @property
    def variance(self):
        return self.p * (1 - self.p)

    def sample_n(self, n):
        n = _utils.check_n('OneHotCategorical', n)
        xp = self.xp
        k = self.p.shape[-1]
        idx = categorical._sample_indices(xp, self.p.array, n)
        return _utils.sample_variable(idx[..., None] == xp.arange(k),
                                      xp.int64)


@distribution.register_kl(OneHotCategorical, OneHotCategorical)
def _kl_one_hot_categorical_one_hot_categorical(dist1, dist2):
    p1 = dist1.p
    return F.sum(_utils.mul_log(p1, p1) - _utils.mul_log(p1, dist2.p),
                 axis=-1)
