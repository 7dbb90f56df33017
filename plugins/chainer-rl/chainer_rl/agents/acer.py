"""ACER: actor-critic with experience replay, from "Sample Efficient
Actor-Critic with Experience Replay" (Wang et al., ICLR 2017)."""
import copy
import logging

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl import agent
from chainer_rl import distribution as D
from chainer_rl.action_value import SingleActionValue
from chainer_rl.agents import _pg_common as C
from chainer_rl.agents import _replay_ac as U
from chainer_rl.misc.batch_states import batch_states as _batch_states
from chainer_rl.misc.copy_param import copy_param
from chainer_rl.misc.copy_param import soft_copy_param
from chainer_rl.recurrent import RecurrentChainMixin
from chainer_rl import recurrent as R


_LOG_2PI = numpy.log(2 * numpy.pi)
# exp() of larger log-ratios overflows float64; such ratios are truncated
# anyway.
_MAX_LOG_RATIO = 80.0


# ----------------------------------------------------------------------
# models

def _state_value_of_q(distrib, action_value):
    """V(s) = E_{a~pi}[Q(s, a)] for discrete actions."""
    if not isinstance(distrib, D.CategoricalDistribution):
        raise TypeError('ACER: a model with a Q-function over discrete '
                        'actions needs a categorical policy, got {}'.format(
                            type(distrib).__name__))
    q_values = getattr(action_value, 'q_values', None)
    if q_values is None:
        raise TypeError('ACER: the Q-function must return a '
                        'DiscreteActionValue, got {}'.format(
                            type(action_value).__name__))
    return F.sum(distrib.all_prob * q_values, axis=1)


class ACERSeparateModel(chainer.Chain, RecurrentChainMixin):
    """ACER model for discrete actions: a policy ``pi`` and a Q-function
    ``q`` sharing nothing; ``V(s)`` is the policy's expectation of ``Q``.

    Calling it on a batch of observations returns ``(action distribution,
    DiscreteActionValue, values)``.
    """

    def __init__(self, pi, q):
        super().__init__()
        with self.init_scope():
            self.pi = pi
            self.q = q

    def forward(self, obs):
        distrib = self.pi(obs)
        action_value = self.q(obs)
        return distrib, action_value, _state_value_of_q(distrib,
                                                        action_value)


class ACERSharedModel(chainer.Chain, RecurrentChainMixin):
    """ACER model for discrete actions whose policy ``pi`` and Q-function
    ``q`` both read the features computed by ``shared``."""

    def __init__(self, shared, pi, q):
        super().__init__()
        with self.init_scope():
            self.shared = shared
            self.pi = pi
            self.q = q

    def forward(self, obs):
        h = self.shared(obs)
        distrib = self.pi(h)
        action_value = self.q(h)
        return distrib, action_value, _state_value_of_q(distrib,
                                                        action_value)


def _sdn_action_value(adv, obs, distrib, v, n):
    """Stochastic dueling network: ``Q(s, a) = V(s) + A(s, a) - mean of
    A(s, a') over n actions a' drawn from the policy`` (the draws are
    constants, so no gradient reaches the policy through Q)."""

    def evaluator(action):
        with chainer.no_backprop_mode():
            draws = [distrib.sample().array for _ in range(n)]
        if not isinstance(obs, chainer.Variable) and not _arrays.is_array(
                obs):
            baseline = sum(adv(obs, a) for a in draws) / n
            return v + adv(obs, action) - baseline
        # One call on the action and the n draws stacked.
        batch = obs.shape[0]
        out = adv(F.concat([obs] * (n + 1), axis=0),
                  F.concat([action] + draws, axis=0))
        out = F.reshape(out, (n + 1, batch) + out.shape[1:])
        return v + out[0] - F.sum(out[1:], axis=0) / n

    return SingleActionValue(evaluator)


class ACERSDNSeparateModel(chainer.Chain, RecurrentChainMixin):
    """ACER model for continuous actions with a stochastic dueling network:
    a policy ``pi``, a V-function ``v`` and an advantage function ``adv``
    of ``(obs, action)`` (a state-action Q-function link).

    Args:
        pi, v, adv: the three links.
        n (int): number of policy samples averaged to centre ``adv``.
    """

    def __init__(self, pi, v, adv, n=5):
        super().__init__()
        self.n = _arrays.check_int(type(self).__name__, 'n', n, 1)
        with self.init_scope():
            self.pi = pi
            self.v = v
            self.adv = adv

    def forward(self, obs):
        distrib = self.pi(obs)
        v = self.v(obs)
        return (distrib, _sdn_action_value(self.adv, obs, distrib, v,
                                           self.n), v)


