"""Stacked RNN links over lists of sequences: the base shared with the LSTM
and GRU links, and the Elman RNNs (tanh or relu, uni- or bi-directional).

The links take the sequences in any order; they sort them by decreasing
length, make the time-major batches the n_step functions take, and restore
the order of the results.
"""
import numpy

from chainer_core._runtime.host import using_device
from chainer_core import initializers
from chainer_core.functions.array.concat import concat
from chainer_core.functions.array.permutate import permutate
from chainer_core.functions.array.split_axis import split_axis
from chainer_core.functions.connection.n_step_rnn import (
    _parse_kwargs, n_step_birnn, n_step_rnn)
from chainer_core.link import ChainList, Link
from chainer_core.links._checks import check_size
from chainer_core.variable import Parameter, Variable


def argsort_list_descent(lst):
    """The order that sorts ``lst`` by decreasing length (ties keep their
    order), as an int32 array."""
    return numpy.argsort([-len(x) for x in lst],
                         kind='stable').astype(numpy.int32)


def permutate_list(lst, indices, inv):
    """``lst`` reordered: ``ret[i] = lst[indices[i]]``, or with ``inv`` the
    inverse, ``ret[indices[i]] = lst[i]``."""
    ret = [None] * len(lst)
    for i, ind in enumerate(indices):
        if inv:
            ret[ind] = lst[i]
        else:
            ret[i] = lst[ind]
    return ret


class _Layout:
    """Where the rows of the sequences go in the time-major batches.

    ``order`` sorts the sequences by decreasing length; ``rows`` lists, time
    step after time step, the row of the concatenated sequences (in their
    given order) that each time-major row takes.
    """

    def __init__(self, lengths):
        lengths = numpy.asarray(lengths, dtype=numpy.intp)
        self.lengths = lengths
        self.order = numpy.argsort(-lengths, kind='stable').astype(
            numpy.int32)
        starts = numpy.concatenate(([0], numpy.cumsum(lengths)[:-1]))
        sorted_lengths = lengths[self.order]
        sorted_starts = starts[self.order]
        steps = int(sorted_lengths[0]) if len(lengths) else 0
        self.batches = [int((sorted_lengths > t).sum())
                        for t in range(steps)]
        self.rows = numpy.concatenate(
            [sorted_starts[:b] + t for t, b in enumerate(self.batches)] +
            [numpy.zeros(0, numpy.intp)]).astype(numpy.int32)
        self.identity = bool((self.order == numpy.arange(len(lengths))).all())
        # Sequences of one step each, or a single sequence, need no
        # reordering of their rows.
        self.keep_rows = bool((self.rows == numpy.arange(len(self.rows)))
                              .all())

    def to_time_major(self, xs, xp):
        """The batches ``xs_t`` of ``(B_t, ...)`` rows."""
        joined = concat(xs, axis=0) if len(xs) > 1 else xs[0]
        if not self.keep_rows:
            joined = permutate(joined, xp.asarray(self.rows), axis=0)
        return _split(joined, self.batches)

    def to_sequences(self, ys, xp):
        """The inverse of :meth:`to_time_major` for the outputs ``ys``."""
        joined = concat(ys, axis=0) if len(ys) > 1 else ys[0]
        if not self.keep_rows:
            joined = permutate(joined, xp.asarray(self.rows), axis=0,
                               inv=True)
        return list(_split(joined, self.lengths))


def _split(x, sizes):
    if len(sizes) == 1:
        return [x]
    return list(split_axis(x, numpy.cumsum(sizes)[:-1].tolist(), axis=0))


def _check_init_kwargs(name, kwargs):
    for key, why in (('use_cudnn', "use chainer.using_config('use_cudnn', "
                                   "...)"),
                     ('use_bi_direction', 'use the Bi link classes'),
                     ('activation', 'use the ReLU or Tanh link classes')):
        if key in kwargs:
            raise ValueError('{}: the {} argument is not supported anymore; '
                             '{}'.format(name, key, why))
    if kwargs:
        raise TypeError('{}() got unexpected keyword argument(s) {}'.format(
            name, ', '.join(repr(k) for k in sorted(kwargs))))


