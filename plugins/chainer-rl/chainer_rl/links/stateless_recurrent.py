"""Recurrent links whose state is passed in and returned instead of kept.

An agent acting in several environments, or replaying stored episodes,
needs recurrent states it can slice, reset per row, store and batch again.
The links here take the state as an argument: ``n_step_forward(sequences,
recurrent_state, output_mode)`` runs whole sequences, calling the link
runs one step for a batch. chainer_core's ``NStepLSTM``, ``NStepGRU``,
``NStepRNNReLU`` and ``NStepRNNTanh`` count as recurrent links here too;
their states have shape ``(n_layers, batch_size, units)`` (a pair ``(h,
c)`` for the LSTM), so the batch is axis 1.
"""
import numpy

import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import _arrays
from chainer_rl.links.sequence import SequentialBase

_OUTPUT_MODES = ('split', 'concat')


def split_one_step_batch_input(xs):
    """Split a batch of one step into sequences of length one.

    Args:
        xs (~chainer_core.Variable, array or tuple): batch on the first
            axis, or a tuple of such (several inputs).

    Returns:
        list: one entry per batch row: a ``(1, ...)`` Variable, or a tuple
        of them.
    """
    if isinstance(xs, tuple):
        return list(zip(*[split_one_step_batch_input(x) for x in xs]))
    return list(F.split_axis(xs, len(xs), axis=0))


def _sequence_length(sequence):
    return len(sequence[0]) if isinstance(sequence, tuple) else len(sequence)


def split_batched_sequences(xs, sections):
    """Split concatenated sequences at ``sections`` (start indices of all
    but the first sequence); tuples are split element-wise."""
    if isinstance(xs, tuple):
        return list(zip(*[split_batched_sequences(x, sections) for x in xs]))
    return list(F.split_axis(xs, sections, axis=0))


def concatenate_sequences(sequences):
    """Concatenate sequences along time (arrays or Variables, or tuples of
    them element-wise) into one batch."""
    if isinstance(sequences[0], tuple):
        return tuple(F.concat([seq[i] for seq in sequences], axis=0)
                     for i in range(len(sequences[0])))
    return F.concat(list(sequences), axis=0)


def _check_output_mode(owner, output_mode):
    return _arrays.check_choice(owner, 'output_mode', output_mode,
                                _OUTPUT_MODES)


class StatelessRecurrent(object):
    """Interface of a recurrent link whose state is passed explicitly.

    Implementations give ``n_step_forward`` and the state manipulations
    ``mask_recurrent_state_at``, ``get_recurrent_state_at`` and
    ``concatenate_recurrent_states``; calling the link (``forward``) then
    runs one step. The containers below implement it for any mix of
    recurrent and plain layers.
    """

    def n_step_forward(self, x, recurrent_state, output_mode):
        """Run whole sequences.

        Args:
            x (list): input sequences, each a Variable or array with time on
                its first axis, or a tuple of such.
            recurrent_state: batched state, or None for the initial one.
            output_mode (str): ``'concat'`` returns all outputs as one batch
                (time steps of sequence 0, then of sequence 1, ...: handy
                for losses); ``'split'`` returns a list of output
                sequences.

        Returns:
            tuple: the outputs and the new batched recurrent state.
        """
        raise NotImplementedError('{}.n_step_forward is not implemented'
                                  .format(type(self).__name__))

    def forward(self, x, recurrent_state):
        """One step for a batch: ``x`` (batch on the first axis, or a tuple
        of such) and the batched state -> (batched output, new state)."""
        return self.n_step_forward(split_one_step_batch_input(x),
                                   recurrent_state, output_mode='concat')

    def mask_recurrent_state_at(self, recurrent_state, indices):
        """The state with the batch rows ``indices`` reset to the initial
        (zero) state, e.g. where an episode ended."""
        raise NotImplementedError(
            '{}.mask_recurrent_state_at is not implemented'.format(
                type(self).__name__))

    def get_recurrent_state_at(self, recurrent_state, indices,
                               unwrap_variable):
        """The state of the batch rows ``indices`` (an int drops the batch
        axis), as arrays if ``unwrap_variable``: what a replay buffer
        stores."""
        raise NotImplementedError(
            '{}.get_recurrent_state_at is not implemented'.format(
                type(self).__name__))

    def concatenate_recurrent_states(self, split_recurrent_states):
        """Batch states taken with ``get_recurrent_state_at`` (None stands
        for the initial state)."""
        raise NotImplementedError(
            '{}.concatenate_recurrent_states is not implemented'.format(
                type(self).__name__))


