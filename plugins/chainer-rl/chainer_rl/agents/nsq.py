"""Asynchronous n-step Q-learning."""
import copy
from logging import getLogger
import multiprocessing

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl import agent
from chainer_rl.agents import _recurrence
from chainer_rl.agents.dqn import _EXPLORERS_IGNORING_VALUES
from chainer_rl.misc.batch_states import batch_states as _default_batch_states
from chainer_rl.misc.copy_param import copy_param
from chainer_rl import recurrent as _recurrent


class NSQ(agent.AttributeSavingMixin, agent.AsyncAgent, agent.BatchAgent):
    """Asynchronous n-step Q-learning, from "Asynchronous Methods for Deep
    Reinforcement Learning" (Mnih et al., 2016).

    Every process acts with its own copy of the Q-function for up to
    ``t_max`` steps, then regresses the Q-values of those steps on their
    n-step returns (bootstrapped from the target network), applies the
    gradient to the Q-function shared by all processes and copies the
    shared parameters back. The target network is shared too and follows
    the shared Q-function every ``i_target`` global steps. Train it with
    ``chainer_rl.experiments.train_agent_async``; the Q-function must then
    be on the ``@numpy`` device, whose arrays can be placed in shared
    memory. Outside of it (one process) any device works.

    Acting in a batch of envs is supported: a segment then ends for all of
    them as soon as one episode ends. A Q-function keeping a recurrent
    state (``L.LSTM`` ...) is trained through time within segments.

    Args:
        q_function (Link): the shared Q-function (observations ->
            ActionValue).
        optimizer (Optimizer): set up with ``q_function``.
        t_max (int): steps per update.
        gamma (float): discount factor.
        i_target (int): global steps between target network updates.
        explorer (Explorer): chooses the training actions; it sees the
            global step count.
        phi (callable): feature extractor applied to observations.
        average_q_decay (float): decay of the moving average of the greedy
            Q-values reported by ``get_statistics``.
        logger (Logger): where debug messages go.
        batch_states (callable): ``(observations, xp, phi) -> batch``.
    """

    process_idx = None
    saved_attributes = ('q_function', 'target_q_function', 'optimizer')

    def __init__(self, q_function, optimizer, t_max, gamma, i_target,
                 explorer, phi=lambda x: x, average_q_decay=0.999,
                 logger=getLogger(__name__),
                 batch_states=_default_batch_states):
        owner = type(self).__name__
        if not isinstance(q_function, chainer.Link):
            raise TypeError('{}: q_function must be a chainer_core Link, got '
                            '{}'.format(owner, type(q_function).__name__))
        if not isinstance(optimizer, chainer.Optimizer) or \
                optimizer.target is not q_function:
            raise ValueError('{}: optimizer must be a chainer_core Optimizer '
                             'set up with q_function (optimizer.setup('
                             'q_function))'.format(owner))
        if not callable(getattr(explorer, 'select_action', None)):
            raise TypeError('{}: explorer must be an Explorer, got {}'.format(
                owner, type(explorer).__name__))
        self.t_max = _arrays.check_int(owner, 't_max', t_max, 1)
        self.i_target = _arrays.check_int(owner, 'i_target', i_target, 1)
        self.gamma = self._check_unit(owner, 'gamma', gamma)
        self.average_q_decay = self._check_unit(owner, 'average_q_decay',
                                                average_q_decay)
        _arrays.check_callable(owner, 'phi', phi)
        _arrays.check_callable(owner, 'batch_states', batch_states)
        self.shared_q_function = q_function
        self.q_function = copy.deepcopy(q_function)
        self.target_q_function = copy.deepcopy(q_function)
        self.optimizer = optimizer
        self.explorer = explorer
        self.phi = phi
        self.logger = logger
        self.batch_states = batch_states
        self.recurrent = _recurrence.is_recurrent_model(q_function)
        if self.recurrent and _recurrence.is_stateless_recurrent(q_function):
            raise ValueError('{}: StatelessRecurrent Q-functions are not '
                             'supported; use links keeping their state '
                             '(L.LSTM ...)'.format(owner))
        self.t_global = multiprocessing.Value('l', 0)
        self.t = 0
        self.t_start = 0
        self.average_q = 0.0
        self.n_updates = 0
        self._obs_shape = None
        self._n_envs = None
        self._test_n_envs = None
        self._explorer_needs_values = getattr(
            type(explorer), 'select_action',
            None) not in _EXPLORERS_IGNORING_VALUES
        self._clear_segment()

    @staticmethod
    def _check_unit(owner, name, value):
        if isinstance(value, bool) or not isinstance(
                value, (int, float, numpy.integer, numpy.floating)) or \
                not 0.0 <= float(value) <= 1.0:
            raise ValueError('{}: {} must be a number in [0, 1], got {!r}'
                             .format(owner, name, value))
        return float(value)

    @property
    def shared_attributes(self):
        """The shared Q-function, the target network, the optimizer's
        states and the global step counter."""
        return ('shared_q_function', 'target_q_function', 'optimizer',
                't_global')

    def _clear_segment(self):
        self._obs = []          # per step: list of observations
        self._actions = []      # per step: host int array
        self._q_taken = []      # per step (recurrent): Variable (n,)
        self._rewards = []      # per step: host float array
        self._pending = False

    def sync_parameters(self):
        """Copy the shared parameters into this process's Q-function."""
        copy_param(target_link=self.q_function,
                   source_link=self.shared_q_function)

    # ------------------------------------------------------------------

    def _check_obs(self, batch_obs, where):
        return _arrays.count_obs(
            '{}.{}'.format(type(self).__name__, where), batch_obs,
            self._obs_shape)

    def _x(self, model, batch_obs):
        if self.batch_states is _default_batch_states:
            return _default_batch_states(batch_obs, model.device, self.phi)
        return self.batch_states(batch_obs, model.xp, self.phi)

    def _call(self, model, batch_obs, where):
        try:
            out = model(self._x(model, batch_obs))
        except Exception as e:
            if self._obs_shape is not None:
                raise
            raise ValueError(
                '{}.{}: the q_function could not evaluate a batch of {} '
                'observation(s) of shape {}: {}: {}'.format(
                    type(self).__name__, where, len(batch_obs),
                    getattr(batch_obs[0], 'shape', None), type(e).__name__,
                    e)) from e
        if self._obs_shape is None:
            shape = getattr(batch_obs[0], 'shape', None)
            self._obs_shape = None if shape is None else tuple(shape)
        return out

    def _advance_global_t(self, n):
        with self.t_global.get_lock():
            before = self.t_global.value
            self.t_global.value = after = before + n
        if after // self.i_target != before // self.i_target:
            copy_param(target_link=self.target_q_function,
                       source_link=self.shared_q_function)
            self.logger.debug('target synchronized t_global:%s t_local:%s',
                              after, self.t)

    def _batch_act_train(self, batch_obs):
        where = 'batch_act_and_train'
        n = self._check_obs(batch_obs, where)
        if self._pending:
            raise RuntimeError('{}.{}: the previous actions were not '
                               'observed; call batch_observe_and_train '
                               'first'.format(type(self).__name__, where))
        if self._n_envs not in (None, n):
            if self._rewards:
                raise ValueError(
                    '{}.{}: got {} observations in the middle of a segment '
                    'of {} envs'.format(type(self).__name__, where, n,
                                        self._n_envs))
            _recurrent.reset_recurrent_state(self.q_function)
            _recurrent.reset_recurrent_state(self.target_q_function)
        self._n_envs = n
        if self.recurrent:
            # Through time: keep the graph of the taken actions' values.
            with chainer.using_config('train', False):
                qout = self._call(self.q_function, batch_obs, where)
                with chainer.no_backprop_mode():
                    # Keeps the target's state in step for bootstrapping.
                    self.target_q_function(self._x(self.target_q_function,
                                                   batch_obs))
        else:
            with chainer.using_config('train', False), \
                    chainer.no_backprop_mode():
                qout = self._call(self.q_function, batch_obs, where)
        greedy = _arrays.to_host(qout.greedy_actions)
        t = self.t_global.value
        if self._explorer_needs_values:
            actions = [self.explorer.select_action(
                t, lambda: greedy[i], action_value=qout[i])
                for i in range(n)]
        else:
            actions = [self.explorer.select_action(t, lambda: greedy[i])
                       for i in range(n)]
        host_actions = numpy.asarray(actions)
        q_max = _arrays.to_host(qout.max)
        self.average_q += (1 - self.average_q_decay) * (
            float(q_max.mean()) - self.average_q)
        if self.recurrent:
            self._q_taken.append(qout.evaluate_actions(
                host_actions.astype(numpy.int32)))
        self._obs.append(list(batch_obs))
        self._actions.append(host_actions)
        self._pending = True
        self.t += 1
        self._advance_global_t(n)
        return actions

    def _batch_act_eval(self, batch_obs):
        # The shared Q-function holds the latest parameters, in every
        # process and in the parent after training.
        n = self._check_obs(batch_obs, 'batch_act')
        if self.recurrent and self._test_n_envs not in (None, n):
            _recurrent.reset_recurrent_state(self.shared_q_function)
        self._test_n_envs = n
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            qout = self._call(self.shared_q_function, batch_obs, 'batch_act')
            return _arrays.to_host(qout.greedy_actions)

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        owner = '{}.batch_observe_and_train'.format(type(self).__name__)
        agent.BatchAgent._check_batch(
            owner, batch_obs=batch_obs, batch_reward=batch_reward,
            batch_done=batch_done, batch_reset=batch_reset)
        if not self._pending:
            raise RuntimeError('{}: there are no actions to observe; call '
                               'batch_act_and_train first'.format(owner))
        if len(batch_obs) != self._n_envs:
            raise ValueError('{}: got {} observations but the last '
                             'batch_act_and_train acted in {} envs'.format(
                                 owner, len(batch_obs), self._n_envs))
        self._check_obs(batch_obs, 'batch_observe_and_train')
        self._pending = False
        self._rewards.append(numpy.asarray(batch_reward, dtype=numpy.float64))
        dones = numpy.asarray(batch_done, dtype=bool)
        ended = dones | numpy.asarray(batch_reset, dtype=bool)
        if self.t - self.t_start < self.t_max and not ended.any():
            return
        bootstrap = numpy.zeros(len(batch_obs))
        if not dones.all():
            with chainer.using_config('train', False), \
                    chainer.no_backprop_mode(), \
                    _recurrent.state_kept(self.target_q_function):
                values = self.target_q_function(self._x(
                    self.target_q_function, batch_obs)).max
            bootstrap = numpy.where(dones, 0.0, _arrays.to_host(values))
        self.update(bootstrap)
        if self.recurrent and ended.any():
            mask = ended if len(ended) > 1 else None
            _recurrent.reset_recurrent_state(self.q_function, mask)
            _recurrent.reset_recurrent_state(self.target_q_function, mask)

    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        if not self.recurrent:
            return
        ended = numpy.asarray(batch_done, dtype=bool) | numpy.asarray(
            batch_reset, dtype=bool)
        if ended.any():
            _recurrent.reset_recurrent_state(
                self.shared_q_function, ended if len(ended) > 1 else None)

    # ------------------------------------------------------------------

    def _segment_q_taken(self):
        """Q-values of the segment's actions, ``(steps, n_envs)``."""
        steps, n = len(self._obs), self._n_envs
        if self.recurrent:
            return F.stack(self._q_taken)
        obs = [o for step in self._obs for o in step]
        qout = self.q_function(self._x(self.q_function, obs))
        actions = numpy.concatenate(self._actions).astype(numpy.int32)
        return F.reshape(qout.evaluate_actions(actions), (steps, n))

    def update(self, bootstrap):
        """One gradient step of the shared Q-function on the current
        segment, given the bootstrap values (one per env) after it."""
        steps = len(self._rewards)
        if steps == 0:
            return
        returns = numpy.empty((steps, len(bootstrap)))
        ret = numpy.asarray(bootstrap, dtype=numpy.float64)
        for i in range(steps - 1, -1, -1):
            ret = self._rewards[i] + self.gamma * ret
            returns[i] = ret
        q = self._segment_q_taken()
        target = _arrays.like(returns.astype(q.dtype), q.array)
        loss = F.sum(F.huber_loss(F.reshape(q, (-1, 1)),
                                  target.reshape((-1, 1)), delta=1.0))
        self.q_function.cleargrads()
        loss.backward()
        shared = dict(self.shared_q_function.namedparams())
        for name, param in self.q_function.namedparams():
            shared[name].grad = param.grad
        self.optimizer.update()
        self.n_updates += 1
        self.sync_parameters()
        if self.recurrent:
            _recurrent.unchain_backward(
                _recurrent.get_recurrent_state(self.q_function))
        self._clear_segment()
        self.t_start = self.t

    # ------------------------------------------------------------------

    def stop_episode_and_train(self, obs, reward, done=False):
        """ChainerRL: learn from the episode's last step and end it."""
        super().stop_episode_and_train(obs, reward, done)
        if self.recurrent:
            _recurrent.reset_recurrent_state(self.q_function)
            _recurrent.reset_recurrent_state(self.target_q_function)

    def save(self, dirname):
        """Save the shared parameters (as ``q_function``), the target
        network and the optimizer."""
        self.sync_parameters()
        super().save(dirname)

    def load(self, dirname):
        """Load into this process's Q-function and the shared one."""
        super().load(dirname)
        copy_param(target_link=self.shared_q_function,
                   source_link=self.q_function)

    def get_statistics(self):
        """``average_q``: moving average of the greedy Q-values seen while
        acting."""
        return [('average_q', self.average_q)]