class NStepRNNBase(ChainList):
    """Base of the stacked RNN links over lists of sequences.

    The parameters of layer ``l`` and direction ``d`` live in child
    ``l * D + d`` (``D`` directions) as ``w0``, ``w1``... and ``b0``,
    ``b1``... (Chainer's names, so saved files match): the first half of
    the weights act on the layer input, ``(out_size, in_size)`` in the first
    layer and ``(out_size, D * out_size)`` above it, the second half on the
    hidden state, ``(out_size, out_size)``; biases are ``(out_size,)``.

    Args:
        n_layers (int): the number of layers.
        in_size (int): the size of the input vectors.
        out_size (int): the number of units.
        dropout (float): dropout ratio between layers (in training mode).
        initialW: initializer of the weights (keyword; None: LeCun
            normal).
        initial_bias: initializer (or scalar) of the biases (keyword; None:
            zero).

    Subclasses set ``n_weights``, ``use_bi_direction``, :meth:`rnn` and
    :attr:`n_cells`.
    """

    n_weights = 0
    use_bi_direction = False

    def __init__(self, n_layers, in_size, out_size, dropout, *,
                 initialW=None, initial_bias=None, **kwargs):
        name = type(self).__name__
        _check_init_kwargs(name, kwargs)
        n_layers = check_size(name, 'n_layers', n_layers, allow_zero=False)
        in_size = check_size(name, 'in_size', in_size)
        out_size = check_size(name, 'out_size', out_size)
        direction = 2 if self.use_bi_direction else 1
        w_init = initializers._get_initializer(initialW)
        b_init = initializers._get_initializer(
            0 if initial_bias is None else initial_bias)
        half = self.n_weights // 2
        sets = []
        for layer in range(n_layers):
            for _ in range(direction):
                params = Link()
                with params.init_scope():
                    for j in range(self.n_weights):
                        if j >= half:
                            cols = out_size
                        elif layer > 0:
                            cols = out_size * direction
                        else:
                            cols = in_size
                        setattr(params, 'w{}'.format(j),
                                Parameter(w_init, (out_size, cols)))
                        setattr(params, 'b{}'.format(j),
                                Parameter(b_init, (out_size,)))
                sets.append(params)
        super().__init__(*sets)
        self.n_layers = n_layers
        self.dropout = dropout
        self.out_size = out_size
        self.direction = direction

    @property
    def ws(self):
        """``ws[l * D + d]``: the weights ``[w0, w1, ...]`` of layer ``l``,
        direction ``d``."""
        return [[getattr(p, 'w{}'.format(j)) for j in range(self.n_weights)]
                for p in self]

    @property
    def bs(self):
        """``bs[l * D + d]``: the biases ``[b0, b1, ...]``."""
        return [[getattr(p, 'b{}'.format(j)) for j in range(self.n_weights)]
                for p in self]

    @property
    def n_cells(self):
        """The number of state arrays (1, or 2 for LSTMs)."""
        raise NotImplementedError

    def rnn(self, *args):
        """The n_step function of this link."""
        raise NotImplementedError

    def init_hx(self, xs):
        """A zero state ``(n_layers * D, len(xs), out_size)`` of the dtype
        of ``xs[0]`` on this link's device."""
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        with using_device(self.device):
            return Variable(self.xp.zeros(shape, dtype=xs[0].dtype))

    def _call(self, hs, xs, **kwargs):
        _parse_kwargs(type(self).__name__, kwargs)
        if not isinstance(xs, (list, tuple)) or not xs:
            raise ValueError('{}: xs must be a non-empty list of sequences '
                             '(arrays of shape (L_i, in_size)), got {}'
                             .format(type(self).__name__,
                                     type(xs).__name__ if not
                                     isinstance(xs, (list, tuple))
                                     else 'an empty list'))
        layout = _Layout([len(x) for x in xs])
        xp = self.xp
        order = None if layout.identity else xp.asarray(layout.order)
        states = []
        for h in hs:
            if h is None:
                h = self.init_hx(xs)
            elif order is not None:
                h = permutate(h, order, axis=1)
            states.append(h)
        if layout.batches:
            trans_x = layout.to_time_major(xs, xp)
        else:
            trans_x = []
        result = self.rnn(self.n_layers, self.dropout, *states, self.ws,
                          self.bs, trans_x)
        hys = result[:-1]
        if order is not None:
            hys = [permutate(h, order, axis=1, inv=True) for h in hys]
        if layout.batches:
            ys = layout.to_sequences(result[-1], xp)
        else:
            with using_device(self.device):
                ys = [Variable(xp.zeros(
                    (0, self.out_size * self.direction),
                    dtype=states[0].dtype)) for _ in xs]
        return list(hys), ys


class _NStepRNNCall(NStepRNNBase):
    """forward(hx, xs) of the Elman RNN links."""

    n_weights = 2
    activation = 'tanh'

    @property
    def n_cells(self):
        return 1

    def rnn(self, *args):
        func = n_step_birnn if self.use_bi_direction else n_step_rnn
        return func(*args, activation=self.activation)

    def forward(self, hx, xs, **kwargs):
        """Run the sequences ``xs``.

        Args:
            hx (Variable, array or None): initial hidden states
                ``(n_layers * D, len(xs), out_size)``; None is zeros.
            xs (list of Variable or array): the sequences, ``xs[i]`` of
                shape ``(L_i, in_size)``, in any order.

        Returns:
            tuple: ``(hy, ys)``: the final hidden states, of the shape of
            ``hx``, and the list of the outputs of the last layer, ``ys[i]``
            of shape ``(L_i, D * out_size)``.
        """
        (hy,), ys = self._call([hx], xs, **kwargs)
        return hy, ys


class NStepRNNTanh(_NStepRNNCall):
    """Stacked uni-directional Elman RNN with tanh over a list of
    sequences (see :func:`~chainer_core.functions.n_step_rnn`).

    Args: as :class:`NStepRNNBase`.
    """

    use_bi_direction = False
    activation = 'tanh'


class NStepRNNReLU(_NStepRNNCall):
    """Stacked uni-directional Elman RNN with relu over a list of
    sequences (see :func:`~chainer_core.functions.n_step_rnn`).

    Args: as :class:`NStepRNNBase`.
    """

    use_bi_direction = False
    activation = 'relu'


class NStepBiRNNTanh(_NStepRNNCall):
    """Stacked bi-directional Elman RNN with tanh over a list of
    sequences (see :func:`~chainer_core.functions.n_step_birnn`).

    Args: as :class:`NStepRNNBase`.
    """

    use_bi_direction = True
    activation = 'tanh'


class NStepBiRNNReLU(_NStepRNNCall):
    """Stacked bi-directional Elman RNN with relu over a list of
    sequences (see :func:`~chainer_core.functions.n_step_birnn`).

    Args: as :class:`NStepRNNBase`.
    """

    use_bi_direction = True
    activation = 'relu'