_LSTM_TYPES = (L.NStepLSTM,)
_SINGLE_STATE_TYPES = (L.NStepGRU, L.NStepRNNReLU, L.NStepRNNTanh)


def is_recurrent_link(layer):
    """Whether ``layer`` is a recurrent link handled here: a
    StatelessRecurrent or one of chainer_core's uni-directional NStep
    RNN links."""
    return isinstance(layer, _LSTM_TYPES + _SINGLE_STATE_TYPES
                      + (StatelessRecurrent,))


def _not_recurrent(owner, link):
    return ValueError('{}: {} is not a recurrent link (a StatelessRecurrent '
                      'or an NStep LSTM/GRU/RNN)'.format(
                          owner, type(link).__name__))


def call_recurrent_link(link, sequences, recurrent_state, output_mode):
    """Run a recurrent link over ``sequences`` with the StatelessRecurrent
    calling convention, whatever its kind.

    Returns:
        tuple: outputs (per ``output_mode``) and the new state.
    """
    owner = 'call_recurrent_link'
    _check_output_mode(owner, output_mode)
    if not isinstance(sequences, list):
        raise TypeError('{}: sequences must be a list, got {}'.format(
            owner, type(sequences).__name__))
    if isinstance(link, _LSTM_TYPES):
        h, c = (None, None) if recurrent_state is None else recurrent_state
        h, c, ys = link(h, c, sequences)
        state = (h, c)
    elif isinstance(link, _SINGLE_STATE_TYPES):
        h, ys = link(recurrent_state, sequences)
        state = h
    elif isinstance(link, StatelessRecurrent):
        return link.n_step_forward(sequences, recurrent_state,
                                   output_mode=output_mode)
    else:
        raise _not_recurrent(owner, link)
    if output_mode == 'concat':
        ys = concatenate_sequences(ys)
    else:
        ys = list(ys)
    return ys, state


def _mask_rows(h, indices):
    array = _arrays.unwrap(h)
    keep = numpy.ones(array.shape, dtype=array.dtype)
    keep[:, indices] = 0
    return h * _arrays.like(keep, array)


def mask_recurrent_state_at(link, recurrent_state, indices):
    """``recurrent_state`` of ``link`` with the batch rows ``indices``
    zeroed (the initial state of the NStep links)."""
    if recurrent_state is None:
        return None
    if isinstance(link, _LSTM_TYPES):
        h, c = recurrent_state
        return (_mask_rows(h, indices), _mask_rows(c, indices))
    if isinstance(link, _SINGLE_STATE_TYPES):
        return _mask_rows(recurrent_state, indices)
    if isinstance(link, StatelessRecurrent):
        return link.mask_recurrent_state_at(recurrent_state, indices)
    raise _not_recurrent('mask_recurrent_state_at', link)


def _rows(h, indices, unwrap_variable):
    if unwrap_variable:
        h = _arrays.unwrap(h)
    return h[:, indices]


def get_recurrent_state_at(link, recurrent_state, indices, unwrap_variable):
    """The rows ``indices`` of ``recurrent_state`` of ``link``."""
    if recurrent_state is None:
        return None
    if isinstance(link, _LSTM_TYPES):
        h, c = recurrent_state
        return (_rows(h, indices, unwrap_variable),
                _rows(c, indices, unwrap_variable))
    if isinstance(link, _SINGLE_STATE_TYPES):
        return _rows(recurrent_state, indices, unwrap_variable)
    if isinstance(link, StatelessRecurrent):
        return link.get_recurrent_state_at(recurrent_state, indices,
                                           unwrap_variable)
    raise _not_recurrent('get_recurrent_state_at', link)


