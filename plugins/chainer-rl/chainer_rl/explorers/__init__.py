"""Exploration strategies (``chainer_rl.explorer.Explorer`` subclasses)."""
from chainer_rl.explorers.additive_gaussian import AdditiveGaussian  # NOQA
from chainer_rl.explorers.additive_ou import AdditiveOU  # NOQA
from chainer_rl.explorers.boltzmann import Boltzmann  # NOQA
from chainer_rl.explorers.epsilon_greedy import (  # NOQA
    ConstantEpsilonGreedy, ExponentialDecayEpsilonGreedy,
    LinearDecayEpsilonGreedy, select_action_epsilon_greedily)
from chainer_rl.explorers.greedy import Greedy  # NOQA

__all__ = ['AdditiveGaussian', 'AdditiveOU', 'Boltzmann',
           'ConstantEpsilonGreedy', 'ExponentialDecayEpsilonGreedy',
           'LinearDecayEpsilonGreedy', 'select_action_epsilon_greedily',
           'Greedy']
