"""NStepLSTM, NStepBiLSTM: stacked LSTMs over lists of sequences."""
from chainer_core.functions.connection.n_step_lstm import (
    n_step_bilstm, n_step_lstm)
from chainer_core.links.rnn.n_step_rnn import NStepRNNBase


class NStepLSTMBase(NStepRNNBase):
    """Base of the stacked LSTM links: eight weights ``w0..w7`` and biases
    ``b0..b7`` per layer and direction, in the layout of
    :func:`~chainer_core.functions.n_step_lstm`.

    Args: as :class:`NStepRNNBase`.
    """

    n_weights = 8

    @property
    def n_cells(self):
        return 2

    def rnn(self, *args):
        func = n_step_bilstm if self.use_bi_direction else n_step_lstm
        return func(*args)

    def forward(self, hx, cx, xs, **kwargs):
        """Run the sequences ``xs``.

        Args:
            hx (Variable, array or None): initial hidden states
                ``(n_layers * D, len(xs), out_size)`` (``D`` directions);
                None is zeros.
            cx (Variable, array or None): initial cell states, of the shape
                of ``hx``; None is zeros.
            xs (list of Variable or array): the sequences, ``xs[i]`` of
                shape ``(L_i, in_size)``, in any order.

        Returns:
            tuple: ``(hy, cy, ys)``: the final hidden and cell states, of
            the shape of ``hx``, and the list of the outputs of the last
            layer, ``ys[i]`` of shape ``(L_i, D * out_size)``.
        """
        (hy, cy), ys = self._call([hx, cx], xs, **kwargs)
        return hy, cy, ys


class NStepLSTM(NStepLSTMBase):
    """Stacked uni-directional LSTM over a list of sequences (see
    :func:`~chainer_core.functions.n_step_lstm`).

    Args: as :class:`NStepRNNBase`.
    """

    use_bi_direction = False


class NStepBiLSTM(NStepLSTMBase):
    """Stacked bi-directional LSTM over a list of sequences (see
    :func:`~chainer_core.functions.n_step_bilstm`).

    Args: as :class:`NStepRNNBase`.
    """

    use_bi_direction = True
