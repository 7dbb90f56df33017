"""Soft Actor-Critic (SAC) with automatic temperature adjustment."""
import collections
from logging import getLogger
import math

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl.agent import AttributeSavingMixin
from chainer_rl.agent import BatchAgent
from chainer_rl.agents import _continuous as C
from chainer_rl.misc.batch_states import batch_states
from chainer_rl.replay_buffer import batch_experiences


__all__ = ['SoftActorCritic', 'TemperatureHolder']


class TemperatureHolder(chainer.Link):
    """The entropy temperature as a trainable link, kept as its logarithm
    so that gradient steps can never make it negative.

    Args:
        initial_log_temperature (float): initial ``log(temperature)``.
    """

    def __init__(self, initial_log_temperature=0):
        super().__init__()
        value = _arrays.check_real('TemperatureHolder',
                                   'initial_log_temperature',
                                   initial_log_temperature)
        with self.init_scope():
            self.log_temperature = chainer.Parameter(
                numpy.array(value, dtype=numpy.float32))

    def forward(self):
        """The temperature, ``exp(log_temperature)`` (a 0-dim Variable)."""
        return F.exp(self.log_temperature)


class SoftActorCritic(C.TwinCriticMixin, AttributeSavingMixin, BatchAgent):
    """Soft Actor-Critic, from "Soft Actor-Critic Algorithms and
    Applications" (Haarnoja et al., 2018), the version with twin Q-functions
    and automatic temperature adjustment.

    The policy maximizes ``E[min(Q1, Q2)(s, a) - alpha * log pi(a|s)]`` and
    the critics are fitted to the matching entropy-regularized target;
    with ``entropy_target`` set, the temperature ``alpha`` is learned so
    that the policy's entropy stays near that target.

    The policy must return a ``SquashedGaussianDistribution`` (or any
    distribution with ``sample_with_log_prob`` and ``most_probable``), so
    actions lie in ``[-1, 1]``: normalize the env's action space.

    Args:
        policy (~chainer_core.Link): observations to a distribution.
        q_func1, q_func2 (~chainer_core.Link): ``(observations, actions)``
            to values of shape ``(batch_size, 1)``.
        policy_optimizer, q_func1_optimizer, q_func2_optimizer
            (~chainer_core.Optimizer): set up on their links.
        replay_buffer: a replay buffer.
        gamma (float): discount factor.
        gpu (int or None): None or a negative int leaves the links where
            they are; ``N >= 0`` moves them to ``@cupy:N``.
        replay_start_size (int): no update before the buffer holds this
            many transitions.
        minibatch_size (int): transitions per update.
        update_interval (int): environment steps between updates.
        phi (callable): feature extractor applied to each observation.
        soft_update_tau (float): step size of the target Q updates.
        max_grad_norm (float or None): clip each network's gradient to this
            joint L2 norm.
        logger (logging.Logger): where to log.
        batch_states (callable): ``(states, xp, phi) -> batch``.
        burnin_action_func (callable or None): called with no argument for
            each training action before the first policy update.
        initial_temperature (float): the temperature at the start (for
            ever, when ``entropy_target`` is None).
        entropy_target (float or None): the entropy the temperature is
            tuned towards (``-n_action_dims`` in the paper); None keeps the
            temperature fixed.
        temperature_optimizer (~chainer_core.Optimizer or None): the
            temperature's optimizer (not set up; default Adam).
        act_deterministically (bool): evaluate with the most probable
            action instead of a sample.
        n_times_update (int): updates per update step.
    """

    saved_attributes = ('policy', 'q_func1', 'q_func2', 'target_q_func1',
                        'target_q_func2', 'policy_optimizer',
                        'q_func1_optimizer', 'q_func2_optimizer',
                        'temperature_holder', 'temperature_optimizer')

    def __init__(self, policy, q_func1, q_func2, policy_optimizer,
                 q_func1_optimizer, q_func2_optimizer, replay_buffer, gamma,
                 gpu=None, replay_start_size=10000, minibatch_size=100,
                 update_interval=1, phi=lambda x: x, soft_update_tau=5e-3,
                 max_grad_norm=None, logger=getLogger(__name__),
                 batch_states=batch_states, burnin_action_func=None,
                 initial_temperature=1., entropy_target=None,
                 temperature_optimizer=None, act_deterministically=True,
                 n_times_update=1):
        owner = 'SoftActorCritic'
        C.init_twin_critic_agent(
            self, owner, policy, q_func1, q_func2, policy_optimizer,
            q_func1_optimizer, q_func2_optimizer, replay_buffer, gamma, gpu,
            phi, soft_update_tau, logger, batch_states, burnin_action_func,
            max_grad_norm)
        self.initial_temperature = C.check_real(
            owner, 'initial_temperature', initial_temperature)
        if not self.initial_temperature > 0:
            raise ValueError('{}: initial_temperature must be positive, got '
                             '{}'.format(owner, initial_temperature))
        self.entropy_target = None if entropy_target is None else \
            C.check_real(owner, 'entropy_target', entropy_target)
        self.act_deterministically = bool(act_deterministically)
        self._init_updates(owner, minibatch_size, n_times_update,
                           replay_start_size, update_interval)

        if self.entropy_target is not None:
            self.temperature_holder = TemperatureHolder(
                initial_log_temperature=math.log(self.initial_temperature))
            self.temperature_holder.to_device(self.device)
            if temperature_optimizer is None:
                temperature_optimizer = chainer.optimizers.Adam()
            elif not isinstance(temperature_optimizer, chainer.Optimizer):
                raise TypeError(
                    '{}: temperature_optimizer must be a chainer_core '
                    'Optimizer or None, got {}'.format(
                        owner, type(temperature_optimizer).__name__))
            self.temperature_optimizer = temperature_optimizer
            self.temperature_optimizer.setup(self.temperature_holder)
        else:
            self.temperature_holder = None
            self.temperature_optimizer = None

        self.entropy_record = collections.deque(maxlen=1000)

    @property
    def n_policy_updates(self):
        """Policy updates so far (the optimizer's count, so it survives
        ``save``/``load``)."""
        return self.policy_optimizer.t

    @property
    def temperature(self):
        """The current temperature, as a float."""
        if self.entropy_target is None:
            return self.initial_temperature
        return math.exp(float(_arrays.to_host(
            self.temperature_holder.log_temperature.array)))

    # ------------------------------------------------------------------
    # updates

    def compute_target_q(self, batch, temperature=None):
        """``r + discount * (1 - terminal) * (min(Q1', Q2')(s', a') -
        alpha * log pi(a'|s'))`` with ``a' ~ pi(.|s')``."""
        if temperature is None:
            temperature = self.temperature
        next_state = batch['next_state']
        with chainer.no_backprop_mode(), \
                chainer.using_config('train', False):
            next_action, next_log_prob = _sample_with_log_prob(
                self.policy(next_state))
            next_q = F.minimum(self.target_q_func1(next_state, next_action),
                               self.target_q_func2(next_state, next_action))
            soft_q = F.flatten(next_q) - temperature * next_log_prob
            return batch['reward'] + batch['discount'] * (
                1.0 - batch['is_state_terminal']) * soft_q

    def update_q_func(self, batch):
        """Fit both critics to the entropy-regularized target (half the
        mean squared error, as in the paper)."""
        C.update_twin_critics(self, batch, 0.5)

    def temperature_loss(self, log_prob):
        """``-mean(alpha * (log_prob + entropy_target))``: its gradient
        raises alpha when the entropy ``-log_prob`` is below the target."""
        log_prob = _arrays.unwrap(log_prob)
        alpha = self.temperature_holder()
        return -F.mean(F.broadcast_to(alpha, log_prob.shape) * (
            chainer.Variable(log_prob + self.entropy_target,
                             requires_grad=False)))

    def update_temperature(self, log_prob):
        """One step of the temperature towards ``entropy_target``."""
        loss = self.temperature_loss(log_prob)
        self.temperature_optimizer.update(lambda: loss)

    def update_policy_and_temperature(self, batch):
        """Minimize ``mean(alpha * log pi(a|s) - min(Q1, Q2)(s, a))`` over
        reparameterized samples, then adjust the temperature."""
        state = batch['state']
        action, log_prob = _sample_with_log_prob(self.policy(state))
        q = F.minimum(self.q_func1(state, action),
                      self.q_func2(state, action))
        loss = F.mean(self.temperature * log_prob - F.flatten(q))
        C.update_with(self.policy_optimizer, loss, self._clipper)
        if self.entropy_target is not None:
            self.update_temperature(log_prob.array)
        # The squashed Gaussian has no closed-form entropy: -log pi of the
        # samples estimates it.
        self.entropy_record.extend(
            (-_arrays.to_host(log_prob.array)).tolist())

    def update(self, experiences, errors_out=None):
        """Critics, then policy and temperature, then the target step."""
        batch = batch_experiences(experiences, self.xp, self.phi, self.gamma,
                                  batch_states=self.batch_states)
        self.update_q_func(batch)
        self.update_policy_and_temperature(batch)
        self.sync_target_network()

    # ------------------------------------------------------------------
    # acting

    def batch_select_greedy_action(self, batch_obs, deterministic=False):
        """Actions for a batch of observations: the most probable ones if
        ``deterministic``, else samples."""
        return list(self._policy_actions('batch_act', batch_obs,
                                         bool(deterministic)))

    def _train_actions(self, method, batch_obs):
        return list(self._policy_actions(method, batch_obs, False))

    def _batch_act_eval(self, batch_obs):
        return list(self._policy_actions('batch_act', batch_obs,
                                         self.act_deterministically))

    def get_statistics(self):
        """Recent means of both critics' Q and losses and of the policy's
        entropy, the update count and the temperature."""
        return C.twin_critic_statistics(self) + [
            ('n_updates', self.n_policy_updates),
            ('average_entropy', C.mean_or_nan(self.entropy_record)),
            ('temperature', self.temperature),
        ]


def _sample_with_log_prob(distrib):
    sample = getattr(distrib, 'sample_with_log_prob', None)
    if not callable(sample):
        raise TypeError(
            'SoftActorCritic: the policy must return a distribution with '
            'sample_with_log_prob (e.g. SquashedGaussianDistribution), got '
            '{}'.format(type(distrib).__name__))
    return sample()
