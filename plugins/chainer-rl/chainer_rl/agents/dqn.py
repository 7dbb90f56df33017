"""DQN: Q-learning with experience replay and a target network."""
import copy
from logging import getLogger
import numbers

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl import agent
from chainer_rl.agents import _recurrence
from chainer_rl.explorers.epsilon_greedy import _EpsilonGreedyBase
from chainer_rl.explorers.greedy import Greedy
from chainer_rl.misc.batch_states import batch_states as _default_batch_states
from chainer_rl.misc.copy_param import copy_param
from chainer_rl.misc.copy_param import soft_copy_param
from chainer_rl.replay_buffer import batch_experiences
from chainer_rl.replay_buffer import ReplayUpdater


__all__ = ['DQN', 'compute_value_loss', 'compute_weighted_value_loss']


def _check_accumulator(owner, batch_accumulator):
    if batch_accumulator not in ('mean', 'sum'):
        raise ValueError("{}: batch_accumulator must be 'mean' or 'sum', got "
                         "{!r}".format(owner, batch_accumulator))


def _elementwise_value_loss(y, t, clip_delta):
    # Shapes (batch, 1) -> (batch,): Huber with delta 1, or half the square.
    y = F.reshape(y, (-1, 1))
    t = F.reshape(t, (-1, 1))
    if clip_delta:
        return F.huber_loss(y, t, delta=1.0)
    return F.reshape(F.square(y - t), (-1,)) * 0.5


def compute_value_loss(y, t, clip_delta=True, batch_accumulator='mean'):
    """Loss of predicted values ``y`` against targets ``t``.

    Args:
        y (Variable or array): predictions, one per sample.
        t (Variable or array): targets, same size.
        clip_delta (bool): Huber loss (delta 1) if True, else half the
            squared error.
        batch_accumulator (str): 'mean' or 'sum' over the samples.

    Returns:
        Variable: the scalar loss.
    """
    _check_accumulator('compute_value_loss', batch_accumulator)
    losses = _elementwise_value_loss(y, t, clip_delta)
    loss = F.sum(losses)
    if batch_accumulator == 'mean':
        loss = loss / losses.shape[0]
    return loss


def compute_weighted_value_loss(y, t, weights, clip_delta=True,
                                batch_accumulator='mean'):
    """As :func:`compute_value_loss`, each sample's loss scaled by its
    weight (importance weights of prioritized replay)."""
    _check_accumulator('compute_weighted_value_loss', batch_accumulator)
    losses = _elementwise_value_loss(y, t, clip_delta)
    weights = _arrays.like(_arrays.unwrap(weights), losses,
                           dtype=losses.dtype).reshape((-1,))
    loss = F.sum(losses * weights)
    if batch_accumulator == 'mean':
        loss = loss / losses.shape[0]
    return loss


_EXPLORERS_IGNORING_VALUES = (_EpsilonGreedyBase.select_action,
                              Greedy.select_action)


