"""Ornstein-Uhlenbeck noise added to continuous actions (as in DDPG)."""
from logging import getLogger

import numpy

from chainer_rl import explorer


class AdditiveOU(explorer.Explorer):
    """Add temporally correlated noise ``x`` to the greedy action, where

        x_{k+1} = x_k + theta * (mu - x_k) + sigma * N(0, 1)

    The first call starts ``x`` at ``mu`` (``start_with_mu=True``) or draws
    it from the process's stationary distribution,
    ``N(mu, sigma**2 / (2 * theta - theta**2))``; each later call advances
    it one step. Draws come from NumPy's global generator.

    Args:
        mu (float or array): mean the noise returns to.
        theta (float): strength of the return to ``mu`` (in (0, 1]).
        sigma (float or array): scale of the random increments.
        start_with_mu (bool): see above.
    """

    def __init__(self, mu=0.0, theta=0.15, sigma=0.3, start_with_mu=False,
                 logger=getLogger(__name__)):
        try:
            theta = float(theta)
        except (TypeError, ValueError):
            raise TypeError('AdditiveOU: theta must be a number, got {}'
                            .format(type(theta).__name__))
        if not 0 < theta <= 1:
            raise ValueError('AdditiveOU: theta must be in (0, 1], got {}'
                             .format(theta))
        if (numpy.asarray(sigma, dtype=numpy.float64) < 0).any():
            raise ValueError('AdditiveOU: sigma must be non-negative, got {}'
                             .format(sigma))
        self.mu = mu
        self.theta = theta
        self.sigma = sigma
        self.start_with_mu = bool(start_with_mu)
        self.logger = logger
        self.ou_state = None

    def evolve(self):
        """Advance the noise process by one step."""
        x = self.ou_state
        dx = (self.theta * (self.mu - x)
              + self.sigma * numpy.random.normal(size=x.shape))
        self.ou_state = (x + dx).astype(numpy.float32)

    def select_action(self, t, greedy_action_func, action_value=None):
        """Greedy action plus the current noise."""
        a = numpy.asarray(greedy_action_func())
        if self.ou_state is None or self.ou_state.shape != a.shape:
            if self.start_with_mu:
                self.ou_state = numpy.broadcast_to(
                    numpy.asarray(self.mu, dtype=numpy.float32),
                    a.shape).copy()
            else:
                stationary = (numpy.asarray(self.sigma, dtype=numpy.float64)
                              / numpy.sqrt(2 * self.theta - self.theta ** 2))
                self.ou_state = numpy.random.normal(
                    size=a.shape, loc=self.mu,
                    scale=stationary).astype(numpy.float32)
        else:
            self.evolve()
        noise = self.ou_state
        self.logger.debug('t:%s noise:%s', t, noise)
        return (a + noise).astype(numpy.float32)

    def __repr__(self):
        return 'AdditiveOU(mu={}, theta={}, sigma={})'.format(
            self.mu, self.theta, self.sigma)
