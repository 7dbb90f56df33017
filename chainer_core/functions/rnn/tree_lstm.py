"""Chainer's module path of tree_lstm; the implementation is in
``chainer_core.functions.activation.tree_lstm``."""
from chainer_core.functions.activation.tree_lstm import (  # NOQA
    TreeLSTM, tree_lstm)