def _stack_rows(link, states):
    """Concatenate NStep states along the batch axis; a None entry is one
    row of zeros and a 2-D entry (one row taken by an int) gets its batch
    axis back."""
    present = [s for s in states if s is not None]
    dtype = present[0].dtype if present else numpy.float32
    parts = []
    for s in states:
        if s is None:
            zeros = numpy.zeros((link.n_layers, 1, link.out_size), dtype)
            parts.append(link.device.send(zeros))
        elif s.ndim == 2:
            parts.append(F.expand_dims(s, 1))
        else:
            parts.append(s)
    return F.concat(parts, axis=1)


def concatenate_recurrent_states(link, split_recurrent_states):
    """One batched state of ``link`` from per-row states."""
    split_recurrent_states = list(split_recurrent_states)
    if isinstance(link, _LSTM_TYPES):
        hs = [None if s is None else s[0] for s in split_recurrent_states]
        cs = [None if s is None else s[1] for s in split_recurrent_states]
        return (_stack_rows(link, hs), _stack_rows(link, cs))
    if isinstance(link, _SINGLE_STATE_TYPES):
        return _stack_rows(link, split_recurrent_states)
    if isinstance(link, StatelessRecurrent):
        return link.concatenate_recurrent_states(split_recurrent_states)
    raise _not_recurrent('concatenate_recurrent_states', link)


def _check_states(owner, links, recurrent_states):
    if len(recurrent_states) != len(links):
        raise ValueError('{}: expected a state for each of the {} recurrent '
                         'links, got {}'.format(owner, len(links),
                                                len(recurrent_states)))


def mask_recurrent_states_of_links_at(links, recurrent_states, indices):
    """:func:`mask_recurrent_state_at` for each link and its state."""
    if recurrent_states is None:
        return None
    _check_states('mask_recurrent_states_of_links_at', links,
                  recurrent_states)
    return tuple(mask_recurrent_state_at(link, rs, indices)
                 for link, rs in zip(links, recurrent_states))


def get_recurrent_states_of_links_at(links, recurrent_states, indices,
                                     unwrap_variable):
    """:func:`get_recurrent_state_at` for each link and its state."""
    if recurrent_states is None:
        return (None,) * len(links)
    _check_states('get_recurrent_states_of_links_at', links,
                  recurrent_states)
    return tuple(get_recurrent_state_at(link, rs, indices, unwrap_variable)
                 for link, rs in zip(links, recurrent_states))


def concatenate_recurrent_states_of_links(links, split_recurrent_states):
    """:func:`concatenate_recurrent_states` for each link, from per-row
    tuples of the links' states (None for all-initial rows)."""
    rows = []
    for srs in split_recurrent_states:
        if srs is None:
            srs = (None,) * len(links)
        _check_states('concatenate_recurrent_states_of_links', links, srs)
        rows.append(srs)
    return tuple(concatenate_recurrent_states(link, [row[i] for row in rows])
                 for i, link in enumerate(links))


class StatelessRecurrentChainList(StatelessRecurrent, SequentialBase):
    """A list of links whose state is the tuple of the states of its
    recurrent children (``recurrent_children``), in order.

    Subclasses give ``n_step_forward``. It is a Sequential so that its
    links can be swapped (``to_factorized_noisy``).

    Args:
        *links: the child links.
    """

    def __init__(self, *links):
        super().__init__(*links)

    @property
    def recurrent_children(self):
        """The children that are recurrent links, in order."""
        return [child for child in self.children()
                if is_recurrent_link(child)]

    def mask_recurrent_state_at(self, recurrent_state, indices):
        """Mask the rows ``indices`` of every child's state."""
        return mask_recurrent_states_of_links_at(
            self.recurrent_children, recurrent_state, indices)

    def get_recurrent_state_at(self, recurrent_state, indices,
                               unwrap_variable):
        """The rows ``indices`` of every child's state."""
        return get_recurrent_states_of_links_at(
            self.recurrent_children, recurrent_state, indices,
            unwrap_variable)

    def concatenate_recurrent_states(self, split_recurrent_states):
        """Batch per-row states of the children."""
        return concatenate_recurrent_states_of_links(
            self.recurrent_children, split_recurrent_states)

    def _initial_states(self, owner, recurrent_state):
        n = len(self.recurrent_children)
        if recurrent_state is None:
            return [None] * n
        recurrent_state = list(recurrent_state)
        _check_states(owner, self.recurrent_children, recurrent_state)
        return recurrent_state


