"""Chainer's module path of n_step_gru; the implementation is in
``chainer_core.functions.connection.n_step_gru``."""
from chainer_core.functions.connection.n_step_gru import (  # NOQA
    n_step_bigru, n_step_gru)
