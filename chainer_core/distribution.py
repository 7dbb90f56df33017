"""Probability distributions: the base class and the KL divergence registry.

The concrete distributions live in :mod:`chainer_core.distributions`.
"""
import numbers

from chainer_core import backend


class Distribution:
    """Interface of a probability distribution.

    A distribution offers sampling, the evaluation of probability-related
    functions (density or mass, distribution functions) and summary
    properties (mean, variance, entropy...). Everything computed from
    :class:`~chainer_core.Variable` parameters is built from differentiable
    functions, so gradients reach the parameters.

    Shapes follow a three-level hierarchy. Values within one *event* are
    dependent and cannot be sampled independently in general; the events of
    a *batch* are independent but not identically distributed; the batches
    of a *sample* are independent and identically distributed. The shapes
    of the three levels are ``sample_shape``, :attr:`batch_shape` and
    :attr:`event_shape`; the last two are fixed by the parameters given at
    construction.

    A probability-related function takes values of shape
    ``sample_shape + batch_shape + event_shape`` and returns a Variable of
    shape ``sample_shape + batch_shape``.

    Subclasses define the methods and properties that make sense for them;
    the others raise :class:`NotImplementedError`.
    """

    def _not_defined(self, what):
        return NotImplementedError('{} does not define {}'.format(
            type(self).__name__, what))

    def _overrides(self, name):
        return getattr(type(self), name) is not getattr(Distribution, name)

    @property
    def batch_shape(self):
        """tuple: The shape of a batch of independent events."""
        raise self._not_defined('batch_shape')

    @property
    def event_shape(self):
        """tuple: The shape of one event."""
        raise self._not_defined('event_shape')

    @property
    def params(self):
        """dict: The parameters of the distribution, by name."""
        raise self._not_defined('params')

    @property
    def support(self):
        """str: A description of the set the distribution lives on."""
        raise self._not_defined('support')

    @property
    def xp(self):
        """The array module (``numpy``, ``cupy`` ...) of the parameters."""
        return backend.get_array_module(*self.params.values())

    @property
    def device(self):
        """The device the parameters live on."""
        return backend.get_device_from_array(
            next(iter(self.params.values())))

    @property
    def mean(self):
        """~chainer_core.Variable: The mean of the distribution."""
        raise self._not_defined('mean')

    @property
    def mode(self):
        """~chainer_core.Variable: The mode of the distribution."""
        raise self._not_defined('mode')

    @property
    def variance(self):
        """~chainer_core.Variable: The variance of the distribution."""
        raise self._not_defined('variance')

    @property
    def stddev(self):
        """~chainer_core.Variable: The standard deviation of the
        distribution (the square root of :attr:`variance` unless a subclass
        has a direct form)."""
        if not self._overrides('variance'):
            raise self._not_defined('stddev')
        from chainer_core.functions import sqrt
        return sqrt(self.variance)

    @property
    def covariance(self):
        """~chainer_core.Variable: The covariance of the distribution."""
        raise self._not_defined('covariance')

    @property
    def entropy(self):
        """~chainer_core.Variable: The entropy of the distribution, of
        shape :attr:`batch_shape`."""
        raise self._not_defined('entropy')

    def log_prob(self, x):
        """The logarithm of the density (or mass) at ``x``.

        Args:
            x (~chainer_core.Variable or array): points of shape
                ``sample_shape + batch_shape + event_shape``.

        Returns:
            ~chainer_core.Variable of shape ``sample_shape + batch_shape``.
        """
        raise self._not_defined('log_prob')

    def prob(self, x):
        """The density (or mass) at ``x``: ``exp(log_prob(x))``."""
        if not self._overrides('log_prob'):
            raise self._not_defined('prob')
        from chainer_core.functions import exp
        return exp(self.log_prob(x))

    def cdf(self, x):
        """The cumulative distribution function at ``x``."""
        raise self._not_defined('cdf')

    def log_cdf(self, x):
        """The logarithm of the cumulative distribution function at ``x``."""
        if not self._overrides('cdf'):
            raise self._not_defined('log_cdf')
        from chainer_core.functions import log
        return log(self.cdf(x))

    def icdf(self, x):
        """The inverse of the cumulative distribution function at the
        probabilities ``x``."""
        raise self._not_defined('icdf')

    def survival_function(self, x):
        """The survival function ``1 - cdf(x)`` at ``x``."""
        if not self._overrides('cdf'):
            raise self._not_defined('survival_function')
        return 1 - self.cdf(x)

    def log_survival_function(self, x):
        """The logarithm of the survival function at ``x``."""
        if not (self._overrides('survival_function')
                or self._overrides('cdf')):
            raise self._not_defined('log_survival_function')
        from chainer_core.functions import log
        return log(self.survival_function(x))

    def perplexity(self, x):
        """The perplexity at ``x``."""
        raise self._not_defined('perplexity')

    def sample(self, sample_shape=()):
        """Draws points from the distribution.

        Args:
            sample_shape (int or tuple of ints): the shape of the sample.

        Returns:
            ~chainer_core.Variable of shape
            ``sample_shape + batch_shape + event_shape``. Where the
            distribution allows reparameterisation, gradients flow from the
            points to the parameters.
        """
        if isinstance(sample_shape, numbers.Integral):
            sample_shape = (sample_shape,)
        if not isinstance(sample_shape, (tuple, list)) or not all(
                isinstance(s, numbers.Integral) and not isinstance(s, bool)
                for s in sample_shape):
            raise TypeError(
                '{}.sample: sample_shape must be an int or a tuple of ints, '
                'got {!r}'.format(type(self).__name__, sample_shape))
        sample_shape = tuple(int(s) for s in sample_shape)
        if any(s < 0 for s in sample_shape):
            raise ValueError(
                '{}.sample: sample_shape must not be negative, got {}'
                .format(type(self).__name__, sample_shape))
        n = 1
        for s in sample_shape:
            n *= s
        samples = self.sample_n(n)
        return samples.reshape(
            sample_shape + self.batch_shape + self.event_shape)

    def sample_n(self, n):
        """Draws ``n`` points.

        Args:
            n (int): the number of points.

        Returns:
            ~chainer_core.Variable of shape
            ``(n,) + batch_shape + event_shape``.
        """
        raise self._not_defined('sample_n')


