"""Chainer's module path of n_step_rnn; the implementation is in
``chainer_core.functions.connection.n_step_rnn``."""
from chainer_core.functions.connection.n_step_rnn import (  # NOQA
    n_step_birnn, n_step_rnn)
