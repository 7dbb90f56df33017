"""Recurrent links: LSTM and GRU cells, and stacked RNNs over lists of
sequences."""
from chainer_core import _lazy

__getattr__, __dir__ = _lazy(__name__, {
    '.gru': ('GRU', 'StatefulGRU', 'StatelessGRU'),
    '.lstm': ('LSTM', 'StatelessLSTM'),
    '.mgu': ('StatefulMGU', 'StatelessMGU'),
    '.n_step_gru': ('NStepBiGRU', 'NStepGRU'),
    '.n_step_lstm': ('NStepBiLSTM', 'NStepLSTM'),
    '.n_step_rnn': (
        'NStepBiRNNReLU', 'NStepBiRNNTanh', 'NStepRNNReLU', 'NStepRNNTanh'),
    '.peephole': ('StatefulPeepholeLSTM',),
    '.tree_lstm': ('ChildSumTreeLSTM', 'NaryTreeLSTM'),
    '.zoneoutlstm': ('StatefulZoneoutLSTM',),
}, submodules=True)
