"""Optimizers (Chainer's ``chainer.optimizers``)."""
from chainer_core import _lazy

__getattr__, __dir__ = _lazy(__name__, {
    '.ada_delta': ('AdaDelta',),
    '.ada_grad': ('AdaGrad',),
    '.adam': ('AdaBound', 'Adam', 'AdamW', 'AMSBound', 'AMSGrad'),
    '.corrected_momentum_sgd': ('CorrectedMomentumSGD',),
    '.momentum_sgd': ('MomentumSGD',),
    '.msvag': ('MSVAG',),
    '.nesterov_ag': ('NesterovAG',),
    '.rmsprop': ('RMSprop',),
    '.rmsprop_graves': ('RMSpropGraves',),
    '.sgd': ('SGD',),
    '.smorms3': ('SMORMS3',),
}, submodules=True)
