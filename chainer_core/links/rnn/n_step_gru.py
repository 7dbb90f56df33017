"""NStepGRU, NStepBiGRU: stacked GRUs over lists of sequences."""
from chainer_core.functions.connection.n_step_gru import (
    n_step_bigru, n_step_gru)
from chainer_core.links.rnn.n_step_rnn import NStepRNNBase


class NStepGRUBase(NStepRNNBase):
    """Base of the stacked GRU links: six weights ``w0..w5`` and biases
    ``b0..b5`` per layer and direction, in the layout of
    :func:`~chainer_core.functions.n_step_gru`.

    Args: as :class:`NStepRNNBase`.
    """

    n_weights = 6

    @property
    def n_cells(self):
        return 1

    def rnn(self, *args):
        func = n_step_bigru if self.use_bi_direction else n_step_gru
        return func(*args)

    def forward(self, hx, xs, **kwargs):
        """Run the sequences ``xs``.

        Args:
            hx (Variable, array or None): initial hidden states
                ``(n_layers * D, len(xs), out_size)`` (``D`` directions);
                None is zeros.
            xs (list of Variable or array): the sequences, ``xs[i]`` of
                shape ``(L_i, in_size)``, in any order.

        Returns:
            tuple: ``(hy, ys)``: the final hidden states, of the shape of
            ``hx``, and the list of the outputs of the last layer, ``ys[i]``
            of shape ``(L_i, D * out_size)``.
        """
        (hy,), ys = self._call([hx], xs, **kwargs)
        return hy, ys


class NStepGRU(NStepGRUBase):
    """Stacked uni-directional GRU over a list of sequences (see
    :func:`~chainer_core.functions.n_step_gru`).

    Args: as :class:`NStepRNNBase`.
    """

    use_bi_direction = False


class NStepBiGRU(NStepGRUBase):
    """Stacked bi-directional GRU over a list of sequences (see
    :func:`~chainer_core.functions.n_step_bigru`).

    Args: as :class:`NStepRNNBase`.
    """

    use_bi_direction = True
