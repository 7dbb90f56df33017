"""Recurrent cells and multi-layer recurrent networks, under Chainer's
module paths.

The implementations live with the activations (``lstm``, ``slstm``,
``tree_lstm``) and the connections (``n_step_*``); each module here
re-exports one of them, so that code importing Chainer's paths runs
unchanged.
"""
from chainer_core.functions.rnn import (  # NOQA
    lstm, n_step_gru, n_step_lstm, n_step_rnn, slstm, tree_lstm)
