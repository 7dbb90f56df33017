"""Reinterpreting batch axes of a distribution as event axes."""
import numbers

from chainer_core import distribution
from chainer_core.distributions import _utils


class Independent(distribution.Distribution):
    """Treats the last batch axes of a distribution as event axes.

    The log probability and the entropy are summed over the reinterpreted
    axes, so a batch of independent univariate distributions becomes one
    multivariate distribution with a diagonal structure.

    Args:
        distribution (~chainer_core.Distribution): the base distribution.
        reinterpreted_batch_ndims (int): how many trailing batch axes become
            event axes; by default all but the first batch axis (zero for a
            base with at most one batch axis).

    Sampling is that of the base distribution (reparameterised when the
    base's is).
    """

    def __init__(self, distribution, reinterpreted_batch_ndims=None):
        from chainer_core.distribution import Distribution
        if not isinstance(distribution, Distribution):
            raise TypeError('Independent: distribution must be a '
                            'Distribution, got {}'.format(
                                type(distribution).__name__))
        ndim = len(distribution.batch_shape)
        if reinterpreted_batch_ndims is None:
            reinterpreted_batch_ndims = max(0, ndim - 1)
        elif isinstance(reinterpreted_batch_ndims, bool) or \
                not isinstance(reinterpreted_batch_ndims, numbers.Integral):
            raise TypeError('Independent: reinterpreted_batch_ndims must be '
                            'an int, got {}'.format(
                                type(reinterpreted_batch_ndims).__name__))
        elif not 0 <= reinterpreted_batch_ndims <= ndim:
            raise ValueError(
                'Independent: reinterpreted_batch_ndims must be between 0 '
                'and the number of batch axes of the distribution ({}), got '
                '{}'.format(ndim, reinterpreted_batch_ndims))
        self._distribution = distribution
        self._ndims = int(reinterpreted_batch_ndims)

    @property
    def distribution(self):
        """~chainer_core.Distribution: the base distribution."""
        return self._distribution

    @property
    def reinterpreted_batch_ndims(self):
        """int: the number of batch axes turned into event axes."""
        return self._ndims

    @property
    def batch_shape(self):
        shape = self._distribution.batch_shape
        return shape[:len(shape) - self._ndims]

    @property
    def event_shape(self):
        shape = self._distribution.batch_shape
        return shape[len(shape) - self._ndims:] + \
            self._distribution.event_shape

    @property
    def params(self):
        return self._distribution.params

    @property
    def xp(self):
        return self._distribution.xp

    @property
    def support(self):
        return self._distribution.support

    def log_prob(self, x):
        return _utils.sum_last(self._distribution.log_prob(x), self._ndims)

    @property
    def entropy(self):
        return _utils.sum_last(self._distribution.entropy, self._ndims)

    @property
    def mean(self):
        return self._distribution.mean

    @property
    def mode(self):
        return self._distribution.mode

    @property
    def stddev(self):
        return self._distribution.stddev

    @property
    def variance(self):
        return self._distribution.variance

    def sample_n(self, n):
        return self._distribution.sample_n(n)


@distribution.register_kl(Independent, Independent)
def _kl_independent_independent(dist1, dist2):
    from chainer_core.distribution import kl_divergence
    if dist1.event_shape != dist2.event_shape:
        raise ValueError(
            'kl_divergence: the event shapes of the Independent '
            'distributions differ: {} and {}'.format(
                dist1.event_shape, dist2.event_shape))
    p, q = dist1.distribution, dist2.distribution
    if p.event_shape != q.event_shape:
        raise NotImplementedError(
            'kl_divergence: Independent distributions whose base event '
            'shapes differ ({} and {}) are not supported'.format(
                p.event_shape, q.event_shape))
    return _utils.sum_last(kl_divergence(p, q),
                           dist1.reinterpreted_batch_ndims)
