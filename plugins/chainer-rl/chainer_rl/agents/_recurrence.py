"""How value-based agents drive a recurrent Q-function.

Two kinds of recurrent model are accepted:

* a ``StatelessRecurrent`` link (``chainer_rl.links``): the state is
  passed in and returned, ``model(x, state) -> (out, state)`` runs one
  step and ``model.n_step_forward(sequences, state, 'concat')`` whole
  sequences (ChainerRL 0.8's interface);
* a link keeping its state inside (``L.LSTM``, ``L.StatefulGRU``, a
  ``chainer_rl.recurrent.Recurrent`` chain ...): the agent sets the state
  before each call and reads it back afterwards, so it can still keep one
  state per environment and replay stored episodes.

Both are wrapped in an object with the same five operations, so the agents
never branch on the kind. Outputs of sequences are concatenated
episode-major (all steps of episode 0, then of episode 1, ...), the order
of ``n_step_forward(..., output_mode='concat')``.
"""
import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl import action_value as _av
from chainer_rl import recurrent as _recurrent


def _holds_state(link):
    # RecurrentChainMixin only says "my children may be recurrent" (many
    # plain Q-functions carry it): look for a link that keeps a state.
    if isinstance(link, _recurrent.Recurrent) and not isinstance(
            link, _recurrent.RecurrentChainMixin):
        return True
    if isinstance(link, chainer.Link) and not isinstance(
            link, _recurrent.Recurrent) and hasattr(link, 'reset_state') \
            and hasattr(link, 'h'):
        return True
    children = getattr(link, 'children', None)
    return callable(children) and any(_holds_state(c) for c in children())


def is_stateless_recurrent(model):
    """Whether ``model`` follows the StatelessRecurrent interface."""
    return callable(getattr(model, 'n_step_forward', None))


def is_recurrent_model(model):
    """Whether ``model`` is recurrent in either of the two ways."""
    return is_stateless_recurrent(model) or _holds_state(model)


def make_recurrence(model, owner):
    """The recurrence driver of ``model``; ValueError if it keeps no
    recurrent state at all."""
    if is_stateless_recurrent(model):
        return _Stateless()
    if _holds_state(model):
        return _Stateful()
    raise ValueError(
        '{}: recurrent=True needs a recurrent q_function (a '
        'StatelessRecurrent link such as chainer_rl.links.'
        'StatelessRecurrentSequential, or a link containing L.LSTM/'
        'L.StatefulGRU), got {}'.format(owner, type(model).__name__))


class _Stateless(object):

    def step(self, model, x, state):
        return model(x, state)

    def sequences(self, model, xs, state):
        out, _ = model.n_step_forward(xs, state, output_mode='concat')
        return out

    def state_at(self, model, state, i):
        if state is None:
            return None
        return model.get_recurrent_state_at(state, i, unwrap_variable=True)

    def mask(self, model, state, indices):
        if state is None or not indices:
            return state
        return model.mask_recurrent_state_at(state, indices)

    def concatenate(self, model, states):
        return model.concatenate_recurrent_states(states)


def _map_leaves(state, fn):
    if state is None:
        return None
    if isinstance(state, dict):
        return {k: _map_leaves(v, fn) for k, v in state.items()}
    if isinstance(state, (tuple, list)):
        return type(state)(_map_leaves(v, fn) for v in state)
    return fn(state)


def _stack_leaves(states, device):
    """Stack per-row states (host arrays or None, same structure) into one
    batched state on ``device``; None rows become zeros."""
    template = next((s for s in states if s is not None), None)
    if template is None:
        return None
    if isinstance(template, dict):
        return {k: _stack_leaves([None if s is None else s.get(k)
                                  for s in states], device)
                for k in template}
    if isinstance(template, (tuple, list)):
        return type(template)(
            _stack_leaves([None if s is None else s[j] for s in states],
                          device)
            for j in range(len(template)))
    rows = [numpy.zeros_like(template) if s is None else s for s in states]
    return chainer.Variable(device.send(numpy.stack(rows)),
                            requires_grad=False)


