"""PCL: path consistency learning, from "Bridging the Gap Between Value
and Policy Based Reinforcement Learning" (Nachum et al., NIPS 2017)."""
import copy
import logging

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl import agent
from chainer_rl.agents import _pg_common as C
from chainer_rl.agents import _replay_ac as U
from chainer_rl.misc.batch_states import batch_states as _default_batch_states
from chainer_rl.misc.copy_param import copy_param
from chainer_rl.recurrent import RecurrentChainMixin
from chainer_rl import recurrent as R


class PCLSeparateModel(C.SeparatePiAndV, chainer.Chain, RecurrentChainMixin):
    """PCL model made of a policy ``pi`` and a V-function ``v`` sharing
    nothing; ``pi_and_v(obs)`` (or calling it) returns ``(action
    distribution, values)``."""


class PCLSharedModel(C.SharedPiAndV, chainer.Chain, RecurrentChainMixin):
    """PCL model whose policy ``pi`` and V-function ``v`` both read the
    features computed by ``shared``."""


def _call_model(model, x):
    pi_and_v = getattr(model, 'pi_and_v', None)
    out = pi_and_v(x) if pi_and_v is not None else model(x)
    if not isinstance(out, tuple) or len(out) != 2:
        raise TypeError('PCL: the model must return (action distribution, '
                        'state values), got {}'.format(type(out).__name__))
    return out


def _windows(T, rollout_len, gamma):
    """For each step t, the steps t .. t + d_t - 1 of its rollout
    (``d_t = min(T - t, rollout_len)``) as a flat index array of shape
    ``(T * rollout_len,)``, their discounts (0 past the window) and d_t."""
    t = numpy.arange(T)[:, None]
    i = numpy.arange(rollout_len)[None, :]
    d = numpy.minimum(T - numpy.arange(T), rollout_len)
    inside = i < d[:, None]
    index = numpy.where(inside, t + i, t).reshape(-1).astype(numpy.int32)
    discount = numpy.where(inside, gamma ** i, 0.0)
    return index, discount, d


