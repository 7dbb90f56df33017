"""Optimizer hooks (Chainer's ``chainer.optimizer_hooks``).

Each hook is registered with ``optimizer.add_hook(hook)`` (called for every
parameter before the update, or once per update for
:class:`GradientClipping`) or, except GradientClipping, with
``param.update_rule.add_hook(hook)`` for one parameter.
"""
from chainer_core.optimizer_hooks.gradient_clipping import (  # NOQA
    GradientClipping)
from chainer_core.optimizer_hooks.gradient_hard_clipping import (  # NOQA
    GradientHardClipping)
from chainer_core.optimizer_hooks.gradient_lars import GradientLARS  # NOQA
from chainer_core.optimizer_hooks.gradient_noise import (  # NOQA
    GradientNoise, exponential_decay_noise)
from chainer_core.optimizer_hooks.lasso import Lasso  # NOQA
from chainer_core.optimizer_hooks.weight_decay import WeightDecay  # NOQA