class ACERSDNSharedModel(chainer.Chain, RecurrentChainMixin):
    """Stochastic dueling network model whose ``pi``, ``v`` and ``adv`` read
    the features computed by ``shared``."""

    def __init__(self, shared, pi, v, adv, n=5):
        super().__init__()
        self.n = _arrays.check_int(type(self).__name__, 'n', n, 1)
        with self.init_scope():
            self.shared = shared
            self.pi = pi
            self.v = v
            self.adv = adv

    def forward(self, obs):
        h = self.shared(obs)
        distrib = self.pi(h)
        v = self.v(h)
        return distrib, _sdn_action_value(self.adv, h, distrib, v,
                                          self.n), v


# ----------------------------------------------------------------------
# importance weights and Retrace

def _ratio(log_num, log_den):
    """``exp(log_num - log_den)``, 1 where both are zero probabilities and
    large but finite where only the denominator is."""
    with numpy.errstate(invalid='ignore'):
        diff = numpy.asarray(log_num, numpy.float64) - numpy.asarray(
            log_den, numpy.float64)
    diff = numpy.where(numpy.isnan(diff), 0.0, diff)
    return numpy.exp(numpy.minimum(diff, _MAX_LOG_RATIO))


def _host_log_prob(distrib, actions):
    """Log-probabilities of the host ``actions`` under ``distrib`` as a
    float64 host array (the common distributions are evaluated from their
    parameters on the host, so pi and mu are computed alike)."""
    actions = numpy.asarray(actions)
    if isinstance(distrib, D.CategoricalDistribution):
        all_log = C.to_host(distrib.all_log_prob).astype(numpy.float64)
        return all_log[numpy.arange(len(all_log)), actions.astype(numpy.int64)]
    if type(distrib) is D.GaussianDistribution:
        mean = C.to_host(distrib.mean).astype(numpy.float64)
        var = C.to_host(distrib.var).astype(numpy.float64)
        diff = actions.astype(numpy.float64).reshape(mean.shape) - mean
        return -0.5 * (_LOG_2PI + numpy.log(var)
                       + diff * diff / var).sum(axis=1)
    ref = distrib.params[0]
    x = _arrays.like(actions, ref)
    return C.to_host(distrib.log_prob(x)).astype(numpy.float64)


def _rows_log_prob(distribs, actions):
    """Log-probabilities of ``actions[t]`` under ``distribs[t]`` (one
    single-row distribution per step, as stored in the replay buffer)."""
    actions = numpy.asarray(actions)
    if all(type(d) is D.GaussianDistribution for d in distribs):
        mean = numpy.concatenate([C.to_host(d.mean) for d in distribs])
        var = numpy.concatenate([C.to_host(d.var) for d in distribs])
        return _host_log_prob(D.GaussianDistribution(mean, var), actions)
    return numpy.concatenate([_host_log_prob(d, actions[t:t + 1])
                              for t, d in enumerate(distribs)])


def compute_importance(pi, mu, x):
    """Importance weights ``pi(x) / mu(x)`` of a batch of actions ``x``,
    one per row, as a float64 host array."""
    x = C.to_host(x)
    return _ratio(_host_log_prob(pi, x), _host_log_prob(mu, x))


def compute_full_importance(pi, mu):
    """``pi(a) / mu(a)`` for every discrete action ``a``: a float64 host
    array of shape ``(batch_size, n_actions)``."""
    return _ratio(C.to_host(pi.all_log_prob), C.to_host(mu.all_log_prob))


