"""Chainer's module path of n_step_lstm; the implementation is in
``chainer_core.functions.connection.n_step_lstm``."""
from chainer_core.functions.connection.n_step_lstm import (  # NOQA
    n_step_bilstm, n_step_lstm)
