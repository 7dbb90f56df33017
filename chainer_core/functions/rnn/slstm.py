"""Chainer's module path of slstm; the implementation is in
``chainer_core.functions.activation.slstm``."""
from chainer_core.functions.activation.slstm import (  # NOQA
    SLSTM, SLSTMGrad, slstm)
