"""Optimizers (Chainer's ``chainer.optimizers``)."""
from chainer_core.optimizers import ada_delta  # NOQA
from chainer_core.optimizers import ada_grad  # NOQA
from chainer_core.optimizers import adam  # NOQA
from chainer_core.optimizers import corrected_momentum_sgd  # NOQA
from chainer_core.optimizers import momentum_sgd  # NOQA
from chainer_core.optimizers import msvag  # NOQA
from chainer_core.optimizers import nesterov_ag  # NOQA
from chainer_core.optimizers import rmsprop  # NOQA
from chainer_core.optimizers import rmsprop_graves  # NOQA
from chainer_core.optimizers import sgd  # NOQA
from chainer_core.optimizers import smorms3  # NOQA

from chainer_core.optimizers.ada_delta import AdaDelta  # NOQA
from chainer_core.optimizers.ada_grad import AdaGrad  # NOQA
from chainer_core.optimizers.adam import (  # NOQA
    AdaBound, Adam, AdamW, AMSBound, AMSGrad)
from chainer_core.optimizers.corrected_momentum_sgd import (  # NOQA
    CorrectedMomentumSGD)
from chainer_core.optimizers.momentum_sgd import MomentumSGD  # NOQA
from chainer_core.optimizers.msvag import MSVAG  # NOQA
from chainer_core.optimizers.nesterov_ag import NesterovAG  # NOQA
from chainer_core.optimizers.rmsprop import RMSprop  # NOQA
from chainer_core.optimizers.rmsprop_graves import RMSpropGraves  # NOQA
from chainer_core.optimizers.sgd import SGD  # NOQA
from chainer_core.optimizers.smorms3 import SMORMS3  # NOQA