class PCL(U.SegmentAgentMixin, agent.AttributeSavingMixin, agent.AsyncAgent,
          agent.BatchAgent):
    """Path consistency learning, from "Bridging the Gap Between Value and
    Policy Based Reinforcement Learning" (Nachum et al., NIPS 2017), in
    its batch form and its asynchronous variant.

    For each step t of a sequence and ``d = min(rollout_len, steps
    left)``, the soft consistency residual is

        ``C_t = -V(s_t) + gamma^d V(s_{t+d})
                + sum_{i<d} gamma^i (r_{t+i} - tau log pi(a_{t+i}|s_{t+i}))``

    (V of a terminal state is 0). The policy minimizes ``C^2 / (2 tau)``
    through the log-probabilities only and the V-function ``C^2 / 2``
    through the values only (also through ``V(s_{t+d})`` if
    ``backprop_future_values``). Sequences are the on-policy segments
    (``t_max`` steps, or whole episodes when it is None; ``batchsize`` of
    them per update) and, with a replay buffer, ``batchsize`` stored
    episodes (cut to ``t_max`` steps) ``n_times_replay`` times after each
    online update.

    Recurrent models keeping their own state are run step by step (stored
    episodes from the initial state); their state is reset when an episode
    ends. Synchronous training works on any device; with
    ``train_agent_async`` the model must be on ``@numpy``: with
    ``train_async`` each process computes gradients on its own copy and
    applies them to the shared model, otherwise all processes update the
    one shared model in place.

    Args:
        model: returns ``(action distribution, values)`` through
            ``pi_and_v`` or by being called (:class:`PCLSeparateModel`,
            :class:`PCLSharedModel`).
        optimizer (~chainer_core.Optimizer): set up with ``model``.
        replay_buffer (EpisodicReplayBuffer or None): stored episodes to
            replay (a prioritized one weighs the losses).
        t_max (int or None): steps per on-policy segment; None: whole
            episodes.
        gamma (float): discount factor.
        tau (float): weight of the entropy regularization.
        phi (callable): feature extractor applied to each observation.
        pi_loss_coef, v_loss_coef (float): weights of the two losses.
        rollout_len (int): longest path ``d`` of a residual.
        batchsize (int): sequences per update.
        disable_online_update (bool): learn from replay only.
        n_times_replay (int): replay updates after each online update.
        replay_start_size (int): stored transitions needed before replay.
        normalize_loss_by_steps (bool): divide each sequence's loss by its
            length.
        act_deterministically (bool): evaluation takes the most probable
            action instead of sampling.
        average_loss_decay, average_entropy_decay, average_value_decay
            (float): decay of the moving averages of ``get_statistics``.
        explorer (Explorer or None): turns the sampled action into the one
            taken while training.
        logger (logging.Logger or None): logger for debug messages.
        batch_states (callable): ``batch_states(list_of_obs, xp, phi)``.
        backprop_future_values (bool): the value loss also trains
            ``V(s_{t+d})``.
        train_async (bool): keep a process-local copy of the model (see
            above).
    """

    process_idx = None
    saved_attributes = ('model', 'optimizer')

    def __init__(self, model, optimizer, replay_buffer=None, t_max=None,
                 gamma=0.99, tau=1e-2, phi=C.identity, pi_loss_coef=1.0,
                 v_loss_coef=0.5, rollout_len=10, batchsize=1,
                 disable_online_update=False, n_times_replay=1,
                 replay_start_size=10 ** 2, normalize_loss_by_steps=True,
                 act_deterministically=False, average_loss_decay=0.999,
                 average_entropy_decay=0.999, average_value_decay=0.999,
                 explorer=None, logger=None,
                 batch_states=_default_batch_states,
                 backprop_future_values=True, train_async=False):
        owner = 'PCL'
        U.check_model(owner, model)
        U.check_optimizer(owner, optimizer, model)
        self.train_async = bool(train_async)
        if self.train_async:
            U.check_initialized(owner, model)
            self.shared_model = model
            self.model = copy.deepcopy(model)
        else:
            self.model = model
        self.optimizer = optimizer
        self.replay_buffer = U.check_replay_buffer(owner, replay_buffer)
        if t_max is not None:
            t_max = _arrays.check_int(owner, 't_max', t_max, 1)
        self.t_max = t_max
        self.gamma = C.check_float(owner, 'gamma', gamma, 0, 1)
        self.tau = C.check_float(owner, 'tau', tau)
        if self.tau <= 0:
            raise ValueError('PCL: tau must be positive, got {}'.format(tau))
        self.phi = phi
        self.pi_loss_coef = C.check_float(owner, 'pi_loss_coef', pi_loss_coef)
        self.v_loss_coef = C.check_float(owner, 'v_loss_coef', v_loss_coef)
        self.rollout_len = _arrays.check_int(owner, 'rollout_len',
                                             rollout_len, 1)
        self.batchsize = _arrays.check_int(owner, 'batchsize', batchsize, 1)
        self.disable_online_update = bool(disable_online_update)
        self.n_times_replay = _arrays.check_int(owner, 'n_times_replay',
                                                n_times_replay, 0)
        self.replay_start_size = _arrays.check_int(
            owner, 'replay_start_size', replay_start_size, 0)
        self.normalize_loss_by_steps = bool(normalize_loss_by_steps)
        self.act_deterministically = bool(act_deterministically)
        self.average_loss_decay = C.check_float(
            owner, 'average_loss_decay', average_loss_decay, 0, 1)
        self.average_entropy_decay = C.check_float(
            owner, 'average_entropy_decay', average_entropy_decay, 0, 1)
        self.average_value_decay = C.check_float(
            owner, 'average_value_decay', average_value_decay, 0, 1)
        if explorer is not None and not callable(
                getattr(explorer, 'select_action', None)):
            raise TypeError('PCL: explorer must be None or an Explorer, got '
                            '{}'.format(type(explorer).__name__))
        self.explorer = explorer
        self.logger = logger if logger is not None else logging.getLogger(
            __name__)
        self.batch_states = batch_states
        self.backprop_future_values = bool(backprop_future_values)
        self.recurrent = R.is_recurrent(model)
        self._runner = U.Runner(owner, phi, batch_states, self.recurrent)

        self.t = 0
        self.n_updates = 0
        self.average_loss = 0.0
        self.average_value = 0.0
        self.average_entropy = 0.0
        self._synced = not self.train_async
        self._train_state = None
        self._state_before_act = None
        self._eval_state = None
        self._eval_n = None
        self._pending = False
        self._last_error = float('nan')
        self._last_errors = []
        self._online = []       # finished segments awaiting an update
        self._clear_segment()

    @property
    def shared_attributes(self):
        """With ``train_async`` the shared model and the optimizer's
        states; otherwise the model itself, which all processes update."""
        if self.train_async:
            return ('shared_model', 'optimizer')
        return ('model', 'optimizer')

    @property
    def _latest_model(self):
        return self.shared_model if self.train_async else self.model

    def _clear_segment(self):
        self._seg_obs = []
        self._seg_actions = []
        self._seg_rewards = []
        self._seg_state = None

    def sync_parameters(self):
        """Copy the shared parameters into this process's model."""
        if self.train_async:
            copy_param(target_link=self.model, source_link=self.shared_model)
        self._synced = True

    # ------------------------------------------------------------------
    # primitives

    def _batch_act_train(self, batch_obs):
        method = 'batch_act_and_train'
        self._runner.single(method, batch_obs)
        if not self._synced:
            self.sync_parameters()
        self._drop_unobserved(self._seg_obs, self._seg_actions)
        obs = batch_obs[0]
        if not self._seg_obs:
            self._seg_state = self._train_state
        action, _, value, entropy = self._sample_train_action(
            method, _call_model, obs)
        if self.explorer is not None:
            sampled = action[0]
            chosen = self.explorer.select_action(self.t, lambda: sampled)
            action = numpy.asarray([chosen]).astype(action.dtype)
        self._seg_obs.append(obs)
        self._seg_actions.append(action[0])
        self._count_act(value, entropy)
        return action

    def _batch_act_eval(self, batch_obs):
        return self._act_eval('batch_act', self._latest_model, _call_model,
                              batch_obs)

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        obs, done, ended, transition = self._observe_outcome(
            batch_obs, batch_reward, batch_done, batch_reset)
        if ended or (self.t_max is not None
                     and len(self._seg_rewards) >= self.t_max):
            self._finish_segment(obs, done)
            if not self._online:
                for _ in range(self.n_times_replay):
                    self._update_from_replay()
        self._store(transition, ended)

    # ------------------------------------------------------------------
    # updates

    def _finish_segment(self, next_obs, done):
        if self._seg_rewards and not self.disable_online_update:
            T = len(self._seg_rewards)
            terminal = numpy.zeros(T, dtype=bool)
            terminal[-1] = done
            self._online.append(dict(
                obs=self._seg_obs + [next_obs], actions=self._seg_actions,
                rewards=self._seg_rewards, terminal=terminal,
                state=self._seg_state))
            if len(self._online) >= self.batchsize:
                losses = self._sequence_losses(self._online)
                self._apply(sum(losses) / self.batchsize)
                self._online = []
        self._clear_segment()

    def _update_from_replay(self):
        buffer = self.replay_buffer
        if buffer is None or len(buffer) < self.replay_start_size \
                or buffer.n_episodes < self.batchsize:
            return
        episodes, weights = U.sample_episodes(buffer, self.batchsize,
                                              self.t_max)
        seqs = [dict(obs=[tr['state'] for tr in ep]
                     + [ep[-1]['next_state']],
                     actions=[tr['action'] for tr in ep],
                     rewards=[tr['reward'] for tr in ep],
                     terminal=numpy.asarray([tr['is_state_terminal']
                                             for tr in ep], dtype=bool),
                     state=None)
                for ep in episodes if len(ep)]
        if not seqs:
            return
        losses = self._sequence_losses(seqs)
        U.update_priorities(buffer, self._last_errors)
        self._apply(sum(w * loss for w, loss in zip(weights, losses))
                    / self.batchsize)

    def _sequence_losses(self, seqs):
        """The loss of each sequence (``obs`` has one observation more than
        ``actions``: the one after the last step)."""
        model = self.model
        device = model.device
        outputs = []
        if self.recurrent:
            for seq in seqs:
                chunks, _ = self._runner.run(model, _call_model, seq['obs'],
                                             seq['state'])
                acts = numpy.stack([numpy.asarray(a) for a in
                                    seq['actions']])
                log_probs, values = [], []
                for (distrib, v), a, b in chunks:
                    values.append(U.flat('PCL', 'state values', v, b - a))
                    if a < len(acts):
                        log_probs.append(distrib.log_prob(device.send(
                            numpy.ascontiguousarray(acts[a:b]))))
                outputs.append((F.concat(log_probs, axis=0),
                                F.concat(values, axis=0)))
        else:
            # One call on every observation of every sequence; the extra
            # observation of each sequence is paired with a repeated
            # action whose log-probability is dropped.
            obs, acts, bounds = [], [], []
            for seq in seqs:
                start = len(obs)
                obs.extend(seq['obs'])
                a = [numpy.asarray(x) for x in seq['actions']]
                acts.extend(a + [a[-1]])
                bounds.append((start, len(obs)))
            chunks, _ = self._runner.run(model, _call_model, obs)
            (distrib, v), _, _ = chunks[0]
            values = U.flat('PCL', 'state values', v, len(obs))
            log_probs = distrib.log_prob(device.send(numpy.ascontiguousarray(
                numpy.stack(acts))))
            for a, b in bounds:
                outputs.append((log_probs[a:b - 1], values[a:b]))
        losses, errors = [], []
        for seq, (log_probs, values) in zip(seqs, outputs):
            keep = 1.0 - numpy.asarray(seq['terminal'], dtype=numpy.float64)
            next_values = values[1:] * device.send(
                keep.astype(values.dtype))
            losses.append(self.compute_loss(seq['rewards'], values[:-1],
                                            next_values, log_probs))
            errors.append(self._last_error)
        # Mean absolute residual of each sequence: the priority of a
        # replayed episode when the buffer asks for one.
        self._last_errors = errors
        return losses

    def compute_loss(self, rewards, values, next_values, log_probs):
        """PCL's loss on one sequence of T steps.

        Args:
            rewards: the T rewards.
            values (~chainer_core.Variable): ``V(s_t)``, shape ``(T,)``.
            next_values (~chainer_core.Variable): ``V(s_{t+1})`` (0 after a
                terminal step), shape ``(T,)``.
            log_probs (~chainer_core.Variable): ``log pi(a_t|s_t)``, shape
                ``(T,)``.

        Returns:
            The loss Variable (sum of the policy and value losses).
        """
        rewards = numpy.asarray(rewards, dtype=numpy.float64)
        T = len(rewards)
        dtype = values.dtype
        device = _arrays.device_of(values)

        def const(x):
            return device.send(numpy.ascontiguousarray(x, dtype=dtype))

        L = self.rollout_len
        index, discount, d = _windows(T, L, self.gamma)
        reward_sums = (rewards[index.reshape(T, L)] * discount).sum(axis=1)
        window_log_probs = F.reshape(log_probs[device.send(index)], (T, L))
        entropy_terms = F.sum(window_log_probs * const(discount), axis=1)
        last = device.send((numpy.arange(T) + d - 1).astype(numpy.int32))
        last_values = next_values[last]
        if not self.backprop_future_values:
            last_values = chainer.Variable(last_values.array,
                                           requires_grad=False)
        future = const(self.gamma ** d)
        v_h = C.to_host(values).astype(numpy.float64)
        last_h = C.to_host(last_values).astype(numpy.float64)
        g_h = C.to_host(entropy_terms).astype(numpy.float64)
        # The policy's residual carries gradients through log pi only, the
        # value's through V only.
        residual = -v_h + self.gamma ** d * last_h + reward_sums
        self._last_error = float(numpy.abs(residual - self.tau * g_h).mean())
        c_pi = const(residual) - self.tau * entropy_terms
        c_v = -values + future * last_values + const(
            reward_sums - self.tau * g_h)
        pi_loss = F.sum(F.square(c_pi)) / 2 / self.tau * self.pi_loss_coef
        v_loss = F.sum(F.square(c_v)) / 2 * self.v_loss_coef
        if self.normalize_loss_by_steps:
            pi_loss = pi_loss / T
            v_loss = v_loss / T
        return pi_loss + v_loss

    def _apply(self, loss):
        self.average_loss += (1 - self.average_loss_decay) * (
            float(C.to_host(loss)) - self.average_loss)
        self.model.cleargrads()
        loss.backward()
        if self.train_async:
            U.push_grads(self.model, self.shared_model)
        if self.process_idx == 0:
            self.logger.debug('PCL update %d loss:%s', self.n_updates,
                              self.average_loss)
        self.optimizer.update()
        self.n_updates += 1
        if self.train_async:
            self.sync_parameters()

    # ------------------------------------------------------------------

    def save(self, dirname):
        """Save the latest parameters (as ``model``) and the optimizer."""
        if self.train_async:
            copy_param(target_link=self.model, source_link=self.shared_model)
        super().save(dirname)

    def load(self, dirname):
        """Load into this process's model (and the shared one)."""
        super().load(dirname)
        if self.train_async:
            copy_param(target_link=self.shared_model, source_link=self.model)
        self._synced = True

    def get_statistics(self):
        """ChainerRL's PCL statistics: moving averages of the loss and of
        the values and entropies seen while acting."""
        return [
            ('average_loss', self.average_loss),
            ('average_value', self.average_value),
            ('average_entropy', self.average_entropy),
        ]
