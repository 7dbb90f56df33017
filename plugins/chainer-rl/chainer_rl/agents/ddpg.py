"""Deep Deterministic Policy Gradient (DDPG)."""
import copy
from logging import getLogger

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl.agent import AttributeSavingMixin
from chainer_rl.agent import BatchAgent
from chainer_rl.agents import _continuous as C
from chainer_rl.misc.batch_states import batch_states
from chainer_rl import recurrent as R
from chainer_rl.replay_buffer import batch_experiences


__all__ = ['DDPG', 'DDPGModel']


class DDPGModel(chainer.Chain, R.RecurrentChainMixin):
    """The policy and the Q-function of DDPG as one link (children
    ``policy`` and ``q_function``), so that one deep copy makes both target
    networks and the recurrent state of both is handled together.

    Args:
        policy (~chainer_core.Link): maps a batch of observations to a
            Distribution whose ``sample()`` is the action (e.g.
            ``ContinuousDeterministicDistribution``), or to actions.
        q_func (~chainer_core.Link): maps ``(observations, actions)`` to
            values of shape ``(batch_size, 1)``.
    """

    def __init__(self, policy, q_func):
        super().__init__()
        C.check_link('DDPGModel', 'policy', policy)
        C.check_link('DDPGModel', 'q_func', q_func)
        with self.init_scope():
            self.policy = policy
            self.q_function = q_func


