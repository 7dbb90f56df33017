"""The Bernoulli distribution."""
from chainer_core import distribution
from chainer_core import functions as F
from chainer_core.distributions import _utils


class Bernoulli(distribution.Distribution):
    """Bernoulli distribution.

    .. math::
        P(x = 1; p) = p, \\quad P(x = 0; p) = 1 - p

    Args:
        p (~chainer_core.Variable, array or float): the probability of one.
        logit (~chainer_core.Variable, array or float): the log-odds
            :math:`\\log\\{p / (1 - p)\\}`. Exactly one of ``p`` and
            ``logit`` must be given; from ``logit`` the log probabilities
            are computed without forming ``p`` (no overflow for large
            logits).
        binary_check (bool): if true, :meth:`log_prob` raises
            ``ValueError`` for points other than 0 and 1 (otherwise their
            log probability is ``-inf``).

    Samples are integer arrays and are not differentiable.
    """

    def __init__(self, p=None, logit=None, binary_check=False):
        if (p is None) == (logit is None):
            raise ValueError(
                'Bernoulli: exactly one of p and logit must be given')
        if p is None:
            self._logit, = _utils.params('Bernoulli', [('logit', logit)])
            self._p = None
        else:
            self._p, = _utils.params('Bernoulli', [('p', p)])
            self._logit = None
        self.binary_check = binary_check

    @property
    def p(self):
        """~chainer_core.Variable: the probability of one."""
        if self._p is None:
            return F.sigmoid(self._logit)
        return self._p

    @property
    def logit(self):
        """~chainer_core.Variable: the log-odds."""
        if self._logit is None:
            return F.log(self._p) - F.log1p(-self._p)
        return self._logit

    def _log_p_q(self):
        if self._logit is None:
            return F.log(self._p), F.log1p(-self._p)
        return -F.softplus(-self._logit), -F.softplus(self._logit)

    @property
    def _dtype(self):
        return (self._p if self._logit is None else self._logit).dtype

    @property
    def batch_shape(self):
        return (self._p if self._logit is None else self._logit).shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'logit': self.logit}

    @property
    def xp(self):
        return (self._p if self._logit is None else self._logit).xp

    @property
    def support(self):
        return '{0, 1}'

    def log_prob(self, x):
        x = _utils.data('Bernoulli.log_prob', x, self._dtype,
                        self.batch_shape)
        one = x == 1
        valid = one | (x == 0)
        if self.binary_check and not bool(valid.all()):
            raise ValueError('Bernoulli.log_prob: x must be 0 or 1 with '
                             'binary_check=True')
        log_p, log_q = self._log_p_q()
        shape = self.xp.broadcast_shapes(x.shape, self.batch_shape)
        y = F.where(self.xp.broadcast_to(one, shape), log_p, log_q)
        return _utils.fill_outside(
            y, _utils.inside_mask(self.xp.broadcast_to(valid, shape)),
            -float('inf'))

    @property
    def entropy(self):
        if self._logit is None:
            p = self._p
            return -(_utils.mul_log(p, p) + _utils.mul_log(1 - p, 1 - p))
        logit = self._logit
        return F.sigmoid(logit) * F.softplus(-logit) + \
            F.sigmoid(-logit) * F.softplus(logit)

    @property
    def mean(self):
        return self.p

    @property
    def variance(self):
        p = self.p
        return p * (1 - p)

    def sample_n(self, n):
        n = _utils.check_n('Bernoulli', n)
        eps = _utils.random(self.xp).binomial(
            1, self.p.array, size=(n,) + self.batch_shape)
        return _utils.sample_variable(eps, eps.dtype)


@distribution.register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(dist1, dist2):
    log_p1, log_q1 = dist1._log_p_q()
    log_p2, log_q2 = dist2._log_p_q()
    p1 = dist1.p
    return p1 * (log_p1 - log_p2) + (1 - p1) * (log_q1 - log_q2)
