"""Optimizer hooks (Chainer's ``chainer.optimizer_hooks``).

Each hook is registered with ``optimizer.add_hook(hook)`` (called for every
parameter before the update, or once per update for
:class:`GradientClipping`) or, except GradientClipping, with
``param.update_rule.add_hook(hook)`` for one parameter.
"""
from chainer_core import _lazy

__getattr__, __dir__ = _lazy(__name__, {
    '.gradient_clipping': ('GradientClipping',),
    '.gradient_hard_clipping': ('GradientHardClipping',),
    '.gradient_lars': ('GradientLARS',),
    '.gradient_noise': ('exponential_decay_noise', 'GradientNoise'),
    '.lasso': ('Lasso',),
    '.weight_decay': ('WeightDecay',),
}, submodules=True)
