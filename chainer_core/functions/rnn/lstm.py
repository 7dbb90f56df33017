"""Chainer's module path of lstm; the implementation is in
``chainer_core.functions.activation.lstm``."""
from chainer_core.functions.activation.lstm import (  # NOQA
    LSTM, LSTMGrad, lstm)