def compute_retrace_targets(rewards, q_taken, values, rho, gamma, bootstrap,
                            exponent=1.0):
    """Retrace targets of a sequence of steps, computed backwards.

    ``Q_ret(t) = r_t + gamma * (c_{t+1} * (Q_ret(t+1) - Q(t+1)) + V(t+1))``
    with ``c = min(1, rho ** exponent)`` (``exponent`` is 1 for discrete
    actions and ``1 / action_dim`` for continuous ones), starting from
    ``bootstrap`` (0 after a terminal state, otherwise the value of the
    state after the last step). ``Q_opc`` is the same without importance
    weights (``c = 1``).

    Returns:
        ``(q_ret, q_opc)``, float64 arrays of shape ``(T,)``.
    """
    rewards = numpy.asarray(rewards, numpy.float64)
    q_taken = numpy.asarray(q_taken, numpy.float64)
    values = numpy.asarray(values, numpy.float64)
    rho = numpy.asarray(rho, numpy.float64)
    q_ret = numpy.empty(len(rewards))
    q_opc = numpy.empty(len(rewards))
    ret = opc = float(bootstrap)
    for t in range(len(rewards) - 1, -1, -1):
        ret = rewards[t] + gamma * ret
        opc = rewards[t] + gamma * opc
        q_ret[t] = ret
        q_opc[t] = opc
        c = min(1.0, float(rho[t]) ** exponent)
        ret = c * (ret - q_taken[t]) + values[t]
        opc = opc - q_taken[t] + values[t]
    return q_ret, q_opc


def _call_model(model, x):
    out = model(x)
    if not isinstance(out, tuple) or len(out) != 3:
        raise TypeError('ACER: the model must return (action distribution, '
                        'action value, state values), got {}'.format(
                            type(out).__name__))
    return out


