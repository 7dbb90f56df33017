"""Optimizers (Chainer's ``chainer.optimizers``)."""
from chainer_core.optimizers.adam import (  # NOQA
    AdaBound, Adam, AMSBound, AMSGrad)
from chainer_core.optimizers.momentum_sgd import MomentumSGD  # NOQA
from chainer_core.optimizers.sgd import SGD  # NOQA