class DQN(agent.AttributeSavingMixin, agent.BatchAgent):
    """Deep Q-Network, from "Human-level control through deep
    reinforcement learning" (Mnih et al., 2015).

    The Q-function regresses on ``r + discount * max_a Q_target(s', a)``
    over minibatches drawn from a replay buffer; the target network follows
    the online one by copies (``'hard'``) or Polyak averaging (``'soft'``).
    n-step returns come from the replay buffer's ``num_steps``; a
    ``PrioritizedReplayBuffer`` gets the new TD errors and its importance
    weights scale the loss. With ``recurrent=True`` the Q-function is
    recurrent and is trained on episode windows of ``episodic_update_len``
    steps sampled from an episodic replay buffer.

    Args:
        q_function (Link): maps a batch of observations to an ActionValue.
        optimizer (Optimizer): already set up with ``q_function``.
        replay_buffer: a ChainerRL replay buffer.
        gamma (float): discount factor.
        explorer (Explorer): chooses the training actions.
        gpu (int or None): CUDA device id; an int >= 0 moves the model to
            ``@cupy:gpu``; None leaves it where it is (then the agent
            works on the model's own device, whatever it is).
        replay_start_size (int): no update before the buffer holds this
            many items.
        minibatch_size (int): items (episodes when recurrent) per update.
        update_interval (int): steps between updates.
        target_update_interval (int): steps between target updates (a
            multiple of ``update_interval``).
        clip_delta (bool): Huber loss if True, squared loss otherwise.
        phi (callable): feature extractor applied to observations.
        target_update_method (str): 'hard' or 'soft'.
        soft_update_tau (float): step size of the soft update.
        n_times_update (int): updates per update step.
        average_q_decay (float): decay of the moving average of the
            predicted Q-values reported by ``get_statistics``.
        average_loss_decay (float): decay of the moving average of the
            loss.
        batch_accumulator (str): 'mean' or 'sum' of the per-sample losses.
        episodic_update_len (int or None): length of the episode windows
            of recurrent updates (None: whole episodes).
        logger (Logger): where debug messages go.
        batch_states (callable): ``(observations, xp, phi) -> batch``.
        recurrent (bool): the Q-function is recurrent (see above).
    """

    saved_attributes = ('model', 'target_model', 'optimizer')

    def __init__(self, q_function, optimizer, replay_buffer, gamma,
                 explorer, gpu=None, replay_start_size=50000,
                 minibatch_size=32, update_interval=1,
                 target_update_interval=10000, clip_delta=True,
                 phi=lambda x: x, target_update_method='hard',
                 soft_update_tau=1e-2, n_times_update=1,
                 average_q_decay=0.999, average_loss_decay=0.99,
                 batch_accumulator='mean', episodic_update_len=None,
                 logger=getLogger(__name__),
                 batch_states=_default_batch_states, recurrent=False):
        owner = type(self).__name__
        if not isinstance(q_function, chainer.Link):
            raise TypeError('{}: q_function must be a chainer_core Link, got '
                            '{}'.format(owner, type(q_function).__name__))
        if not isinstance(optimizer, chainer.Optimizer):
            raise TypeError('{}: optimizer must be a chainer_core Optimizer, '
                            'got {}'.format(owner, type(optimizer).__name__))
        if getattr(optimizer, 'target', None) is None:
            raise ValueError('{}: the optimizer has no target; call '
                             'optimizer.setup(q_function) first'.format(owner))
        for name in ('append', 'sample', 'stop_current_episode'):
            if not callable(getattr(replay_buffer, name, None)):
                raise TypeError('{}: replay_buffer must be a replay buffer '
                                '(with {}), got {}'.format(
                                    owner, name, type(replay_buffer).__name__))
        if not callable(getattr(explorer, 'select_action', None)):
            raise TypeError('{}: explorer must be an Explorer, got {}'.format(
                owner, type(explorer).__name__))
        self.gamma = self._check_unit(owner, 'gamma', gamma)
        self.soft_update_tau = self._check_unit(owner, 'soft_update_tau',
                                                soft_update_tau)
        self.average_q_decay = self._check_unit(owner, 'average_q_decay',
                                                average_q_decay)
        self.average_loss_decay = self._check_unit(
            owner, 'average_loss_decay', average_loss_decay)
        update_interval = _arrays.check_int(owner, 'update_interval',
                                            update_interval, 1)
        target_update_interval = _arrays.check_int(
            owner, 'target_update_interval', target_update_interval, 1)
        if target_update_interval % update_interval != 0:
            raise ValueError(
                '{}: target_update_interval ({}) must be a multiple of '
                'update_interval ({})'.format(owner, target_update_interval,
                                              update_interval))
        _arrays.check_choice(owner, 'target_update_method',
                             target_update_method, ('hard', 'soft'))
        _check_accumulator(owner, batch_accumulator)
        _arrays.check_callable(owner, 'phi', phi)
        _arrays.check_callable(owner, 'batch_states', batch_states)
        if gpu is not None:
            gpu = _arrays.check_int(owner, 'gpu', gpu)
            if gpu >= 0:
                spec = '@cupy:{}'.format(gpu)
                try:
                    device = chainer.get_device(spec)
                except Exception as e:
                    raise ValueError(
                        '{}: gpu={} asks for device {!r}, which is not '
                        'available ({})'.format(owner, gpu, spec, e)) from e
                q_function.to_device(device)

        self.model = q_function
        self.q_function = q_function
        self.optimizer = optimizer
        self.replay_buffer = replay_buffer
        self.explorer = explorer
        self.gpu = gpu
        self.target_update_interval = target_update_interval
        self.clip_delta = bool(clip_delta)
        self.phi = phi
        self.target_update_method = target_update_method
        self.batch_accumulator = batch_accumulator
        self.logger = logger
        self.batch_states = batch_states
        self.recurrent = bool(recurrent)

        if self.recurrent:
            if not callable(getattr(replay_buffer, 'sample_episodes', None)):
                raise ValueError(
                    '{}: recurrent=True needs an episodic replay buffer '
                    '(EpisodicReplayBuffer or PrioritizedEpisodicReplayBuffer'
                    '), got {}'.format(owner, type(replay_buffer).__name__))
            self._recurrence = _recurrence.make_recurrence(q_function, owner)
        else:
            self._recurrence = None
            if self._is_recurrent_model(q_function):
                raise ValueError(
                    '{}: q_function {} is recurrent; pass recurrent=True (and '
                    'an episodic replay buffer) to train it'.format(
                        owner, type(q_function).__name__))
        self.replay_updater = ReplayUpdater(
            replay_buffer=replay_buffer,
            update_func=(self.update_from_episodes if self.recurrent
                         else self.update),
            batchsize=minibatch_size,
            episodic_update=self.recurrent,
            episodic_update_len=episodic_update_len,
            n_times_update=n_times_update,
            replay_start_size=replay_start_size,
            update_interval=update_interval)
        capacity = getattr(replay_buffer, 'capacity', None)
        if capacity is not None and capacity < replay_start_size:
            raise ValueError('{}: replay_start_size ({}) exceeds the replay '
                             'buffer capacity ({})'.format(
                                 owner, replay_start_size, capacity))

        self.t = 0
        self.target_model = copy.deepcopy(self.model)
        self.average_q = 0.0
        self.average_loss = 0.0
        self.batch_last_obs = []
        self.batch_last_action = []
        self.train_recurrent_states = None
        self.train_prev_recurrent_states = None
        self.test_recurrent_states = None
        self._test_batch_size = None
        self._obs_shape = None
        self._model_checked = False
        self._explorer_needs_values = getattr(
            type(explorer), 'select_action',
            None) not in _EXPLORERS_IGNORING_VALUES

    # ------------------------------------------------------------------
    # checks and model calls

    @staticmethod
    def _check_unit(owner, name, value):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) \
                or not 0.0 <= float(value) <= 1.0:
            raise ValueError('{}: {} must be a number in [0, 1], got {!r}'
                             .format(owner, name, value))
        return float(value)

    @staticmethod
    def _is_recurrent_model(model):
        return _recurrence.is_recurrent_model(model)

    @property
    def xp(self):
        """Array module of the model's device."""
        return self.model.xp

    @property
    def target_q_function(self):
        """The target network (ChainerRL's older name)."""
        return self.target_model

    def _check_batch_obs(self, batch_obs, where):
        return _arrays.count_obs(
            '{}.{}'.format(type(self).__name__, where), batch_obs,
            self._obs_shape)

    def _forward_obs(self, batch_obs, where, recurrent_key=None):
        """Evaluate the model on observations (no graph, test mode);
        advances the recurrent state named by ``recurrent_key``."""
        n = self._check_batch_obs(batch_obs, where)
        try:
            x = self._batch_obs(batch_obs)
            if recurrent_key is None:
                out = self.model(x)
            else:
                state = getattr(self, recurrent_key)
                out, state = self._recurrence.step(self.model, x, state)
                setattr(self, recurrent_key, state)
            out = self._action_value_for_acting(out, n)
        except Exception as e:
            if self._model_checked:
                raise
            shape = getattr(batch_obs[0], 'shape', None)
            raise ValueError(
                '{}.{}: the q_function could not evaluate a batch of {} '
                'observation(s) of shape {}: {}: {}'.format(
                    type(self).__name__, where, n, shape, type(e).__name__,
                    e)) from e
        if not self._model_checked:
            self._model_checked = True
            shape = getattr(batch_obs[0], 'shape', None)
            self._obs_shape = None if shape is None else tuple(shape)
        return out

    def _batch_obs(self, batch_obs):
        if self.batch_states is _default_batch_states:
            # The device itself spares the lookup from the array module.
            return _default_batch_states(batch_obs, self.model.device,
                                         self.phi)
        return self.batch_states(batch_obs, self.xp, self.phi)

    def _action_value_for_acting(self, out, batch_size):
        """The ActionValue greedy actions are taken from (IQN overrides)."""
        return out

    def _check_observe(self, batch_obs, batch_reward, batch_done,
                       batch_reset, where):
        owner = '{}.{}'.format(type(self).__name__, where)
        agent.BatchAgent._check_batch(
            owner, batch_obs=batch_obs, batch_reward=batch_reward,
            batch_done=batch_done, batch_reset=batch_reset)
        return owner

    # ------------------------------------------------------------------
    # target network and updates

    def sync_target_network(self):
        """Move the target network to the online one (copy or soft)."""
        if self.target_update_method == 'hard':
            copy_param(self.target_model, self.model)
        else:
            soft_copy_param(self.target_model, self.model,
                            self.soft_update_tau)

    def update(self, experiences, errors_out=None):
        """One gradient step on a minibatch of sampled n-step transitions.

        Args:
            experiences (list): items of ``replay_buffer.sample``.
            errors_out (list or None): receives the absolute TD errors.
        """
        has_weight = 'weight' in experiences[0][0]
        exp_batch = batch_experiences(experiences, xp=self.xp, phi=self.phi,
                                      gamma=self.gamma,
                                      batch_states=self.batch_states)
        if has_weight:
            exp_batch['weights'] = self.xp.asarray(numpy.asarray(
                [exp[0]['weight'] for exp in experiences],
                dtype=numpy.float32))
            if errors_out is None:
                errors_out = []
        loss = self._compute_loss(exp_batch, errors_out=errors_out)
        if has_weight:
            self.replay_buffer.update_errors(errors_out)
        self._apply_loss(loss)

    def update_from_episodes(self, episodes, errors_out=None):
        """One gradient step of a recurrent model on sampled episodes.

        ``episodes`` is a list of transition lists, or ``(episodes,
        weights)`` from a prioritized episodic buffer; then every
        transition's loss is scaled by its episode's weight and the
        episode's new priority comes from its mean absolute TD error.
        """
        weights = None
        if isinstance(episodes, tuple) and len(episodes) == 2:
            episodes, weights = episodes
        episodes = list(episodes)
        exp_batch = self._batch_episodes(episodes)
        lengths = [len(ep) for ep in episodes]
        if weights is not None:
            exp_batch['weights'] = self.xp.asarray(numpy.repeat(
                numpy.asarray(weights, dtype=numpy.float32), lengths))
            if errors_out is None:
                errors_out = []
        loss = self._compute_loss(exp_batch, errors_out=errors_out)
        if weights is not None:
            bounds = numpy.cumsum([0] + lengths)
            errors = numpy.asarray(errors_out, dtype=numpy.float64)
            self.replay_buffer.update_errors(
                [float(errors[a:b].mean()) for a, b in
                 zip(bounds[:-1], bounds[1:])])
        self._apply_loss(loss)

    def _batch_episodes(self, episodes):
        """Arrays of a recurrent update; per-step values episode-major,
        the order of the model's concatenated outputs."""
        xp, phi, gamma = self.xp, self.phi, self.gamma
        flat = [tr for ep in episodes for tr in ep]

        def column(key, dtype=None):
            return xp.asarray(numpy.asarray([tr[key] for tr in flat],
                                            dtype=dtype))

        batch = {
            'state': [self.batch_states([tr['state'] for tr in ep], xp, phi)
                      for ep in episodes],
            'next_state': [self.batch_states([tr['next_state'] for tr in ep],
                                             xp, phi) for ep in episodes],
            'action': column('action'),
            'reward': column('reward', numpy.float32),
            'is_state_terminal': column('is_state_terminal', numpy.float32),
            'discount': xp.asarray(numpy.full(len(flat), gamma,
                                              dtype=numpy.float32)),
        }
        if all(tr.get('next_action') is not None for tr in flat):
            batch['next_action'] = column('next_action')
        for key in ('recurrent_state', 'next_recurrent_state'):
            if all(key in ep[0] for ep in episodes):
                batch[key] = self._recurrence.concatenate(
                    self.model, [ep[0][key] for ep in episodes])
        return batch

    def _apply_loss(self, loss):
        self.average_loss *= self.average_loss_decay
        self.average_loss += (1 - self.average_loss_decay) * float(
            _arrays.to_host(loss))
        self.model.cleargrads()
        loss.backward()
        self.optimizer.update()

    def _forward_batch(self, model, exp_batch, key):
        """Model output on the batch's ``'state'`` or ``'next_state'``."""
        if self.recurrent:
            state_key = ('recurrent_state' if key == 'state'
                         else 'next_recurrent_state')
            return self._recurrence.sequences(model, exp_batch[key],
                                              exp_batch.get(state_key))
        return model(exp_batch[key])

    def _forward_target(self, exp_batch, key):
        with chainer.using_config('train', False):
            return self._forward_batch(self.target_model, exp_batch, key)

    def _forward_online_no_grad(self, exp_batch, key):
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            return self._forward_batch(self.model, exp_batch, key)

    def _bootstrap(self, exp_batch, next_values):
        """``r + discount * (1 - terminal) * next_values`` as an array."""
        next_values = _arrays.unwrap(next_values)
        return (exp_batch['reward'] + exp_batch['discount']
                * (1.0 - exp_batch['is_state_terminal']) * next_values)

    def _compute_target_values(self, exp_batch):
        """Q-learning targets, shape ``(batch_size,)``."""
        target_next = self._forward_target(exp_batch, 'next_state')
        return self._bootstrap(exp_batch, target_next.max)

    def _compute_y_and_t(self, exp_batch):
        """Predicted Q-values of the taken actions and their targets, both
        of shape ``(batch_size, 1)``."""
        batch_size = exp_batch['reward'].shape[0]
        qout = self._forward_batch(self.model, exp_batch, 'state')
        y = F.reshape(qout.evaluate_actions(exp_batch['action']),
                      (batch_size, 1))
        with chainer.no_backprop_mode():
            t = _arrays.unwrap(self._compute_target_values(exp_batch))
        return y, t.reshape((batch_size, 1))

    def _record_q(self, y):
        self.average_q *= self.average_q_decay
        self.average_q += (1 - self.average_q_decay) * float(
            _arrays.to_host(y).mean())

    def _compute_loss(self, exp_batch, errors_out=None):
        """The scalar loss of a batch; fills ``errors_out`` (if a list)
        with the absolute TD errors."""
        y, t = self._compute_y_and_t(exp_batch)
        self._record_q(y)
        if errors_out is not None:
            del errors_out[:]
            delta = numpy.abs(_arrays.to_host(y) - _arrays.to_host(t))
            errors_out.extend(delta.reshape(len(delta), -1).sum(
                axis=1).tolist())
        if 'weights' in exp_batch:
            return compute_weighted_value_loss(
                y, t, exp_batch['weights'], clip_delta=self.clip_delta,
                batch_accumulator=self.batch_accumulator)
        return compute_value_loss(y, t, clip_delta=self.clip_delta,
                                  batch_accumulator=self.batch_accumulator)

    # ------------------------------------------------------------------
    # the four primitives

    def _explore(self, action_value, greedy):
        if self._explorer_needs_values:
            return [self.explorer.select_action(
                self.t, lambda: greedy[i], action_value=action_value[i])
                for i in range(len(greedy))]
        return [self.explorer.select_action(self.t, lambda: greedy[i])
                for i in range(len(greedy))]

    def _batch_act_train(self, batch_obs):
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            if self.recurrent:
                self.train_prev_recurrent_states = \
                    self.train_recurrent_states
                av = self._forward_obs(batch_obs, 'batch_act_and_train',
                                       'train_recurrent_states')
            else:
                av = self._forward_obs(batch_obs, 'batch_act_and_train')
            greedy = _arrays.to_host(av.greedy_actions)
        actions = self._explore(av, greedy)
        self.batch_last_obs = list(batch_obs)
        self.batch_last_action = list(actions)
        return actions

    def _batch_act_eval(self, batch_obs):
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            if self.recurrent:
                if self._test_batch_size != len(batch_obs):
                    self.test_recurrent_states = None
                    self._test_batch_size = len(batch_obs)
                av = self._forward_obs(batch_obs, 'batch_act',
                                       'test_recurrent_states')
            else:
                av = self._forward_obs(batch_obs, 'batch_act')
            return _arrays.to_host(av.greedy_actions)

    def _transition(self, i, batch_obs, batch_reward, batch_done):
        transition = {
            'state': self.batch_last_obs[i],
            'action': self.batch_last_action[i],
            'reward': batch_reward[i],
            'next_state': batch_obs[i],
            'next_action': None,
            'is_state_terminal': bool(batch_done[i]),
        }
        if self.recurrent:
            rec = self._recurrence
            transition['recurrent_state'] = rec.state_at(
                self.model, self.train_prev_recurrent_states, i)
            transition['next_recurrent_state'] = rec.state_at(
                self.model, self.train_recurrent_states, i)
        return transition

    def _check_batch_len(self, owner, batch_obs):
        if len(batch_obs) != len(self.batch_last_obs):
            raise ValueError(
                '{}: got {} observations but the last batch_act_and_train '
                'acted in {} envs'.format(owner, len(batch_obs),
                                          len(self.batch_last_obs)))

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        owner = self._check_observe(batch_obs, batch_reward, batch_done,
                                    batch_reset, 'batch_observe_and_train')
        self._check_batch_len(owner, batch_obs)
        for i in range(len(batch_obs)):
            self.t += 1
            if self.t % self.target_update_interval == 0:
                self.sync_target_network()
            if self.batch_last_obs[i] is not None:
                self.replay_buffer.append(
                    env_id=i, **self._transition(i, batch_obs, batch_reward,
                                                 batch_done))
                if batch_done[i] or batch_reset[i]:
                    self.batch_last_obs[i] = None
                    self.batch_last_action[i] = None
                    self.replay_buffer.stop_current_episode(env_id=i)
            self.replay_updater.update_if_necessary(self.t)
        self._reset_ended_train_states(batch_done, batch_reset)

    def _reset_ended_train_states(self, batch_done, batch_reset):
        if self.recurrent:
            self.train_prev_recurrent_states = None
            self.train_recurrent_states = self._recurrence.mask(
                self.model, self.train_recurrent_states,
                self._ended(batch_done, batch_reset))

    @staticmethod
    def _ended(batch_done, batch_reset):
        return [i for i, (d, r) in enumerate(zip(batch_done, batch_reset))
                if d or r]

    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        self._check_observe(batch_obs, batch_reward, batch_done, batch_reset,
                            'batch_observe')
        if self.recurrent:
            self.test_recurrent_states = self._recurrence.mask(
                self.model, self.test_recurrent_states,
                self._ended(batch_done, batch_reset))

    def stop_episode(self):
        """End the current (evaluation) episode."""
        super().stop_episode()
        if self.recurrent and self._test_batch_size == 1:
            self.test_recurrent_states = None

    def get_statistics(self):
        """``average_q`` and ``average_loss`` (moving averages over
        updates) and ``n_updates``."""
        return [('average_q', self.average_q),
                ('average_loss', self.average_loss),
                ('n_updates', self.optimizer.t)]