class StatelessRecurrentSequential(StatelessRecurrentChainList):
    """Layers applied in order, recurrent or not: the stateless recurrent
    counterpart of ``chainer_core.Sequential``.

    Recurrent layers run per sequence; plain layers (links or functions)
    run once on all time steps of all sequences concatenated. The state
    is the tuple of the recurrent layers' states.

    Args:
        *layers: callables.
    """

    def __init__(self, *layers):
        for i, layer in enumerate(layers):
            if not callable(layer):
                raise TypeError('StatelessRecurrentSequential: layer {} must '
                                'be callable, got {!r}'.format(i, layer))
        super().__init__(*layers)

    @property
    def layers(self):
        """All layers in order."""
        return list(self)

    def n_step_forward(self, sequences, recurrent_state, output_mode):
        """See :meth:`StatelessRecurrent.n_step_forward`."""
        owner = 'StatelessRecurrentSequential.n_step_forward'
        _check_output_mode(owner, output_mode)
        if not sequences:
            raise ValueError('{}: sequences must not be empty'.format(owner))
        states = self._initial_states(owner, recurrent_state)
        sections = numpy.cumsum(
            [_sequence_length(s) for s in sequences[:-1]], dtype=numpy.int64)
        new_states = []
        h = list(sequences)
        is_split = True
        for layer in self:
            if is_recurrent_link(layer):
                if not is_split:
                    h = split_batched_sequences(h, sections)
                    is_split = True
                h, rs = call_recurrent_link(layer, h, states[len(new_states)],
                                            output_mode='split')
                new_states.append(rs)
            else:
                if is_split:
                    h = concatenate_sequences(h)
                    is_split = False
                h = layer(*h) if isinstance(h, tuple) else layer(h)
        if output_mode == 'split' and not is_split:
            h = split_batched_sequences(h, sections)
        elif output_mode == 'concat' and is_split:
            h = concatenate_sequences(h)
        return h, tuple(new_states)


class StatelessRecurrentBranched(StatelessRecurrentChainList):
    """Every child gets the same input sequences; the output is the tuple
    of the children's outputs (per sequence, a tuple, in ``'split'``
    mode) and the state the tuple of the recurrent children's states.
    Plain (non-recurrent) children run on all time steps at once.

    Args:
        *links: the child links.
    """

    def n_step_forward(self, sequences, recurrent_state, output_mode):
        """See :meth:`StatelessRecurrent.n_step_forward`."""
        owner = 'StatelessRecurrentBranched.n_step_forward'
        _check_output_mode(owner, output_mode)
        states = self._initial_states(owner, recurrent_state)
        sections = numpy.cumsum(
            [_sequence_length(s) for s in sequences[:-1]],
            dtype=numpy.int64)
        outputs = []
        new_states = []
        concatenated = None
        for child in self:
            if is_recurrent_link(child):
                y, rs = call_recurrent_link(child, list(sequences),
                                            states[len(new_states)],
                                            output_mode)
                new_states.append(rs)
            else:
                if concatenated is None:
                    concatenated = concatenate_sequences(sequences)
                y = child(*concatenated) if isinstance(
                    concatenated, tuple) else child(concatenated)
                if output_mode == 'split':
                    y = split_batched_sequences(y, sections)
            outputs.append(y)
        if output_mode == 'concat':
            return tuple(outputs), tuple(new_states)
        return list(zip(*outputs)), tuple(new_states)
