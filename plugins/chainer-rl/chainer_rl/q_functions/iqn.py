"""The Q-function of Implicit Quantile Networks (Dabney et al., 2018):
returns at quantile fractions ``tau`` from the state embedding ``psi(x)``
multiplied by a cosine embedding ``phi(tau)``."""
import math

import numpy

import chainer_core as chainer
import chainer_core.functions as F
import chainer_core.links as L

from chainer_rl import _arrays
from chainer_rl.action_value import QuantileDiscreteActionValue
from chainer_rl.links.stateless_recurrent import StatelessRecurrentChainList


def cosine_basis_functions(x, n_basis_functions=64):
    """``cos(pi * i * x)`` for ``i = 1 ... n_basis_functions``.

    Args:
        x (array): fractions, any shape.
        n_basis_functions (int): size of the embedding.

    Returns:
        array of shape ``x.shape + (n_basis_functions,)`` on ``x``'s
        device. (The paper's equation counts from 0; the constant term is
        dropped here, as its authors do.)
    """
    n_basis_functions = _arrays.check_int(
        'cosine_basis_functions', 'n_basis_functions', n_basis_functions, 1)
    x = _arrays.unwrap(x)
    freq = numpy.arange(1, n_basis_functions + 1) * math.pi
    freq = _arrays.like(freq.astype(x.dtype), x)
    xp = chainer.backend.get_array_module(x)
    return xp.cos(x[..., None] * freq)


class CosineBasisLinear(chainer.Chain):
    """A linear layer on the cosine embedding of its input.

    Args:
        n_basis_functions (int): size of the embedding.
        out_size (int): output size.
    """

    def __init__(self, n_basis_functions, out_size):
        owner = 'CosineBasisLinear'
        self.n_basis_functions = _arrays.check_int(
            owner, 'n_basis_functions', n_basis_functions, 1)
        self.out_size = _arrays.check_int(owner, 'out_size', out_size, 1)
        super().__init__()
        with self.init_scope():
            self.linear = L.Linear(n_basis_functions, out_size)

    def forward(self, x):
        """Output of shape ``x.shape + (out_size,)`` for fractions ``x``
        (an array)."""
        h = cosine_basis_functions(x, self.n_basis_functions)
        h = F.reshape(h, (-1, self.n_basis_functions))
        return F.reshape(self.linear(h), tuple(x.shape) + (self.out_size,))


def _quantile_values(psi_x, phi, f, taus):
    """QuantileDiscreteActionValue of the embedded states at ``taus``."""
    owner = 'ImplicitQuantileQFunction'
    batch_size, hidden_size = psi_x.shape
    if taus.ndim != 2 or taus.shape[0] != batch_size:
        raise ValueError('{}: taus must have shape ({}, n_taus), got {}'
                         .format(owner, batch_size, tuple(taus.shape)))
    n_taus = taus.shape[1]
    taus = _arrays.like(taus, psi_x)
    phi_taus = phi(taus)
    if phi_taus.shape != (batch_size, n_taus, hidden_size):
        raise ValueError('{}: phi must map taus to shape {}, got {}'.format(
            owner, (batch_size, n_taus, hidden_size), phi_taus.shape))
    h = F.broadcast_to(F.expand_dims(psi_x, axis=1), phi_taus.shape)
    h = F.reshape(h * phi_taus, (batch_size * n_taus, hidden_size))
    h = f(h)
    if h.ndim != 2 or h.shape[0] != batch_size * n_taus:
        raise ValueError('{}: f must return shape ({}, n_actions), got {}'
                         .format(owner, batch_size * n_taus, h.shape))
    return QuantileDiscreteActionValue(
        F.reshape(h, (batch_size, n_taus, h.shape[1])))


def _check_psi_output(owner, psi_x, batch_size):
    if psi_x.ndim != 2 or psi_x.shape[0] != batch_size:
        raise ValueError('{}: psi must return shape ({}, hidden_size), got {}'
                         .format(owner, batch_size, psi_x.shape))


class ImplicitQuantileQFunction(chainer.Chain):
    """IQN's Q-function.

    Args:
        psi (~chainer_core.Link): states -> ``(batch_size, hidden_size)``.
        phi (~chainer_core.Link): fractions ``(batch_size, n_taus)`` ->
            ``(batch_size, n_taus, hidden_size)`` (e.g. a
            CosineBasisLinear and a ReLU).
        f (~chainer_core.Link): ``(batch_size * n_taus, hidden_size)`` ->
            ``(batch_size * n_taus, n_actions)``.

    Calling it with states returns a function of the fractions ``taus``
    ``(batch_size, n_taus)`` giving a QuantileDiscreteActionValue, so one
    state embedding serves several sets of fractions.
    """

    def __init__(self, psi, phi, f):
        super().__init__()
        with self.init_scope():
            self.psi = psi
            self.phi = phi
            self.f = f

    def forward(self, x):
        """taus -> QuantileDiscreteActionValue, for the states ``x``."""
        psi_x = self.psi(x)
        _check_psi_output('ImplicitQuantileQFunction', psi_x, x.shape[0])

        def evaluate_with_quantile_thresholds(taus):
            return _quantile_values(psi_x, self.phi, self.f, taus)

        return evaluate_with_quantile_thresholds


class StatelessRecurrentImplicitQuantileQFunction(
        StatelessRecurrentChainList):
    """IQN's Q-function with a stateless recurrent ``psi`` (recurrent
    IQN).

    Args:
        psi (StatelessRecurrent): sequences of states ->
            ``(n_steps, hidden_size)`` in ``'concat'`` mode.
        phi, f: as for ImplicitQuantileQFunction.

    ``n_step_forward`` supports ``output_mode='concat'`` only: the taus
    function covers all time steps of all sequences. The state is a
    1-tuple holding ``psi``'s.
    """

    def __init__(self, psi, phi, f):
        super().__init__(psi, phi, f)
        self.psi = psi
        self.phi = phi
        self.f = f

    def n_step_forward(self, x, recurrent_state, output_mode):
        """(taus function over all steps, new state)."""
        owner = 'StatelessRecurrentImplicitQuantileQFunction.n_step_forward'
        if output_mode != 'concat':
            raise ValueError("{}: output_mode must be 'concat', got {!r}"
                             .format(owner, output_mode))
        if recurrent_state is not None:
            recurrent_state, = recurrent_state
        psi_x, recurrent_state = self.psi.n_step_forward(
            x, recurrent_state, output_mode='concat')
        if psi_x.ndim != 2:
            raise ValueError('{}: psi must return shape (n_steps, '
                             'hidden_size), got {}'.format(owner,
                                                           psi_x.shape))

        def evaluate_with_quantile_thresholds(taus):
            return _quantile_values(psi_x, self.phi, self.f, taus)

        return evaluate_with_quantile_thresholds, (recurrent_state,)
