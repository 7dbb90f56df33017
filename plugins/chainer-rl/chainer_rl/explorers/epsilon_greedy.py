"""Epsilon-greedy exploration for discrete actions."""
from logging import getLogger

import numpy

from chainer_rl import explorer
from chainer_rl.explorers._checks import check_callable
from chainer_rl.explorers._checks import check_probability


def select_action_epsilon_greedily(epsilon, random_action_func,
                                   greedy_action_func):
    """With probability ``epsilon`` a random action, else the greedy one.

    Draws from NumPy's global generator. Returns ``(action, is_greedy)``;
    the greedy function is not called when the action is random.
    """
    if numpy.random.rand() < epsilon:
        return random_action_func(), False
    return greedy_action_func(), True


class _EpsilonGreedyBase(explorer.Explorer):

    def __init__(self, random_action_func, logger):
        self.random_action_func = check_callable(
            random_action_func, 'random_action_func', type(self).__name__)
        self.logger = logger

    def _set_epsilon_range(self, where, start_epsilon, end_epsilon):
        """Check and keep the bounds of a decaying epsilon."""
        self.start_epsilon = check_probability(start_epsilon,
                                               'start_epsilon', where)
        self.end_epsilon = check_probability(end_epsilon, 'end_epsilon',
                                             where)

    def compute_epsilon(self, t):
        raise NotImplementedError

    def select_action(self, t, greedy_action_func, action_value=None):
        """Random action with probability ``epsilon`` (as of step ``t``),
        otherwise ``greedy_action_func()``."""
        self.epsilon = self.compute_epsilon(t)
        action, greedy = select_action_epsilon_greedily(
            self.epsilon, self.random_action_func, greedy_action_func)
        self.logger.debug('t:%s a:%s %s', t, action,
                          'greedy' if greedy else 'non-greedy')
        return action

    def get_statistics(self):
        """``[('epsilon', current epsilon)]``."""
        return [('epsilon', self.epsilon)]


class ConstantEpsilonGreedy(_EpsilonGreedyBase):
    """Epsilon-greedy with a fixed epsilon.

    Args:
        epsilon (float): probability of a random action, in [0, 1].
        random_action_func (callable): returns a random action.
    """

    def __init__(self, epsilon, random_action_func,
                 logger=getLogger(__name__)):
        self.epsilon = check_probability(epsilon, 'epsilon',
                                         'ConstantEpsilonGreedy')
        super().__init__(random_action_func, logger)

    def compute_epsilon(self, t):
        """The constant epsilon."""
        return self.epsilon

    def __repr__(self):
        return 'ConstantEpsilonGreedy(epsilon={})'.format(self.epsilon)


class LinearDecayEpsilonGreedy(_EpsilonGreedyBase):
    """Epsilon-greedy whose epsilon goes linearly from ``start_epsilon`` at
    step 0 to ``end_epsilon`` at step ``decay_steps``, then stays there.

    Args:
        start_epsilon (float): epsilon at ``t = 0``.
        end_epsilon (float): epsilon from ``t = decay_steps`` on.
        decay_steps (int): length of the decay (0: ``end_epsilon`` always).
        random_action_func (callable): returns a random action.
    """

    def __init__(self, start_epsilon, end_epsilon, decay_steps,
                 random_action_func, logger=getLogger(__name__)):
        where = 'LinearDecayEpsilonGreedy'
        self._set_epsilon_range(where, start_epsilon, end_epsilon)
        if isinstance(decay_steps, bool) or not isinstance(
                decay_steps, (int, numpy.integer)) or decay_steps < 0:
            raise ValueError('{}: decay_steps must be a non-negative int, got'
                             ' {!r}'.format(where, decay_steps))
        self.decay_steps = int(decay_steps)
        self.epsilon = self.start_epsilon
        super().__init__(random_action_func, logger)

    def compute_epsilon(self, t):
        """Epsilon at step ``t``."""
        if t >= self.decay_steps:
            return self.end_epsilon
        fraction = t / self.decay_steps
        return (self.start_epsilon
                + (self.end_epsilon - self.start_epsilon) * fraction)

    def __repr__(self):
        return 'LinearDecayEpsilonGreedy(epsilon={})'.format(self.epsilon)


class ExponentialDecayEpsilonGreedy(_EpsilonGreedyBase):
    """Epsilon-greedy with ``epsilon = max(start_epsilon * decay ** t,
    end_epsilon)``.

    Args:
        start_epsilon (float): epsilon at ``t = 0``.
        end_epsilon (float): the floor.
        decay (float): factor per step, in (0, 1].
        random_action_func (callable): returns a random action.
    """

    def __init__(self, start_epsilon, end_epsilon, decay,
                 random_action_func, logger=getLogger(__name__)):
        where = 'ExponentialDecayEpsilonGreedy'
        self._set_epsilon_range(where, start_epsilon, end_epsilon)
        decay = check_probability(decay, 'decay', where)
        if decay == 0:
            raise ValueError('{}: decay must be in (0, 1], got 0'
                             .format(where))
        self.decay = decay
        self.epsilon = self.start_epsilon
        super().__init__(random_action_func, logger)

    def compute_epsilon(self, t):
        """Epsilon at step ``t``."""
        return max(self.start_epsilon * self.decay ** t, self.end_epsilon)

    def __repr__(self):
        return 'ExponentialDecayEpsilonGreedy(epsilon={})'.format(
            self.epsilon)
