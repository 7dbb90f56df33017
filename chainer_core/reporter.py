"""Reporting of observed values (losses, accuracies, ...) during training."""
import collections
import contextlib
import json
import threading
import warnings

import numpy

from chainer_core.configuration import config
from chainer_core.variable import Variable

_state = threading.local()


def _reporters():
    stack = getattr(_state, 'reporters', None)
    if stack is None:
        stack = _state.reporters = []
    return stack


class Reporter:
    """Collects reported values into the current observation dict.

    Observers (links, extensions) are registered under names; a value
    reported by an observer is stored as ``'<name>/<key>'``.
    """

    def __init__(self):
        self._observer_names = {}
        self.observation = {}

    def __enter__(self):
        _reporters().append(self)
        return self

    def __exit__(self, *exc):
        _reporters().pop()

    @contextlib.contextmanager
    def scope(self, observation):
        """Make ``observation`` the target dict, and this the current
        reporter, inside the ``with`` block."""
        old = self.observation
        self.observation = observation
        self.__enter__()
        try:
            yield
        finally:
            self.__exit__(None, None, None)
            self.observation = old

    def add_observer(self, name, observer):
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix, observers):
        """Register ``(name, observer)`` pairs with ``prefix`` prepended."""
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(self, values, observer=None):
        """Store ``values`` (a dict) in the current observation."""
        if not config.keep_graph_on_report:
            values = {k: _copy_variable(v) for k, v in values.items()}
        if observer is not None:
            name = self._observer_names.get(id(observer))
            if name is None:
                raise KeyError('the observer {!r} is not registered with '
                               'this reporter'.format(observer))
            values = {'{}/{}'.format(name, k): v for k, v in values.items()}
        self.observation.update(values)


def _copy_variable(value):
    if isinstance(value, Variable):
        return Variable(value.array, requires_grad=False)
    return value


def get_current_reporter():
    """The innermost active reporter (raises if none)."""
    stack = _reporters()
    if not stack:
        raise RuntimeError('no reporter is active')
    return stack[-1]


def report(values, observer=None):
    """Report ``values`` to the current reporter (a no-op without one)."""
    stack = _reporters()
    if stack:
        stack[-1].report(values, observer)


@contextlib.contextmanager
def report_scope(observation):
    """Collect reports into ``observation`` inside the ``with`` block."""
    with get_current_reporter().scope(observation):
        yield


def _to_float(value):
    if isinstance(value, Variable):
        value = value.array
    if hasattr(value, 'shape') and not isinstance(value, numpy.ndarray):
        from chainer_core._runtime.host import host
        value = host.parse_spec('@numpy').send(value)
    return value


def _is_numeric_scalar(value):
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float, numpy.number)):
        return True
    return getattr(value, 'ndim', None) == 0 and \
        getattr(value, 'dtype', numpy.dtype(object)).kind in 'iuf'


class Summary:
    """Online mean and standard deviation of scalars."""

    def __init__(self):
        self._x = 0.0
        self._x2 = 0.0
        self._n = 0

    def add(self, value, weight=1):
        """Add ``value`` (scalar, 0-dim array or Variable) with a weight."""
        value = _to_float(value)
        weight = _to_float(weight)
        self._x += weight * value
        self._x2 += weight * value * value
        self._n += weight

    def compute_mean(self):
        return self._x / self._n

    def make_statistics(self):
        """``(mean, std)``."""
        mean = self._x / self._n
        var = self._x2 / self._n - mean * mean
        return mean, numpy.sqrt(numpy.maximum(var, 0))

    def serialize(self, serializer):
        try:
            self._x = serializer('_x', self._x)
            self._x2 = serializer('_x2', self._x2)
            self._n = serializer('_n', self._n)
        except KeyError:
            warnings.warn('the serialized Summary lacks its state; it is '
                          'reset')


class DictSummary:
    """A :class:`Summary` per key of reported dicts."""

    def __init__(self):
        self._summaries = collections.defaultdict(Summary)

    def add(self, d):
        """Add every scalar (or 0-dim/Variable) value of dict ``d``; a value
        may be a ``(value, weight)`` pair, whose weight must be a scalar."""
        for k, v in d.items():
            w = 1
            if isinstance(v, tuple):
                v, w = v
                w = _to_float(w)
                if not _is_numeric_scalar(w):
                    raise ValueError('DictSummary: the weight of {!r} is not '
                                     'a scalar: {!r}'.format(k, w))
            value = _to_float(v)
            # Only numbers are averaged: arrays of other shapes, strings
            # and other objects in an observation are skipped.
            if _is_numeric_scalar(value):
                self._summaries[k].add(value, weight=w)

    def compute_mean(self):
        return {k: s.compute_mean() for k, s in self._summaries.items()}

    def make_statistics(self):
        stats = {}
        for k, s in self._summaries.items():
            mean, std = s.make_statistics()
            stats[k] = mean
            stats[k + '.std'] = std
        return stats

    def serialize(self, serializer):
        from chainer_core.serializer import Deserializer
        if isinstance(serializer, Deserializer):
            names = json.loads(str(serializer('_names', '[]')))
            self._summaries.clear()
            for i, name in enumerate(names):
                self._summaries[name].serialize(
                    serializer['_summaries'][str(i)])
        else:
            names = list(self._summaries)
            serializer('_names', json.dumps(names))
            for i, name in enumerate(names):
                self._summaries[name].serialize(
                    serializer['_summaries'][str(i)])