_KL_REGISTRY = {}


def register_kl(Dist1, Dist2):
    """Decorator registering the KL divergence between two classes.

    The decorated function takes an instance of ``Dist1`` and one of
    ``Dist2`` and returns :math:`D_{KL}(p \\| q)`; :func:`kl_divergence`
    calls it for arguments of these classes (or of subclasses, where no more
    specific pair is registered).

    Args:
        Dist1 (type): a subclass of :class:`Distribution` (the left
            operand).
        Dist2 (type): a subclass of :class:`Distribution` (the right
            operand).

    Returns:
        The decorator, which returns the function unchanged.

    Example::

        @register_kl(MyDist, MyDist)
        def _kl_mydist_mydist(p, q):
            return ...
    """
    for name, cls in (('Dist1', Dist1), ('Dist2', Dist2)):
        if not (isinstance(cls, type) and issubclass(cls, Distribution)):
            raise TypeError(
                'register_kl: {} must be a subclass of Distribution, got {!r}'
                .format(name, cls))

    def register(kl):
        if not callable(kl):
            raise TypeError('register_kl: the registered KL divergence must '
                            'be callable, got {!r}'.format(kl))
        _KL_REGISTRY[Dist1, Dist2] = kl
        return kl
    return register


def _lookup_kl(type1, type2):
    fn = _KL_REGISTRY.get((type1, type2))
    if fn is not None:
        return fn
    best = None
    mro1, mro2 = type1.__mro__, type2.__mro__
    for (c1, c2), f in _KL_REGISTRY.items():
        if c1 in mro1 and c2 in mro2:
            rank = (mro1.index(c1) + mro2.index(c2), mro1.index(c1))
            if best is None or rank < best[0]:
                best = (rank, f)
    return None if best is None else best[1]


def kl_divergence(dist1, dist2):
    """Kullback-Leibler divergence :math:`D_{KL}(p \\| q)`.

    .. math::
        D_{KL}(p \\| q) = \\int p(x) \\log \\frac{p(x)}{q(x)} dx

    (a sum over the support for discrete distributions), computed by the
    function registered with :func:`register_kl` for the pair of classes.

    Args:
        dist1 (Distribution): :math:`p`, the left operand.
        dist2 (Distribution): :math:`q`, the right operand.

    Returns:
        ~chainer_core.Variable of the batch shape.

    Raises:
        NotImplementedError: no KL divergence is registered for the pair.
    """
    for name, d in (('dist1', dist1), ('dist2', dist2)):
        if not isinstance(d, Distribution):
            raise TypeError('kl_divergence: {} must be a Distribution, got '
                            '{}'.format(name, type(d).__name__))
    fn = _lookup_kl(type(dist1), type(dist2))
    if fn is None:
        raise NotImplementedError(
            'kl_divergence: no KL divergence is registered between {} and {}'
            .format(type(dist1).__name__, type(dist2).__name__))
    return fn(dist1, dist2)


def cross_entropy(dist1, dist2):
    """Cross entropy :math:`H(p, q) = -\\int p(x) \\log q(x) dx`.

    Computed as ``dist1.entropy + kl_divergence(dist1, dist2)``.

    Args:
        dist1 (Distribution): :math:`p`.
        dist2 (Distribution): :math:`q`.

    Returns:
        ~chainer_core.Variable of the batch shape.
    """
    return dist1.entropy + kl_divergence(dist1, dist2)