class DDPG(AttributeSavingMixin, BatchAgent):
    """Deep Deterministic Policy Gradient, from "Continuous control with deep
    reinforcement learning" (Lillicrap et al., 2016).

    A deterministic actor is trained to maximize a critic ``Q(s, a)`` that
    is itself fitted to one-step (or n-step, with an n-step replay buffer)
    targets computed by slowly moving target copies of both networks.

    Args:
        model (DDPGModel): the policy and Q-function (any Chain with the
            children ``policy`` and ``q_function`` will do).
        actor_optimizer (~chainer_core.Optimizer): set up on
            ``model['policy']``.
        critic_optimizer (~chainer_core.Optimizer): set up on
            ``model['q_function']``.
        replay_buffer: a replay buffer (an episodic one with
            ``episodic_update=True``).
        gamma (float): discount factor.
        explorer (~chainer_rl.explorer.Explorer): adds exploration noise to
            the policy's actions while training.
        gpu (int or None): None or a negative int leaves the model where it
            is; ``N >= 0`` moves it to ``@cupy:N``.
        replay_start_size (int): no update before the buffer holds this
            many transitions.
        minibatch_size (int): transitions (episodes, with
            ``episodic_update``) per update.
        update_interval (int): environment steps between updates.
        target_update_interval (int): environment steps between target
            network updates.
        phi (callable): feature extractor applied to each observation.
        target_update_method (str): ``'hard'`` (copy) or ``'soft'``
            (``target += tau * (source - target)``).
        soft_update_tau (float): tau of soft updates.
        n_times_update (int): updates per update step.
        average_q_decay (float): decay of the moving average of Q in the
            statistics.
        average_loss_decay (float): decay of the moving averages of the
            losses in the statistics.
        episodic_update (bool): learn from whole episodes (needed by
            recurrent models: the state is replayed through each episode).
        episodic_update_len (int or None): cut sampled episodes to windows
            of at most this length.
        logger (logging.Logger): where to log.
        batch_states (callable): ``(states, xp, phi) -> batch``.
        burnin_action_func (callable or None): called with no argument for
            each training action before the first update (e.g. uniform
            random actions).
        recurrent (bool or None): whether the model keeps a recurrent
            state; None finds out from the model.
    """

    saved_attributes = ('model', 'target_model', 'actor_optimizer',
                        'critic_optimizer')

    def __init__(self, model, actor_optimizer, critic_optimizer,
                 replay_buffer, gamma, explorer, gpu=None,
                 replay_start_size=50000, minibatch_size=32,
                 update_interval=1, target_update_interval=10000,
                 phi=lambda x: x, target_update_method='hard',
                 soft_update_tau=1e-2, n_times_update=1,
                 average_q_decay=0.999, average_loss_decay=0.99,
                 episodic_update=False, episodic_update_len=None,
                 logger=getLogger(__name__), batch_states=batch_states,
                 burnin_action_func=None, recurrent=None):
        owner = 'DDPG'
        C.check_link(owner, 'model', model)
        for child in ('policy', 'q_function'):
            if not isinstance(getattr(model, child, None), chainer.Link):
                raise TypeError(
                    '{}: model must have the child links policy and '
                    'q_function (use DDPGModel(policy, q_func)), got {} '
                    'without {!r}'.format(owner, type(model).__name__,
                                          child))
        self.model = model
        self.device = C.resolve_device(owner, gpu, {'model': model})
        self.xp = self.device.xp
        self.policy = model['policy']
        self.q_function = model['q_function']
        self.actor_optimizer = C.check_optimizer(
            owner, 'actor_optimizer', actor_optimizer, self.policy)
        self.critic_optimizer = C.check_optimizer(
            owner, 'critic_optimizer', critic_optimizer, self.q_function)
        self.replay_buffer = replay_buffer
        self.gamma = C.check_real(owner, 'gamma', gamma, 0.0, 1.0)
        self.explorer = C.check_explorer(owner, explorer)
        self.gpu = gpu
        self.target_update_interval = C.check_int(
            owner, 'target_update_interval', target_update_interval, 1)
        if target_update_method not in ('hard', 'soft'):
            raise ValueError("{}: target_update_method must be 'hard' or "
                             "'soft', got {!r}".format(
                                 owner, target_update_method))
        self.target_update_method = target_update_method
        self.soft_update_tau = C.check_real(owner, 'soft_update_tau',
                                            soft_update_tau, 0.0, 1.0)
        self.phi = C.check_callable(owner, 'phi', phi)
        self.batch_states = C.check_callable(owner, 'batch_states',
                                             batch_states)
        self.burnin_action_func = None if burnin_action_func is None else \
            C.check_callable(owner, 'burnin_action_func',
                             burnin_action_func)
        self.average_q_decay = C.check_real(owner, 'average_q_decay',
                                            average_q_decay, 0.0, 1.0)
        self.average_loss_decay = C.check_real(
            owner, 'average_loss_decay', average_loss_decay, 0.0, 1.0)
        self.logger = logger
        self.episodic_update = bool(episodic_update)
        self.recurrent = C.holds_recurrent_state(model) \
            if recurrent is None else bool(recurrent)
        if self.recurrent and not self.episodic_update:
            raise ValueError(
                '{}: a recurrent model needs episodic_update=True (and an '
                'episodic replay buffer), so that its state is replayed '
                'through whole episodes'.format(owner))
        if self.episodic_update and not callable(
                getattr(replay_buffer, 'sample_episodes', None)):
            raise TypeError(
                '{}: episodic_update=True needs an episodic replay buffer '
                '(with sample_episodes), got {}'.format(
                    owner, type(replay_buffer).__name__))
        self.replay_updater = C.make_replay_updater(
            owner, replay_buffer,
            (self.update_from_episodes if self.episodic_update
             else self.update),
            minibatch_size, n_times_update, replay_start_size,
            update_interval, episodic_update=self.episodic_update,
            episodic_update_len=episodic_update_len)
        self.minibatch_size = self.replay_updater.batchsize

        self.target_model = copy.deepcopy(model)
        self.target_policy = self.target_model['policy']
        self.target_q_function = self.target_model['q_function']
        self._sync = C.TargetSync(owner, self.target_model, self.model)

        self.t = 0
        self.average_q = 0.0
        self.average_actor_loss = 0.0
        self.average_critic_loss = 0.0
        self.batch_last_obs = None
        self.batch_last_action = None
        self._checks = C.InputChecks(owner)
        # Recurrent states of the policy while acting, one per mode, so
        # that evaluation episodes leave training episodes undisturbed.
        self._act_states = {'train': None, 'eval': None}

    # ------------------------------------------------------------------
    # targets and updates

    def sync_target_network(self):
        """Move the target networks to the current ones (a copy for
        ``'hard'``, a step of size tau for ``'soft'``)."""
        if self.target_update_method == 'hard':
            self._sync.hard()
        else:
            self._sync.soft(self.soft_update_tau)

    def _record_critic(self, loss):
        self.average_critic_loss *= self.average_loss_decay
        self.average_critic_loss += (1 - self.average_loss_decay) * float(
            loss.array)

    def _record_actor(self, loss, mean_q):
        self.average_actor_loss *= self.average_loss_decay
        self.average_actor_loss += (1 - self.average_loss_decay) * float(
            loss.array)
        self.average_q *= self.average_q_decay
        self.average_q += (1 - self.average_q_decay) * mean_q

    def _target_values(self, batch):
        next_state = batch['next_state']
        next_action = C.action_of('DDPG', self.target_policy(next_state))
        next_q = F.flatten(self.target_q_function(next_state, next_action))
        return batch['reward'] + batch['discount'] * (
            1.0 - batch['is_state_terminal']) * next_q

    def compute_critic_loss(self, batch):
        """Squared error of ``Q(s, a)`` against
        ``r + discount * (1 - terminal) * Q'(s', mu'(s'))``."""
        predict_q = F.flatten(self.q_function(batch['state'],
                                              batch['action']))
        self._sync.fill_lazy()
        with chainer.no_backprop_mode(), \
                chainer.using_config('train', False):
            target_q = self._target_values(batch)
        loss = F.mean_squared_error(target_q, predict_q)
        self._record_critic(loss)
        return loss

    def compute_actor_loss(self, batch):
        """``-mean(Q(s, mu(s)))``."""
        state = batch['state']
        action = C.action_of('DDPG', self.policy(state))
        q = self.q_function(state, action)
        loss = -F.sum(q) / q.shape[0]
        self._record_actor(loss, -float(loss.array))
        return loss

    def update(self, experiences, errors_out=None):
        """Update the critic, then the actor, from sampled transitions."""
        batch = batch_experiences(experiences, self.xp, self.phi, self.gamma,
                                  batch_states=self.batch_states)
        self.critic_optimizer.update(lambda: self.compute_critic_loss(batch))
        self.actor_optimizer.update(lambda: self.compute_actor_loss(batch))

    def update_from_episodes(self, episodes, errors_out=None):
        """Update from whole episodes, stepping recurrent states through
        them (the losses are averaged over time)."""
        episodes = sorted(episodes, key=len, reverse=True)
        batches = []
        for i in range(len(episodes[0])):
            # A prefix, since the episodes are sorted by decreasing length:
            # recurrent links keep the rows of the episodes still running.
            rows = [[ep[i]] for ep in episodes if len(ep) > i]
            batches.append(batch_experiences(
                rows, self.xp, self.phi, self.gamma,
                batch_states=self.batch_states))
        n = len(batches)

        with R.state_reset(self.model), R.state_reset(self.target_model):
            critic_loss = 0
            for batch in batches:
                critic_loss += self._critic_loss_step(batch)
            critic_loss = critic_loss / n
        self._record_critic(critic_loss)
        self.critic_optimizer.update(lambda: critic_loss)

        with R.state_reset(self.model):
            actor_loss = 0
            q_sum = 0.0
            for batch in batches:
                loss, mean_q = self._actor_loss_step(batch)
                actor_loss += loss
                q_sum += mean_q
            actor_loss = actor_loss / n
        self._record_actor(actor_loss, q_sum / n)
        self.actor_optimizer.update(lambda: actor_loss)

    def _critic_loss_step(self, batch):
        state, action = batch['state'], batch['action']
        predict_q = F.flatten(self.q_function(state, action))
        self._sync.fill_lazy()
        with chainer.no_backprop_mode(), \
                chainer.using_config('train', False):
            if self.recurrent:
                # The targets observe (s_t, a_t), then look one step ahead
                # at s_{t+1} without keeping that step.
                self.target_policy(state)
                C.advance_state(self.target_q_function, state, action)
                with R.state_kept(self.target_policy), \
                        R.state_kept(self.target_q_function):
                    target_q = self._target_values(batch)
            else:
                target_q = self._target_values(batch)
        return F.mean_squared_error(target_q, predict_q)

    def _actor_loss_step(self, batch):
        state = batch['state']
        action = C.action_of('DDPG', self.policy(state))
        if self.recurrent:
            with R.state_kept(self.q_function):
                q = self.q_function(state, action)
            with chainer.no_backprop_mode():
                C.advance_state(self.q_function, state, batch['action'])
        else:
            q = self.q_function(state, action)
        loss = -F.sum(q) / q.shape[0]
        return loss, float(F.mean(q).array)

    # ------------------------------------------------------------------
    # acting

    def _policy_actions(self, method, batch_obs, mode):
        shape = self._checks.observations(method, batch_obs)
        xs = self.batch_states(batch_obs, self.xp, self.phi)
        if self.recurrent:
            R.set_recurrent_state(self.policy, self._act_states[mode])
        actions = C.policy_actions('DDPG', method, self.policy, xs,
                                   greedy=False)
        if self.recurrent:
            self._act_states[mode] = R.get_recurrent_state(self.policy)
        self._checks.accept_observations(shape)
        self._checks.learn_actions(actions)
        return actions

    def _batch_act_train(self, batch_obs):
        method = 'batch_act_and_train'
        if self.burnin_action_func is not None and \
                self.actor_optimizer.t == 0:
            shape = self._checks.observations(method, batch_obs)
            if self._checks.action_shape is None:
                # One look at the policy for the shape of its actions, from
                # a fresh state that is dropped afterwards.
                xs = self.batch_states(batch_obs, self.xp, self.phi)
                with R.state_reset(self.policy):
                    self._checks.learn_actions(C.policy_actions(
                        'DDPG', method, self.policy, xs, greedy=False))
                self._checks.accept_observations(shape)
            actions = [self._checks.burnin_action(self.burnin_action_func)
                       for _ in range(len(batch_obs))]
        else:
            actions = C.explore(
                self.explorer, self.t,
                self._policy_actions(method, batch_obs, 'train'))
        self.batch_last_obs = list(batch_obs)
        self.batch_last_action = list(actions)
        return actions

    def _batch_act_eval(self, batch_obs):
        return list(self._policy_actions('batch_act', batch_obs, 'eval'))

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        C.store_transitions(self, batch_obs, batch_reward, batch_done,
                            batch_reset, each_step=self._step_target)
        self._reset_act_state('train', batch_done, batch_reset)

    def _step_target(self):
        if self.t % self.target_update_interval == 0:
            self.sync_target_network()

    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        self._reset_act_state('eval', batch_done, batch_reset)

    def _reset_act_state(self, mode, batch_done, batch_reset):
        if not self.recurrent or self._act_states[mode] is None:
            return
        mask = numpy.logical_or(numpy.asarray(batch_done, dtype=bool),
                                numpy.asarray(batch_reset, dtype=bool))
        if mask.any():
            self._act_states[mode] = R.mask_recurrent_state(
                self._act_states[mode], mask)

    def get_statistics(self):
        """Moving averages of Q and of both losses, and update counts."""
        return [
            ('average_q', self.average_q),
            ('average_actor_loss', self.average_actor_loss),
            ('average_critic_loss', self.average_critic_loss),
            ('actor_n_updates', self.actor_optimizer.t),
            ('critic_n_updates', self.critic_optimizer.t),
        ]

