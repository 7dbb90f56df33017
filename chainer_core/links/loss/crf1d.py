"""CRF1d: the linear-chain conditional random field with its transition
costs."""
import numpy

from chainer_core import initializers
from chainer_core.functions.array.pad_sequence import pad_sequence
from chainer_core.functions.array.permutate import permutate
from chainer_core.functions.loss.crf1d import argmax_crf1d, crf1d
from chainer_core.link import Link
from chainer_core.variable import Parameter, as_array


def _descending_order(xs):
    """Indices sorting the sequences ``xs`` by decreasing length (stable)."""
    return numpy.argsort([-len(x) for x in xs], kind='stable').astype(
        numpy.int32)


def _step_sizes(lengths):
    """How many (sorted) sequences are longer than each step."""
    return [sum(1 for n in lengths if n > t) for t in range(lengths[0])]


def _time_major_variables(xs):
    """Batch-major sequences sorted by decreasing length -> one Variable
    per step, holding the sequences that reach it."""
    padded = pad_sequence(xs)
    sizes = _step_sizes([len(x) for x in xs])
    return [padded[:n, t] for t, n in enumerate(sizes)]


def _time_major_arrays(ys):
    ys = [as_array(y) for y in ys]
    sizes = _step_sizes([len(y) for y in ys])
    return [numpy.stack([y[t] for y in ys[:n]]) for t, n in enumerate(sizes)]


class CRF1d(Link):
    """Linear-chain conditional random field loss layer (see
    :func:`~chainer_core.functions.crf1d`).

    By default the inputs are time-major as the function takes them:
    ``xs[t]`` holds step ``t`` of the sequences that reach it, sorted by
    decreasing length. With ``transpose=True`` they are batch-major:
    ``xs[b]`` is sequence ``b`` of shape ``(length_b, n_label)``, in any
    order.

    Args:
        n_label (int): the number of labels.
        initial_cost: initializer of the transition costs (default:
            zeros).

    Attributes:
        cost (Parameter): transition costs ``(n_label, n_label)``.
    """

    def __init__(self, n_label, initial_cost=None):
        super().__init__()
        if initial_cost is None:
            initial_cost = initializers.Zero()
        with self.init_scope():
            self.cost = Parameter(initializers._get_initializer(initial_cost),
                                  (n_label, n_label))

    def forward(self, xs, ys, reduce='mean', transpose=False):
        """The negative log-likelihood of the label sequences ``ys`` given
        the per-step label costs ``xs`` (``reduce`` as in
        :func:`~chainer_core.functions.crf1d`; with ``'no'`` and
        ``transpose`` the losses are in the order of ``xs``)."""
        if not transpose:
            return crf1d(self.cost, xs, ys, reduce)
        order = _descending_order(xs)
        loss = crf1d(self.cost, _time_major_variables([xs[i] for i in order]),
                     _time_major_arrays([ys[i] for i in order]), reduce)
        if reduce == 'no':
            loss = permutate(loss, order, inv=True)
        return loss

    def argmax(self, xs, transpose=False):
        """The best label sequences: ``(score, path)`` as
        :func:`~chainer_core.functions.argmax_crf1d` returns them, or with
        ``transpose`` the scores ``(B,)`` and one label array per sequence,
        both in the order of ``xs``."""
        if not transpose:
            return argmax_crf1d(self.cost, xs)
        order = _descending_order(xs)
        lengths = [len(xs[i]) for i in order]
        score, path = argmax_crf1d(
            self.cost, _time_major_variables([xs[i] for i in order]))
        sorted_paths = [numpy.array([as_array(path[t])[b]
                                     for t in range(n)], dtype=numpy.int32)
                        for b, n in enumerate(lengths)]
        paths = [None] * len(order)
        for b, i in enumerate(order):
            paths[i] = sorted_paths[b]
        return permutate(score, order, inv=True), paths
