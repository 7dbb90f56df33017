"""Twin Delayed Deep Deterministic policy gradient (TD3)."""
import collections
from logging import getLogger

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl.agent import AttributeSavingMixin
from chainer_rl.agent import BatchAgent
from chainer_rl.agents import _continuous as C
from chainer_rl.misc.batch_states import batch_states
from chainer_rl.replay_buffer import batch_experiences


__all__ = ['TD3', 'default_target_policy_smoothing_func']


def default_target_policy_smoothing_func(batch_action):
    """TD3's target policy smoothing: add ``N(0, 0.2**2)`` noise clipped to
    ``[-0.5, 0.5]`` to each action, then clip the result to ``[-1, 1]``.

    The noise comes from NumPy's global generator (seeded by
    ``misc.set_random_seed``), so every device draws the same values.

    Args:
        batch_action: array of actions of any device, in ``[-1, 1]``.

    Returns:
        An array of the same device, shape and dtype.
    """
    noise = numpy.clip(0.2 * numpy.random.standard_normal(
        batch_action.shape), -0.5, 0.5).astype(batch_action.dtype)
    noise = _arrays.like(noise, batch_action)
    return F.clip(chainer.Variable(batch_action + noise,
                                   requires_grad=False), -1.0, 1.0).array


class TD3(C.TwinCriticMixin, AttributeSavingMixin, BatchAgent):
    """Twin Delayed DDPG, from "Addressing Function Approximation Error in
    Actor-Critic Methods" (Fujimoto et al., 2018).

    Three changes to DDPG against the overestimation of Q: two critics
    whose minimum forms the target (clipped double Q-learning), noise on
    the target policy's action (target policy smoothing), and policy and
    target updates once every ``policy_update_delay`` critic updates.

    Actions are assumed to lie in ``[-1, 1]`` (the default smoothing clips
    to it); normalize the env's action space otherwise.

    Args:
        policy (~chainer_core.Link): observations to a Distribution whose
            ``sample()`` is the action (or to actions).
        q_func1, q_func2 (~chainer_core.Link): ``(observations, actions)``
            to values of shape ``(batch_size, 1)``.
        policy_optimizer, q_func1_optimizer, q_func2_optimizer
            (~chainer_core.Optimizer): set up on their links.
        replay_buffer: a replay buffer.
        gamma (float): discount factor.
        explorer (~chainer_rl.explorer.Explorer): exploration while
            training (e.g. ``AdditiveGaussian(0.1, -1, 1)``).
        gpu (int or None): None or a negative int leaves the links where
            they are; ``N >= 0`` moves them to ``@cupy:N``.
        replay_start_size (int): no update before the buffer holds this
            many transitions.
        minibatch_size (int): transitions per update.
        update_interval (int): environment steps between updates.
        phi (callable): feature extractor applied to each observation.
        soft_update_tau (float): step size of the target updates.
        n_times_update (int): updates per update step.
        max_grad_norm (float or None): clip each network's gradient to this
            joint L2 norm.
        logger (logging.Logger): where to log.
        batch_states (callable): ``(states, xp, phi) -> batch``.
        burnin_action_func (callable or None): called with no argument for
            each training action before the first policy update.
        policy_update_delay (int): critic updates per policy update.
        target_policy_smoothing_func (callable): maps the target policy's
            actions (an array) to the actions the targets are evaluated at.
    """

    saved_attributes = ('policy', 'q_func1', 'q_func2', 'target_policy',
                        'target_q_func1', 'target_q_func2',
                        'policy_optimizer', 'q_func1_optimizer',
                        'q_func2_optimizer')

    def __init__(self, policy, q_func1, q_func2, policy_optimizer,
                 q_func1_optimizer, q_func2_optimizer, replay_buffer, gamma,
                 explorer, gpu=None, replay_start_size=10000,
                 minibatch_size=100, update_interval=1, phi=lambda x: x,
                 soft_update_tau=5e-3, n_times_update=1, max_grad_norm=None,
                 logger=getLogger(__name__), batch_states=batch_states,
                 burnin_action_func=None, policy_update_delay=2,
                 target_policy_smoothing_func=(
                     default_target_policy_smoothing_func)):
        owner = 'TD3'
        C.init_twin_critic_agent(
            self, owner, policy, q_func1, q_func2, policy_optimizer,
            q_func1_optimizer, q_func2_optimizer, replay_buffer, gamma, gpu,
            phi, soft_update_tau, logger, batch_states, burnin_action_func,
            max_grad_norm)
        self.explorer = C.check_explorer(owner, explorer)
        self.policy_update_delay = C.check_int(
            owner, 'policy_update_delay', policy_update_delay, 1)
        self.target_policy_smoothing_func = C.check_callable(
            owner, 'target_policy_smoothing_func',
            target_policy_smoothing_func)
        self._init_updates(owner, minibatch_size, n_times_update,
                           replay_start_size, update_interval,
                           target_policy=True)

        # The default smoothing clips to [-1, 1], which only makes sense
        # for actions in that range: burn-in actions are checked against it.
        self._burnin_bounds = (-1.0, 1.0) if (
            target_policy_smoothing_func
            is default_target_policy_smoothing_func) else None

        self.policy_loss_record = collections.deque(maxlen=100)

    @property
    def policy_n_updates(self):
        """Policy updates so far (the optimizer's count, so it survives
        ``save``/``load``)."""
        return self.policy_optimizer.t

    @property
    def q_func_n_updates(self):
        """Critic updates so far."""
        return self.q_func1_optimizer.t

    # ------------------------------------------------------------------
    # updates

    def compute_target_q(self, batch):
        """``r + discount * (1 - terminal) * min(Q1', Q2')(s', a')`` with
        ``a'`` the smoothed action of the target policy at ``s'``."""
        next_state = batch['next_state']
        with chainer.no_backprop_mode(), \
                chainer.using_config('train', False):
            next_action = C.action_of('TD3', self.target_policy(next_state))
            next_action = self.target_policy_smoothing_func(
                next_action.array)
            next_q = F.minimum(self.target_q_func1(next_state, next_action),
                               self.target_q_func2(next_state, next_action))
            return batch['reward'] + batch['discount'] * (
                1.0 - batch['is_state_terminal']) * F.flatten(next_q)

    def update_q_func(self, batch):
        """Fit both critics to the clipped double-Q target."""
        C.update_twin_critics(self, batch, 1.0)

    def update_policy(self, batch):
        """Maximize ``Q1(s, mu(s))``."""
        state = batch['state']
        action = C.action_of('TD3', self.policy(state))
        q = self.q_func1(state, action)
        loss = -F.mean(q)
        self.policy_loss_record.append(float(loss.array))
        C.update_with(self.policy_optimizer, loss, self._clipper)

    def update(self, experiences, errors_out=None):
        """One critic update; every ``policy_update_delay``-th one is
        followed by a policy update and a target network step."""
        batch = batch_experiences(experiences, self.xp, self.phi, self.gamma,
                                  batch_states=self.batch_states)
        self.update_q_func(batch)
        if self.q_func_n_updates % self.policy_update_delay == 0:
            self.update_policy(batch)
            self.sync_target_network()

    # ------------------------------------------------------------------
    # acting

    # The policy's sample is TD3's action, so the shape probe samples too.
    _burnin_probe_greedy = False

    def batch_select_onpolicy_action(self, batch_obs):
        """The policy's actions for a batch of observations (host)."""
        return list(self._policy_actions('batch_act', batch_obs))

    def _train_actions(self, method, batch_obs):
        return C.explore(self.explorer, self.t,
                         self._policy_actions(method, batch_obs))

    def _batch_act_eval(self, batch_obs):
        return list(self._policy_actions('batch_act', batch_obs))

    def get_statistics(self):
        """Recent means of both critics' Q and losses and of the policy
        loss, and the update counts."""
        return C.twin_critic_statistics(self) + [
            ('average_policy_loss', C.mean_or_nan(self.policy_loss_record)),
            ('policy_n_updates', self.policy_n_updates),
            ('q_func_n_updates', self.q_func_n_updates),
        ]
