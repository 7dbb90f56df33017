"""Links that carry a state from one call to the next (recurrent models).

An agent acting in a batch of environments keeps one recurrent state row per
environment; when an episode ends in one environment only that row must go
back to the initial state. The functions here read, write and partially reset
the state of any link: a :class:`Recurrent` (through its own
``get_state``/``set_state``), one of chainer_core's stateful links
(``L.LSTM``, ``L.StatefulGRU``, ... : their ``c``/``h``), or a chain holding
such links (a dict of its children's states).

The initial state of chainer_core's stateful links is "no state" (None),
which behaves exactly like an all-zero state, so resetting some rows of a
batch sets them to zero.
"""
import contextlib

import numpy

import chainer_core


__all__ = ['Recurrent', 'RecurrentChainMixin', 'state_kept', 'state_reset',
           'is_recurrent', 'get_recurrent_state', 'set_recurrent_state',
           'reset_recurrent_state', 'mask_recurrent_state',
           'unchain_backward']


class Recurrent(object):
    """Interface of a link whose output depends on a state it keeps.

    Subclasses implement ``reset_state``, ``get_state`` and ``set_state``;
    the stack operations (``push_state``, ``pop_state``,
    ``push_and_keep_state``) are built on them, so that evaluation can run
    without disturbing the state used by training.
    """

    def reset_state(self):
        """Go back to the initial state."""
        raise NotImplementedError(
            '{}.reset_state is not implemented'.format(type(self).__name__))

    def get_state(self):
        """Return the current state (any structure of arrays and None)."""
        raise NotImplementedError(
            '{}.get_state is not implemented'.format(type(self).__name__))

    def set_state(self, state):
        """Replace the current state by one returned by ``get_state``."""
        raise NotImplementedError(
            '{}.set_state is not implemented'.format(type(self).__name__))

    def unchain_backward(self):
        """Cut the computational graph behind the current state (truncated
        backpropagation through time)."""
        unchain_backward(self.get_state())

    def _state_stack(self):
        stack = self.__dict__.get('_recurrent_state_stack')
        if stack is None:
            stack = []
            # object.__setattr__ so Link.__setattr__ does not inspect it.
            object.__setattr__(self, '_recurrent_state_stack', stack)
        return stack

    def push_state(self):
        """Save the current state on a stack and reset it."""
        self._state_stack().append(self.get_state())
        self.reset_state()

    def push_and_keep_state(self):
        """Save the current state on a stack and keep using it."""
        self._state_stack().append(self.get_state())

    def pop_state(self):
        """Restore the state saved by the last ``push_state`` or
        ``push_and_keep_state``."""
        stack = self._state_stack()
        if not stack:
            raise RuntimeError('{}.pop_state: no state was pushed'
                               .format(type(self).__name__))
        self.set_state(stack.pop())


class RecurrentChainMixin(Recurrent):
    """Mixin for a Chain/ChainList whose children hold recurrent states.

    The state is a dict from child name to that child's state, covering the
    children that are :class:`Recurrent` or chainer_core stateful links (at
    any depth).
    """

    def reset_state(self):
        """Reset every recurrent child."""
        for child in _children(self):
            if is_recurrent(child):
                reset_recurrent_state(child)

    def get_state(self):
        """Dict of the recurrent children's states, by child name."""
        return _children_state(self)

    def set_state(self, state):
        """Set the recurrent children's states from ``get_state``'s dict."""
        _set_children_state(self, state, 'RecurrentChainMixin.set_state')


def _children(link):
    if isinstance(link, chainer_core.Link) and hasattr(link, 'children'):
        return list(link.children())
    return []


def _is_stateful_core_link(link):
    return (isinstance(link, chainer_core.Link)
            and not isinstance(link, Recurrent)
            and hasattr(link, 'reset_state') and hasattr(link, 'h'))


def is_recurrent(link):
    """True if ``link`` (or one of its descendants) keeps a recurrent state."""
    if isinstance(link, Recurrent) or _is_stateful_core_link(link):
        return True
    return any(is_recurrent(child) for child in _children(link))


def _children_state(link):
    return {child.name: get_recurrent_state(child)
            for child in _children(link) if is_recurrent(child)}


def _set_children_state(link, state, where):
    if state is None:
        state = {}
    if not isinstance(state, dict):
        raise TypeError('{}: the state of {} must be a dict by child name, '
                        'got {}'.format(where, type(link).__name__,
                                        type(state).__name__))
    for child in _children(link):
        if is_recurrent(child):
            set_recurrent_state(child, state.get(child.name))


