"""Boltzmann (softmax) exploration over discrete action values."""
import numpy

import chainer_core

from chainer_rl import explorer


class Boltzmann(explorer.Explorer):
    """Sample action ``a`` with probability ``softmax(Q / T)[a]``.

    Args:
        T (float): temperature (> 0); high values explore more.
    """

    def __init__(self, T=1.0):
        try:
            T = float(T)
        except (TypeError, ValueError):
            raise TypeError('Boltzmann: T must be a positive number, got {}'
                            .format(type(T).__name__))
        if not T > 0:
            raise ValueError('Boltzmann: T must be positive, got {}'
                             .format(T))
        self.T = T

    def select_action(self, t, greedy_action_func, action_value=None):
        """Sample from the softmax of ``action_value.q_values`` (one row)
        divided by ``T``, using NumPy's global generator."""
        if action_value is None:
            raise ValueError('Boltzmann.select_action: action_value is '
                             'required (an ActionValue with q_values)')
        q = getattr(action_value, 'q_values', action_value)
        if isinstance(q, chainer_core.Variable):
            q = q.array
        q = numpy.asarray(chainer_core.backend.get_device('@numpy').send(q),
                          dtype=numpy.float64)
        if q.ndim == 2 and q.shape[0] == 1:
            q = q[0]
        if q.ndim != 1:
            raise ValueError('Boltzmann.select_action: expected the values of'
                             ' one observation (shape (n,) or (1, n)), got '
                             'shape {}'.format(q.shape))
        logits = q / self.T
        p = numpy.exp(logits - logits.max())
        p /= p.sum()
        return int(numpy.random.choice(len(p), p=p))

    def __repr__(self):
        return 'Boltzmann(T={})'.format(self.T)