class ACER(U.SegmentAgentMixin, agent.AttributeSavingMixin,
           agent.AsyncAgent, agent.BatchAgent):
    """ACER, from "Sample Efficient Actor-Critic with Experience Replay"
    (Wang et al., ICLR 2017).

    Each process acts with its own copy of the model for ``t_max`` steps
    (or until the episode ends), then applies to the shared model the
    gradient of an on-policy actor-critic loss on that segment, followed by
    ``n_times_replay`` off-policy updates on segments of stored episodes.
    Off-policy steps weigh the policy gradient by the importance weight
    truncated at ``truncation_threshold`` and add the bias correction over
    the actions the truncation under-weighs (all actions when discrete, one
    sampled action when continuous); the Q-function regresses on Retrace
    targets. With ``use_trust_region`` the policy gradient with respect to
    the distribution's parameters is projected, per step, so that its
    first-order increase of the KL divergence from an exponential moving
    average of the policy (``trust_region_alpha``) stays under
    ``trust_region_delta``.

    The model returns ``(action distribution, action value, state values)``
    (:class:`ACERSeparateModel` and :class:`ACERSharedModel` for discrete
    actions, :class:`ACERSDNSeparateModel` and :class:`ACERSDNSharedModel`
    for continuous ones). Recurrent models keeping their own state are run
    step by step; their state is reset when an episode ends. Synchronous
    training works on any device; ``train_agent_async`` needs the model on
    ``@numpy``.

    Args:
        model: the shared model (the optimizer's target).
        optimizer (~chainer_core.Optimizer): set up with ``model``.
        t_max (int): steps per on-policy update (and the longest replayed
            segment).
        gamma (float): discount factor.
        replay_buffer (EpisodicReplayBuffer or None): stores episodes with
            the behaviour distribution ``mu`` of each step; None disables
            replay.
        beta (float): weight of the entropy bonus.
        process_idx (int): index of this process (set by
            ``train_agent_async``).
        phi (callable): feature extractor applied to each observation.
        pi_loss_coef, Q_loss_coef (float): weights of the policy and
            Q-function losses.
        use_trust_region (bool): use the efficient trust region update.
        trust_region_alpha (float): decay of the average policy.
        trust_region_delta (float): bound of the KL step.
        truncation_threshold (float or None): truncation ``c`` of the
            importance weights; None uses them untruncated, without bias
            correction.
        disable_online_update (bool): learn from replay only.
        n_online_update (int): updates on each on-policy segment; the
            first is on-policy, later ones treat the segment as off-policy
            data of the policy that acted.
        replay_start_size (int): stored transitions needed before replay.
        n_times_replay (int): replay updates after each segment.
        use_Q_opc (bool): the policy gradient's advantage uses ``Q_opc``
            (no importance weights) instead of ``Q_ret``, as the paper
            recommends for continuous actions.
        average_entropy_decay, average_value_decay, average_kl_decay
            (float): decay of the moving averages of ``get_statistics``.
        logger (logging.Logger or None): logger for debug messages.
        normalize_loss_by_steps (bool): divide each loss by the number of
            steps it sums over.
        act_deterministically (bool): evaluation takes the most probable
            action instead of sampling.
    """

    process_idx = None
    saved_attributes = ('model', 'optimizer')

    def __init__(self, model, optimizer, t_max, gamma, replay_buffer,
                 beta=1e-2, process_idx=0, phi=C.identity, pi_loss_coef=1.0,
                 Q_loss_coef=0.5, use_trust_region=True,
                 trust_region_alpha=0.99, trust_region_delta=1,
                 truncation_threshold=10, disable_online_update=False,
                 n_online_update=1, replay_start_size=10 ** 4,
                 n_times_replay=1, use_Q_opc=False,
                 average_entropy_decay=0.999, average_value_decay=0.999,
                 average_kl_decay=0.999, logger=None,
                 normalize_loss_by_steps=True, act_deterministically=False):
        owner = 'ACER'
        U.check_model(owner, model)
        U.check_optimizer(owner, optimizer, model)
        U.check_initialized(owner, model)
        self.shared_model = model
        self.shared_average_model = copy.deepcopy(model)
        self.model = copy.deepcopy(model)
        self.optimizer = optimizer
        self.t_max = _arrays.check_int(owner, 't_max', t_max, 1)
        self.gamma = C.check_float(owner, 'gamma', gamma, 0, 1)
        self.replay_buffer = U.check_replay_buffer(owner, replay_buffer)
        self.beta = C.check_float(owner, 'beta', beta)
        self.process_idx = process_idx
        self.phi = phi
        self.pi_loss_coef = C.check_float(owner, 'pi_loss_coef', pi_loss_coef)
        self.Q_loss_coef = C.check_float(owner, 'Q_loss_coef', Q_loss_coef)
        self.use_trust_region = bool(use_trust_region)
        self.trust_region_alpha = C.check_float(
            owner, 'trust_region_alpha', trust_region_alpha, 0, 1)
        self.trust_region_delta = C.check_float(
            owner, 'trust_region_delta', trust_region_delta, 0)
        if truncation_threshold is not None:
            truncation_threshold = C.check_float(
                owner, 'truncation_threshold', truncation_threshold, 0)
        self.truncation_threshold = truncation_threshold
        self.disable_online_update = bool(disable_online_update)
        self.n_online_update = _arrays.check_int(owner, 'n_online_update',
                                                 n_online_update, 1)
        self.replay_start_size = _arrays.check_int(
            owner, 'replay_start_size', replay_start_size, 0)
        self.n_times_replay = _arrays.check_int(owner, 'n_times_replay',
                                                n_times_replay, 0)
        self.use_Q_opc = bool(use_Q_opc)
        self.average_entropy_decay = C.check_float(
            owner, 'average_entropy_decay', average_entropy_decay, 0, 1)
        self.average_value_decay = C.check_float(
            owner, 'average_value_decay', average_value_decay, 0, 1)
        self.average_kl_decay = C.check_float(
            owner, 'average_kl_decay', average_kl_decay, 0, 1)
        self.logger = logger if logger is not None else logging.getLogger(
            __name__)
        self.normalize_loss_by_steps = bool(normalize_loss_by_steps)
        self.act_deterministically = bool(act_deterministically)
        self.recurrent = R.is_recurrent(model)
        self._runner = U.Runner(owner, phi, _batch_states, self.recurrent)
        # ChainerRL reads it (ACER explores by sampling).
        self.explorer = None

        self.t = 0
        self.n_updates = 0
        self.average_value = 0.0
        self.average_entropy = 0.0
        self.average_kl = 0.0
        self._synced = False
        self._train_state = None      # local model, after the last step
        self._state_before_act = None
        self._avg_state = None        # average model, at segment start
        self._eval_state = None
        self._eval_n = None
        self._pending = False
        self._last_error = float('nan')
        self._clear_segment()

    @property
    def shared_attributes(self):
        """The shared and average models and the optimizer's states live
        in shared memory under ``train_agent_async``."""
        return ('shared_model', 'shared_average_model', 'optimizer')

    def _clear_segment(self):
        self._seg_obs = []
        self._seg_actions = []
        self._seg_mus = []
        self._seg_rewards = []
        self._seg_state = None
        self._seg_avg_state = None

    def sync_parameters(self):
        """Copy the shared parameters into this process's model and move
        the average model towards them."""
        copy_param(target_link=self.model, source_link=self.shared_model)
        soft_copy_param(target_link=self.shared_average_model,
                        source_link=self.model,
                        tau=1 - self.trust_region_alpha)

    # ------------------------------------------------------------------
    # primitives

    def _batch_act_train(self, batch_obs):
        method = 'batch_act_and_train'
        self._runner.single(method, batch_obs)
        if not self._synced:
            # A process's agent may have been built before its shared
            # model was pointed at shared memory.
            copy_param(target_link=self.model, source_link=self.shared_model)
            self._synced = True
        self._drop_unobserved(self._seg_obs, self._seg_actions, self._seg_mus)
        obs = batch_obs[0]
        if not self._seg_obs:
            self._seg_state = self._train_state
            self._seg_avg_state = self._avg_state
        action, distrib, value, entropy = self._sample_train_action(
            method, _call_model, obs)
        self._seg_obs.append(obs)
        self._seg_actions.append(action[0])
        self._seg_mus.append(distrib.copy())
        self._count_act(value, entropy)
        return action

    def _batch_act_eval(self, batch_obs):
        # The shared model has the latest parameters in every process.
        return self._act_eval('batch_act', self.shared_model, _call_model,
                              batch_obs)

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        obs, done, ended, transition = self._observe_outcome(
            batch_obs, batch_reward, batch_done, batch_reset)
        transition['mu'] = self._seg_mus[-1]
        if ended or len(self._seg_rewards) >= self.t_max:
            self._update_on_policy(None if done else obs)
            for _ in range(self.n_times_replay):
                self._update_from_replay()
        self._store(transition, ended)
        if ended:
            self._avg_state = None

    # ------------------------------------------------------------------
    # updates

    def _update_on_policy(self, bootstrap_obs):
        if self._seg_rewards and not self.disable_online_update:
            avg_state = None
            for i in range(self.n_online_update):
                loss, end_state = self.compute_loss(
                    self._seg_obs, self._seg_actions, self._seg_rewards,
                    bootstrap_obs,
                    mus=None if i == 0 else self._seg_mus,
                    state=self._seg_state, avg_state=self._seg_avg_state)
                if i == 0:
                    avg_state = end_state
                self._apply(loss)
            self._avg_state = avg_state
        self._clear_segment()

    def _update_from_replay(self):
        buffer = self.replay_buffer
        if buffer is None or len(buffer) < self.replay_start_size \
                or buffer.n_episodes == 0:
            return
        episodes, _ = U.sample_episodes(buffer, 1, self.t_max)
        episode = episodes[0]
        if not episode:
            return
        try:
            mus = [tr['mu'] for tr in episode]
        except KeyError:
            raise KeyError('ACER: replayed transitions must hold the '
                           'behaviour distribution under the key "mu"')
        last = episode[-1]
        loss, _ = self.compute_loss(
            [tr['state'] for tr in episode],
            [tr['action'] for tr in episode],
            [tr['reward'] for tr in episode],
            None if last['is_state_terminal'] else last['next_state'],
            mus=mus, state=None, avg_state=None)
        # A prioritized buffer waiting for priorities gets the episode's
        # mean absolute error of Q against its Retrace targets.
        U.update_priorities(buffer, [self._last_error])
        self._apply(loss)

    def _apply(self, loss):
        self.model.cleargrads()
        loss.backward()
        U.push_grads(self.model, self.shared_model)
        if self.process_idx == 0 and self.logger.isEnabledFor(
                logging.DEBUG):
            self.logger.debug('ACER update %d loss:%s', self.n_updates,
                              float(C.to_host(loss)))
        self.optimizer.update()
        self.n_updates += 1
        self.sync_parameters()

    def compute_loss(self, obs, actions, rewards, bootstrap_obs, mus=None,
                     state=None, avg_state=None):
        """ACER's loss on one sequence of steps of an episode.

        Args:
            obs, actions, rewards: the steps' observations, actions and
                rewards.
            bootstrap_obs: the observation after the last step, or None if
                that step ended in a terminal state.
            mus (list or None): the behaviour distribution of each step
                (single-row distributions); None for on-policy data.
            state, avg_state: recurrent states of the model and of the
                average model before the first step.

        Returns:
            ``(loss, avg_state)``: the loss Variable and the average
            model's recurrent state after the last step.
        """
        owner = 'ACER'
        T = len(rewards)
        model = self.model
        device = model.device
        chunks, end_state = self._runner.run(model, _call_model, obs, state)
        avg_distribs, avg_end = [], None
        with chainer.no_backprop_mode():
            if self.use_trust_region:
                avg_chunks, avg_end = self._runner.run(
                    self.shared_average_model, _call_model, obs, avg_state)
                avg_distribs = [out[0] for out, _, _ in avg_chunks]
            bootstrap = 0.0
            if bootstrap_obs is not None:
                (_, _, v_next), _ = self._runner.call(
                    'update', model, _call_model, [bootstrap_obs], end_state)
                bootstrap = float(C.to_host(v_next).reshape(-1)[0])

        actions = numpy.stack([numpy.asarray(a) for a in actions])
        discrete = isinstance(chunks[0][0][0], D.CategoricalDistribution)
        parts = []
        for (distrib, action_value, v), a, b in chunks:
            n = b - a
            act = device.send(numpy.ascontiguousarray(actions[a:b]))
            q = U.flat(owner, 'Q-values',
                       action_value.evaluate_actions(act), n)
            parts.append(dict(
                distrib=distrib, action_value=action_value, act=act,
                v=U.flat(owner, 'state values', v, n),
                q=q, log_pi=distrib.log_prob(act), rows=(a, b),
                log_pi_h=_host_log_prob(distrib, actions[a:b])))
        v_h = numpy.concatenate([C.to_host(p['v']) for p in parts]
                                ).astype(numpy.float64)
        q_h = numpy.concatenate([C.to_host(p['q']) for p in parts]
                                ).astype(numpy.float64)
        log_pi_h = numpy.concatenate([p['log_pi_h'] for p in parts])
        dtype = parts[0]['v'].dtype

        def const(x):
            return device.send(numpy.ascontiguousarray(x, dtype=dtype))

        if mus is None:
            rho = numpy.ones(T)
        else:
            if len(mus) != T:
                raise ValueError('ACER.compute_loss: mus has {} entries for '
                                 '{} steps'.format(len(mus), T))
            rho = _ratio(log_pi_h, _rows_log_prob(mus, actions))
        exponent = 1.0 if discrete else 1.0 / max(1, actions[0].size)
        q_ret, q_opc = compute_retrace_targets(
            rewards, q_h, v_h, rho, self.gamma, bootstrap, exponent)
        self._last_error = float(numpy.abs(q_ret - q_h).mean())
        advantage = (q_opc if self.use_Q_opc else q_ret) - v_h
        c = self.truncation_threshold
        if mus is None:
            main_weight = numpy.ones(T)
        elif c is None:
            main_weight = rho
        else:
            main_weight = numpy.minimum(c, rho)

        g_rows = []
        for p in parts:
            a, b = p['rows']
            g = -p['log_pi'] * const(main_weight[a:b] * advantage[a:b])
            if mus is not None and c is not None:
                g = g + self._bias_correction(p, mus[a:b], v_h[a:b], const)
            g_rows.append(g)
        g_loss = F.concat(g_rows, axis=0) if len(g_rows) > 1 else g_rows[0]

        if self.use_trust_region:
            pi_loss = self._trust_region_loss(parts, avg_distribs, g_loss)
        else:
            pi_loss = F.sum(g_loss)
        entropy = F.concat([p['distrib'].entropy for p in parts], axis=0)
        pi_loss = pi_loss - self.beta * F.sum(entropy)

        q_all = F.concat([p['q'] for p in parts], axis=0)
        q_loss = F.sum(F.square(const(q_ret) - q_all)) / 2
        if not discrete:
            v_all = F.concat([p['v'] for p in parts], axis=0)
            v_target = numpy.minimum(1.0, rho) * (q_ret - q_h) + v_h
            q_loss = q_loss + F.sum(F.square(const(v_target) - v_all)) / 2
        pi_loss = pi_loss * self.pi_loss_coef
        q_loss = q_loss * self.Q_loss_coef
        if self.normalize_loss_by_steps:
            pi_loss = pi_loss / T
            q_loss = q_loss / T
        return pi_loss + q_loss, avg_end

    def _bias_correction(self, part, mus, v_h, const):
        """The correction term of the truncated importance sampling: the
        policy gradient over the actions whose weight ``rho`` exceeds the
        truncation, weighted by ``[1 - c / rho]_+``."""
        c = self.truncation_threshold
        distrib = part['distrib']
        if isinstance(distrib, D.CategoricalDistribution):
            pi_all = C.to_host(distrib.all_log_prob).astype(numpy.float64)
            mu_all = numpy.concatenate([
                C.to_host(m.all_log_prob) for m in mus]).astype(numpy.float64)
            with numpy.errstate(divide='ignore'):
                weight = numpy.maximum(0.0, 1.0 - c / _ratio(pi_all, mu_all))
            weight *= numpy.exp(pi_all)
            q_all = C.to_host(part['action_value'].q_values).astype(
                numpy.float64)
            coeff = weight * (q_all - v_h[:, None])
            return -F.sum(const(coeff) * distrib.all_log_prob, axis=1)
        with chainer.no_backprop_mode():
            sampled = distrib.sample().array
            q = C.to_host(part['action_value'].evaluate_actions(sampled))
        sampled_h = C.to_host(sampled)
        rho = _ratio(_host_log_prob(distrib, sampled_h),
                     _rows_log_prob(mus, sampled_h))
        with numpy.errstate(divide='ignore'):
            weight = numpy.maximum(0.0, 1.0 - c / rho)
        coeff = weight * (q.astype(numpy.float64).reshape(-1) - v_h)
        return -distrib.log_prob(sampled) * const(coeff)

    def _trust_region_loss(self, parts, avg_distribs, g_loss):
        """Replace, step by step, the policy loss's gradient with respect
        to the distribution parameters by its projection that keeps the
        linearized KL divergence from the average policy within delta."""
        params, owners = [], []
        kls = []
        for i, (p, avg) in enumerate(zip(parts, avg_distribs)):
            kls.append(avg.kl(p['distrib']))
            for param in p['distrib'].params:
                if isinstance(param, chainer.Variable) and \
                        param.requires_grad:
                    params.append(param)
                    owners.append(i)
        kl = F.concat(kls, axis=0) if len(kls) > 1 else kls[0]
        kl_h = C.to_host(kl).astype(numpy.float64)
        for value in kl_h[::-1]:
            self.average_kl += (1 - self.average_kl_decay) * (
                float(value) - self.average_kl)
        if not params:
            return F.sum(g_loss)
        grads_g = chainer.grad([F.sum(g_loss)], params)
        grads_k = chainer.grad([F.sum(kl)], params)
        T = len(kl_h)
        # Per step, with the objective's gradient ghat = -dg_loss/dphi and
        # k = dKL/dphi: z = ghat - max(0, (k.ghat - delta) / |k|^2) k.
        ghats, ks = [], []
        kg = numpy.zeros(T)
        kk = numpy.zeros(T)
        for param, i, gg, gk in zip(params, owners, grads_g, grads_k):
            a, b = parts[i]['rows']
            shape = (b - a, -1)
            ghat = numpy.zeros(param.shape) if gg is None else \
                -C.to_host(gg).astype(numpy.float64)
            k = numpy.zeros(param.shape) if gk is None else \
                C.to_host(gk).astype(numpy.float64)
            kg[a:b] += (k.reshape(shape) * ghat.reshape(shape)).sum(axis=1)
            kk[a:b] += (k.reshape(shape) ** 2).sum(axis=1)
            ghats.append(ghat)
            ks.append(k)
        with numpy.errstate(divide='ignore', invalid='ignore'):
            factor = numpy.where(
                kk > 0, numpy.maximum(0.0, (kg - self.trust_region_delta)
                                      / numpy.where(kk > 0, kk, 1.0)), 0.0)
        loss = 0
        for param, i, ghat, k in zip(params, owners, ghats, ks):
            a, b = parts[i]['rows']
            f = factor[a:b].reshape((b - a,) + (1,) * (k.ndim - 1))
            z = ghat - f * k
            z = param.device.send(numpy.ascontiguousarray(
                z, dtype=param.dtype))
            loss = loss - F.sum(param * z)
        return loss

    # ------------------------------------------------------------------

    def save(self, dirname):
        """Save the shared parameters (as ``model``) and the optimizer."""
        copy_param(target_link=self.model, source_link=self.shared_model)
        super().save(dirname)

    def load(self, dirname):
        """Load into this process's model, the shared one and the average
        one."""
        super().load(dirname)
        copy_param(target_link=self.shared_model, source_link=self.model)
        copy_param(target_link=self.shared_average_model,
                   source_link=self.model)
        self._synced = True

    def get_statistics(self):
        """ChainerRL's ACER statistics: moving averages of the values and
        entropies seen while acting and of the KL divergences from the
        average policy seen in updates."""
        return [
            ('average_value', self.average_value),
            ('average_entropy', self.average_entropy),
            ('average_kl', self.average_kl),
        ]