def get_recurrent_state(link):
    """Return the recurrent state of ``link`` (None if it keeps none).

    * :class:`Recurrent`: ``link.get_state()``;
    * chainer_core links with ``c`` and ``h`` (LSTMs): ``(c, h)``;
      with ``h`` only (GRU, MGU): ``h``;
    * other links: dict from child name to child state.
    """
    if isinstance(link, Recurrent):
        return link.get_state()
    if _is_stateful_core_link(link):
        if hasattr(link, 'c'):
            return (link.c, link.h)
        return link.h
    if isinstance(link, chainer_core.Link):
        return _children_state(link)
    return None


def set_recurrent_state(link, state):
    """Give ``link`` the state ``state`` (as from ``get_recurrent_state``).

    A None state (or a None leaf of a stateful core link) resets it.
    """
    if isinstance(link, Recurrent):
        link.set_state(state)
        return
    if _is_stateful_core_link(link):
        if hasattr(link, 'c'):
            if state is None:
                c = h = None
            else:
                try:
                    c, h = state
                except (TypeError, ValueError):
                    raise TypeError(
                        'set_recurrent_state: the state of {} must be a pair '
                        '(c, h), got {}'.format(type(link).__name__,
                                                type(state).__name__))
            if c is None and h is None:
                link.reset_state()
            else:
                link.c = _as_variable(c)
                link.h = _as_variable(h)
        else:
            if state is None:
                link.reset_state()
            else:
                link.h = _as_variable(state)
        return
    if isinstance(link, chainer_core.Link):
        _set_children_state(link, state, 'set_recurrent_state')


def _as_variable(x):
    if x is None or isinstance(x, chainer_core.Variable):
        return x
    return chainer_core.Variable(x)


def reset_recurrent_state(link, mask=None):
    """Reset the recurrent state of ``link``.

    Args:
        link: any link (a no-op if it keeps no state).
        mask: None to reset the whole state, or one bool per batch row
            (per environment): rows where it is True go back to the initial
            (zero) state, the others keep theirs.
    """
    if mask is None:
        if isinstance(link, Recurrent) or _is_stateful_core_link(link):
            link.reset_state()
        else:
            for child in _children(link):
                reset_recurrent_state(child)
        return
    mask = numpy.asarray(mask, dtype=bool)
    if mask.ndim != 1:
        raise ValueError('reset_recurrent_state: mask must be one bool per '
                         'env (1-D), got shape {}'.format(mask.shape))
    if not mask.any():
        return
    state = get_recurrent_state(link)
    set_recurrent_state(link, mask_recurrent_state(state, mask))


def mask_recurrent_state(state, mask):
    """Return ``state`` with the batch rows selected by ``mask`` zeroed.

    Args:
        state: None, an array or Variable whose first axis is the batch, or
            a tuple/list/dict of those.
        mask: one bool per batch row; True rows are reset.

    Returns:
        A state of the same structure; None leaves stay None (the initial
        state already).
    """
    mask = numpy.asarray(mask, dtype=bool)
    if state is None:
        return None
    if isinstance(state, dict):
        return {k: mask_recurrent_state(v, mask) for k, v in state.items()}
    if isinstance(state, (tuple, list)):
        return type(state)(mask_recurrent_state(v, mask) for v in state)
    array = state.array if isinstance(state, chainer_core.Variable) else state
    shape = getattr(array, 'shape', None)
    if shape is None or len(shape) == 0 or shape[0] != len(mask):
        raise ValueError(
            'mask_recurrent_state: each state array needs the batch on its '
            'first axis with {} rows (one per mask entry), got shape {}'
            .format(len(mask), shape))
    keep = (~mask).astype(array.dtype).reshape((len(mask),)
                                               + (1,) * (len(shape) - 1))
    keep = chainer_core.backend.get_device_from_array(array).send(keep)
    return state * keep


def unchain_backward(state):
    """Cut the graph behind every Variable of a state structure."""
    if state is None:
        return
    if isinstance(state, dict):
        for v in state.values():
            unchain_backward(v)
    elif isinstance(state, (tuple, list)):
        for v in state:
            unchain_backward(v)
    elif isinstance(state, chainer_core.Variable):
        state.unchain_backward()


@contextlib.contextmanager
def state_kept(link):
    """Within the block ``link`` may change its state; it is restored on
    exit (e.g. to evaluate a recurrent model mid-episode)."""
    saved = get_recurrent_state(link) if is_recurrent(link) else None
    try:
        yield
    finally:
        if is_recurrent(link):
            set_recurrent_state(link, saved)


@contextlib.contextmanager
def state_reset(link):
    """Within the block ``link`` starts from its initial state; its previous
    state is restored on exit."""
    saved = get_recurrent_state(link) if is_recurrent(link) else None
    if is_recurrent(link):
        reset_recurrent_state(link)
    try:
        yield
    finally:
        if is_recurrent(link):
            set_recurrent_state(link, saved)