class _Stateful(object):

    def step(self, model, x, state):
        _recurrent.set_recurrent_state(model, state)
        out = model(x)
        return out, _recurrent.get_recurrent_state(model)

    def state_at(self, model, state, i):
        # Host copies: what a replay buffer can store and save.
        return _map_leaves(state, lambda v: _arrays.to_host(v)[i].copy())

    def mask(self, model, state, indices):
        if state is None or not indices:
            return state
        leaf = []
        _map_leaves(state, lambda v: leaf.append(v))
        if not leaf:
            return state
        mask = numpy.zeros(_arrays.unwrap(leaf[0]).shape[0], dtype=bool)
        mask[list(indices)] = True
        return _recurrent.mask_recurrent_state(state, mask)

    def concatenate(self, model, states):
        return _stack_leaves(list(states), model.device)

    def sequences(self, model, xs, state):
        """Run the episodes ``xs`` side by side, padding the short ones by
        repeating their last step (their outputs past the end are
        dropped), and gather the outputs episode-major."""
        if not isinstance(xs, (list, tuple)) or not xs:
            raise ValueError('recurrent update: expected a non-empty list '
                             'of per-episode observation batches')
        if any(isinstance(x, tuple) for x in xs):
            raise TypeError('recurrent update: tuple observations need a '
                            'StatelessRecurrent q_function')
        lengths = [len(x) for x in xs]
        n, longest = len(xs), max(lengths)
        offsets = numpy.concatenate([[0], numpy.cumsum(lengths)[:-1]])
        flat = F.concat([_arrays.unwrap(x) for x in xs], axis=0).array
        _recurrent.set_recurrent_state(model, state)
        outs = []
        for t in range(longest):
            idx = offsets + numpy.minimum(t, numpy.asarray(lengths) - 1)
            outs.append(model(flat[_arrays.like(idx.astype(numpy.int32),
                                                flat)]))
        # Row t * n + e of the time-major stack is step t of episode e.
        order = numpy.concatenate(
            [numpy.arange(l) * n + e for e, l in enumerate(lengths)])
        return _gather_outputs(outs, order.astype(numpy.int32), n)


def _gather_outputs(outs, order, n_rows):
    first = outs[0]
    if isinstance(first, _av.QuantileDiscreteActionValue):
        q = F.concat([o.quantiles for o in outs], axis=0)
        return _av.QuantileDiscreteActionValue(
            q[_arrays.like(order, q)], first.q_values_formatter)
    if isinstance(first, _av.DistributionalDiscreteActionValue):
        q = F.concat([o.q_dist for o in outs], axis=0)
        return _av.DistributionalDiscreteActionValue(
            q[_arrays.like(order, q)], first.z_values,
            first.q_values_formatter)
    if isinstance(first, _av.DiscreteActionValue):
        q = F.concat([o.q_values for o in outs], axis=0)
        return _av.DiscreteActionValue(q[_arrays.like(order, q)],
                                       first.q_values_formatter)
    if isinstance(first, chainer.Variable) or _arrays.is_array(first):
        q = F.concat(list(outs), axis=0)
        return q[_arrays.like(order, q)]
    if callable(first):
        # IQN-style output: taus -> action value. Spread the episode-major
        # taus back over the padded time-major rows, evaluate each step.
        def evaluate(taus):
            taus_host = _arrays.to_host(taus)
            padded = numpy.zeros((len(outs) * n_rows,) + taus_host.shape[1:],
                                 dtype=taus_host.dtype)
            padded[order] = taus_host
            ref = _arrays.unwrap(taus) if _arrays.is_array(
                _arrays.unwrap(taus)) else None
            values = []
            for t, fn in enumerate(outs):
                part = padded[t * n_rows:(t + 1) * n_rows]
                values.append(fn(part if ref is None
                                 else _arrays.like(part, ref)))
            return _gather_outputs(values, order, n_rows)
        return evaluate
    raise TypeError('recurrent update: cannot batch q_function outputs of '
                    'type {}'.format(type(first).__name__))
