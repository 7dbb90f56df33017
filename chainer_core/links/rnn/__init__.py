"""Recurrent links: LSTM and GRU cells, and stacked RNNs over lists of
sequences."""
from chainer_core.links.rnn.gru import GRU  # NOQA
from chainer_core.links.rnn.gru import StatefulGRU  # NOQA
from chainer_core.links.rnn.gru import StatelessGRU  # NOQA
from chainer_core.links.rnn.lstm import LSTM  # NOQA
from chainer_core.links.rnn.lstm import StatelessLSTM  # NOQA
from chainer_core.links.rnn.mgu import StatefulMGU  # NOQA
from chainer_core.links.rnn.mgu import StatelessMGU  # NOQA
from chainer_core.links.rnn.n_step_gru import NStepBiGRU  # NOQA
from chainer_core.links.rnn.n_step_gru import NStepGRU  # NOQA
from chainer_core.links.rnn.n_step_lstm import NStepBiLSTM  # NOQA
from chainer_core.links.rnn.n_step_lstm import NStepLSTM  # NOQA
from chainer_core.links.rnn.n_step_rnn import NStepBiRNNReLU  # NOQA
from chainer_core.links.rnn.n_step_rnn import NStepBiRNNTanh  # NOQA
from chainer_core.links.rnn.n_step_rnn import NStepRNNReLU  # NOQA
from chainer_core.links.rnn.n_step_rnn import NStepRNNTanh  # NOQA
from chainer_core.links.rnn.peephole import StatefulPeepholeLSTM  # NOQA
from chainer_core.links.rnn.tree_lstm import ChildSumTreeLSTM  # NOQA
from chainer_core.links.rnn.tree_lstm import NaryTreeLSTM  # NOQA
from chainer_core.links.rnn.zoneoutlstm import StatefulZoneoutLSTM  # NOQA
