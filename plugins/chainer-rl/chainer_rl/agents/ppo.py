"""Proximal Policy Optimization."""

import chainer_core.functions as F

from chainer_rl import agent
from chainer_rl.agents import _pg_common as C
from chainer_rl.misc.batch_states import batch_states as _default_batch_states


def _clip_around(x, center, eps):
    """``x`` clipped elementwise into ``[center - eps, center + eps]``."""
    return F.minimum(F.maximum(x, center - eps), center + eps)


class PPO(C.BatcherFollowsLink, C.RecurrentRolloutMixin,
          agent.AttributeSavingMixin, agent.BatchAgent):
    """Proximal Policy Optimization, from "Proximal Policy Optimization
    Algorithms" (Schulman et al., 2017), with advantages from
    "High-Dimensional Continuous Control Using Generalized Advantage
    Estimation" (Schulman et al., 2016).

    Experience is gathered with the current policy for ``update_interval``
    steps (all envs together); then the clipped surrogate objective, the
    value loss and an entropy bonus are optimized for ``epochs`` passes in
    minibatches.

    Args:
        model (~chainer_core.Link): maps a batch of observations to
            ``(action distribution, values)``. With ``recurrent=True`` it is
            a :class:`chainer_rl.links.StatelessRecurrent`: called as
            ``model(x, recurrent_state)`` it returns ``((distribution,
            values), new_state)``.
        optimizer (~chainer_core.Optimizer): set up with ``model``.
        gpu: None or a negative int leaves the model where it is; an int
            N >= 0 moves it to ``@cupy:N``; a device spec moves it there.
        gamma (float): discount factor.
        lambd (float): the GAE lambda.
        phi (callable): feature extractor applied to each observation.
        value_func_coef (float): weight of the value loss.
        entropy_coef (float): weight of the entropy bonus.
        update_interval (int): steps (summed over envs) between updates.
        minibatch_size (int): transitions per minibatch.
        epochs (int): passes over the data per update.
        clip_eps (float): the probability-ratio clipping range.
        clip_eps_vf (float): if given, value predictions are clipped to
            this distance from the old ones and the worse of the clipped and
            unclipped squared errors is used.
        standardize_advantages (bool): standardize the advantages of each
            update's data.
        batch_states (callable): ``batch_states(list_of_obs, xp, phi)``.
        recurrent (bool): the model is a StatelessRecurrent; its state is
            reset where episodes end and the update replays sequences
            (truncated at episode boundaries) from their stored states.
        max_recurrent_sequence_len (int): if given, sequences are cut to at
            most this many steps.
        act_deterministically (bool): evaluation takes the most probable
            action instead of sampling.
        value_stats_window, entropy_stats_window, value_loss_stats_window,
        policy_loss_stats_window (int): lengths of the windows averaged by
            ``get_statistics``.
    """

    saved_attributes = ('model', 'optimizer')

    def __init__(self, model, optimizer, gpu=None, gamma=0.99, lambd=0.95,
                 phi=C.identity, value_func_coef=1.0, entropy_coef=0.01,
                 update_interval=2048, minibatch_size=64, epochs=10,
                 clip_eps=0.2, clip_eps_vf=None, standardize_advantages=True,
                 batch_states=_default_batch_states, recurrent=False,
                 max_recurrent_sequence_len=None,
                 act_deterministically=False, value_stats_window=1000,
                 entropy_stats_window=1000, value_loss_stats_window=100,
                 policy_loss_stats_window=100):
        owner = 'PPO'
        C.check_model_and_optimizer(owner, model, optimizer)
        self.model = model
        self.optimizer = optimizer
        self.gpu = gpu
        device = C.place_link(owner, model, gpu)
        self.gamma = C.check_float(owner, 'gamma', gamma, 0, 1)
        self.lambd = C.check_float(owner, 'lambd', lambd, 0, 1)
        self.phi = phi
        self.value_func_coef = C.check_float(owner, 'value_func_coef',
                                             value_func_coef)
        self.entropy_coef = C.check_float(owner, 'entropy_coef',
                                          entropy_coef)
        self.update_interval = C.check_positive_int(owner, 'update_interval',
                                                    update_interval)
        self.minibatch_size = C.check_positive_int(owner, 'minibatch_size',
                                                   minibatch_size)
        self.epochs = C.check_positive_int(owner, 'epochs', epochs)
        self.clip_eps = C.check_float(owner, 'clip_eps', clip_eps, 0)
        self.clip_eps_vf = None if clip_eps_vf is None else C.check_float(
            owner, 'clip_eps_vf', clip_eps_vf, 0)
        self.standardize_advantages = bool(standardize_advantages)
        self.batch_states = batch_states
        self._init_recurrence(
            owner, recurrent, max_recurrent_sequence_len, [('model', model)],
            'recurrent=True needs a StatelessRecurrent model '
            '(chainer_rl.links), but {type} has no {method}')
        self.act_deterministically = bool(act_deterministically)
        self._batcher = C.Batcher(owner, batch_states, phi, device, model.xp)

        self._init_rollout(value_stats_window, entropy_stats_window)
        self.value_loss_record = C.Window(value_loss_stats_window)
        self.policy_loss_record = C.Window(policy_loss_stats_window)
        self.n_updates = 0

    # ------------------------------------------------------------------
    # model calls

    @property
    def device(self):
        return self.model.device

    def _forward(self, method, batch_obs, recurrent_state, with_value=True):
        """One step of the model: ``(distribution, values, state)`` (the
        model gives the values whether or not they are needed)."""
        x = self._batcher.batch_states(batch_obs, self._batcher.xp_arg,
                                       self.phi)
        with self._batcher.first_call(method, batch_obs):
            if self.recurrent:
                out, state = self.model(x, recurrent_state)
            else:
                out, state = self.model(x), None
            distrib, value = C.check_pair('PPO', out)
        return distrib, value, state

    def _mask_state(self, state, indices):
        if state is None:
            return None
        return self.model.mask_recurrent_state_at(state, indices)

    # ------------------------------------------------------------------
    # update

    def _lossfun(self, entropy, vs_pred, log_probs, vs_pred_old,
                 log_probs_old, advs, vs_teacher):
        """The PPO loss of one minibatch (all arguments of shape ``(B,)``;
        the ``*_old``, ``advs`` and ``vs_teacher`` ones are constants)."""
        prob_ratio = F.exp(log_probs - log_probs_old)
        surrogate = F.minimum(
            prob_ratio * advs,
            F.clip(prob_ratio, 1.0 - self.clip_eps, 1.0 + self.clip_eps)
            * advs)
        loss_policy = -F.mean(surrogate)
        if self.clip_eps_vf is None:
            loss_value = F.mean(F.square(vs_pred - vs_teacher))
        else:
            clipped = _clip_around(vs_pred, vs_pred_old, self.clip_eps_vf)
            loss_value = F.mean(F.maximum(F.square(vs_pred - vs_teacher),
                                          F.square(clipped - vs_teacher)))
        loss_entropy = -F.mean(entropy)
        self.value_loss_record.append(float(C.to_host(loss_value)))
        self.policy_loss_record.append(float(C.to_host(loss_policy)))
        return (loss_policy + self.value_func_coef * loss_value
                + self.entropy_coef * loss_entropy)

    def _update(self):
        rollout = self._rollout
        data, ends, advs, v_teacher = self._advantages()
        dtype = data['values'].dtype
        targets = dict(actions=data['actions'],
                       log_probs_old=data['log_probs'].astype(dtype),
                       vs_pred_old=data['values'],
                       advs=advs.astype(dtype),
                       vs_teacher=v_teacher.astype(dtype))
        if self.recurrent:
            self._update_recurrent(rollout, targets, ends)
        else:
            self._update_flat(rollout, targets)
        rollout.clear()

    def _minibatch_loss(self, distrib, vs_pred, target, idx):
        device = self.model.device
        get = lambda key: C.send(device, target[key][idx])  # NOQA
        log_probs = distrib.log_prob(get('actions'))
        return self._lossfun(distrib.entropy, vs_pred, log_probs,
                             get('vs_pred_old'), get('log_probs_old'),
                             get('advs'), get('vs_teacher'))

    def _step(self, loss):
        self.model.cleargrads()
        loss.backward()
        self.optimizer.update()
        self.n_updates += 1

    def _update_flat(self, rollout, targets):
        device = self.model.device
        flat = {k: v.reshape((-1,) + v.shape[2:]) for k, v in targets.items()}
        n = len(flat['advs'])
        states = self._batcher.batch_states(rollout.flat_obs(),
                                            self._batcher.xp_arg, self.phi)
        for _ in range(self.epochs):
            for idx in C.minibatches(n, self.minibatch_size):
                x = C.index_batch(states, C.send(device, idx))
                distrib, vs_pred = C.check_pair('PPO', self.model(x))
                vs_pred = C.flat_values('PPO', vs_pred, len(idx))
                self._step(self._minibatch_loss(distrib, vs_pred, flat, idx))

    def _update_recurrent(self, rollout, targets, ends):
        model = self.model
        sequences = C.sequences_of(ends, self.max_recurrent_sequence_len)
        for _ in range(self.epochs):
            for batch in C.sequence_minibatches(sequences,
                                                self.minibatch_size):
                self._update_sequences(model, rollout, targets, batch)

    def _update_sequences(self, model, rollout, targets, batch):
        state = C.start_states(model, rollout.states, batch)
        xs = [self._batcher.batch_states(
            rollout.sequence_obs(i, s, e), self._batcher.xp_arg, self.phi)
            for i, s, e in batch]
        index = C.sequence_index(batch)
        (distrib, vs_pred), _ = model.n_step_forward(xs, state,
                                                     output_mode='concat')
        vs_pred = C.flat_values('PPO', vs_pred, len(index[0]))
        self._step(self._minibatch_loss(distrib, vs_pred, targets, index))

    # ------------------------------------------------------------------

    def get_statistics(self):
        """ChainerRL's PPO statistics: recent values, entropies and losses,
        the number of optimizer updates and the explained variance of the
        last update's value targets."""
        return [
            ('average_value', C.mean_or_nan(self.value_record)),
            ('average_entropy', C.mean_or_nan(self.entropy_record)),
            ('average_value_loss', C.mean_or_nan(self.value_loss_record)),
            ('average_policy_loss', C.mean_or_nan(self.policy_loss_record)),
            ('n_updates', self.n_updates),
            ('explained_variance', self.explained_variance),
        ]
