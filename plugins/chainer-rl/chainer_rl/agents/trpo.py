"""Trust Region Policy Optimization."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl import agent
from chainer_rl.agents import _pg_common as C
from chainer_rl.misc.batch_states import batch_states as _default_batch_states
from chainer_rl.misc.conjugate_gradient import conjugate_gradient


def _ordered_params(link):
    """The parameters of ``link`` sorted by name (a fixed flat layout)."""
    return [p for _, p in sorted(link.namedparams(), key=lambda x: x[0])]


def _flatten(arrays):
    """One flat device array from arrays or Variables (no graph)."""
    with chainer.no_backprop_mode():
        return F.concat([F.reshape(a, (-1,)) for a in arrays], axis=0).array


def _flatten_variables(variables):
    """One flat Variable (keeping the graph)."""
    return F.concat([F.reshape(v, (-1,)) for v in variables], axis=0)


def _set_flat(params, flat):
    """Overwrite the parameters with the pieces of ``flat``."""
    sections = numpy.cumsum([p.size for p in params])[:-1]
    with chainer.no_backprop_mode():
        pieces = F.split_axis(flat, sections, axis=0) if len(params) > 1 \
            else [flat]
        for p, piece in zip(params, pieces):
            piece = _arrays.unwrap(piece)
            chainer.backend.copyto(p.array, piece.reshape(p.shape))


class TRPO(C.BatcherFollowsLink, C.RecurrentRolloutMixin,
           agent.AttributeSavingMixin, agent.BatchAgent):
    """Trust Region Policy Optimization, from "Trust Region Policy
    Optimization" (Schulman et al., 2015), with advantages from
    "High-Dimensional Continuous Control Using Generalized Advantage
    Estimation" (Schulman et al., 2016).

    Every ``update_interval`` steps the policy takes the natural-gradient
    step of the surrogate objective (plus an entropy bonus) whose
    quadratic estimate of ``KL(old || new)`` equals ``max_kl``: the
    direction solves ``F x = g`` by conjugate gradient, with Fisher-vector
    products from the Hessian of the KL by double backpropagation; a
    backtracking line search then halves the step until the surrogate
    improves and the exact KL stays below ``max_kl``. The value function
    ``vf`` is fitted to the lambda-returns with its own optimizer.

    Args:
        policy (~chainer_core.Link): maps observations to an action
            distribution; every function in it must support double
            backpropagation.
        vf (~chainer_core.Link): maps observations to values.
        vf_optimizer (~chainer_core.Optimizer): set up with ``vf``.
        obs_normalizer (chainer_rl.links.EmpiricalNormalization): if given,
            observations are normalized by it; its statistics are updated
            with each update's observations (after the advantages are
            computed, before the networks are updated).
        gamma (float): discount factor.
        lambd (float): the GAE lambda.
        phi (callable): feature extractor applied to each observation.
        entropy_coef (float): weight of the entropy bonus.
        update_interval (int): steps (summed over envs) between updates.
        max_kl (float): the trust region: the largest KL divergence from the
            old policy.
        vf_epochs (int): passes of the value function over each update's
            data.
        vf_batch_size (int): minibatch size of the value function.
        standardize_advantages (bool): standardize the advantages of each
            update.
        batch_states (callable): ``batch_states(list_of_obs, xp, phi)``.
        recurrent (bool): ``policy`` and ``vf`` are StatelessRecurrent
            links (``chainer_rl.links``); updates replay sequences truncated
            at episode boundaries from their stored states.
        max_recurrent_sequence_len (int): if given, sequences are cut to at
            most this many steps.
        line_search_max_backtrack (int): most halvings of the step.
        conjugate_gradient_max_iter (int): conjugate-gradient iterations.
        conjugate_gradient_damping (float): added to the Fisher matrix's
            diagonal.
        act_deterministically (bool): evaluation takes the most probable
            action instead of sampling.
        value_stats_window, entropy_stats_window, kl_stats_window,
        policy_step_size_stats_window (int): lengths of the windows
            averaged by ``get_statistics``.
        logger: accepted for compatibility; unused.
        gpu: None or a negative int leaves the links where they are; an int
            N >= 0 moves them to ``@cupy:N``; a device spec moves them
            there.
    """

    saved_attributes = ('policy', 'vf', 'vf_optimizer', 'obs_normalizer')
    _device_link = 'policy'

    def __init__(self, policy, vf, vf_optimizer, obs_normalizer=None,
                 gamma=0.99, lambd=0.95, phi=C.identity, entropy_coef=0.01,
                 update_interval=2048, max_kl=0.01, vf_epochs=3,
                 vf_batch_size=64, standardize_advantages=True,
                 batch_states=_default_batch_states, recurrent=False,
                 max_recurrent_sequence_len=None,
                 line_search_max_backtrack=10,
                 conjugate_gradient_max_iter=10,
                 conjugate_gradient_damping=1e-2,
                 act_deterministically=False, value_stats_window=1000,
                 entropy_stats_window=1000, kl_stats_window=100,
                 policy_step_size_stats_window=100, logger=None, gpu=None):
        owner = 'TRPO'
        for name, link in (('policy', policy), ('vf', vf)):
            if not isinstance(link, chainer.Link):
                raise TypeError('TRPO: {} must be a chainer_core Link, got {}'
                                .format(name, type(link).__name__))
        if vf_optimizer is None or getattr(vf_optimizer, 'target',
                                           None) is None:
            raise ValueError('TRPO: vf_optimizer must be set up with vf '
                             '(vf_optimizer.setup(vf)) before creating the '
                             'agent')
        self.policy = policy
        self.vf = vf
        self.vf_optimizer = vf_optimizer
        self.obs_normalizer = obs_normalizer
        device = C.place_link(owner, policy, gpu)
        C.place_link(owner, vf, gpu)
        if obs_normalizer is not None:
            C.place_link(owner, obs_normalizer, gpu)
        for name, link in (('vf', vf), ('obs_normalizer', obs_normalizer)):
            if link is not None and link.device != policy.device:
                raise ValueError('TRPO: policy and {} must be on one device, '
                                 'got {} and {}'.format(name, policy.device,
                                                        link.device))
        self.gamma = C.check_float(owner, 'gamma', gamma, 0, 1)
        self.lambd = C.check_float(owner, 'lambd', lambd, 0, 1)
        self.phi = phi
        self.entropy_coef = C.check_float(owner, 'entropy_coef',
                                          entropy_coef)
        self.update_interval = C.check_positive_int(owner, 'update_interval',
                                                    update_interval)
        self.max_kl = C.check_float(owner, 'max_kl', max_kl, 0)
        self.vf_epochs = C.check_positive_int(owner, 'vf_epochs', vf_epochs,
                                              minimum=0)
        self.vf_batch_size = C.check_positive_int(owner, 'vf_batch_size',
                                                  vf_batch_size)
        self.standardize_advantages = bool(standardize_advantages)
        self.batch_states = batch_states
        self._init_recurrence(
            owner, recurrent, max_recurrent_sequence_len,
            [('policy', policy), ('vf', vf)],
            'recurrent=True needs StatelessRecurrent links '
            '(chainer_rl.links), but {name} ({type}) has no {method}')
        self.line_search_max_backtrack = C.check_positive_int(
            owner, 'line_search_max_backtrack', line_search_max_backtrack,
            minimum=0)
        self.conjugate_gradient_max_iter = C.check_positive_int(
            owner, 'conjugate_gradient_max_iter',
            conjugate_gradient_max_iter)
        self.conjugate_gradient_damping = C.check_float(
            owner, 'conjugate_gradient_damping', conjugate_gradient_damping,
            0)
        self.act_deterministically = bool(act_deterministically)
        self.logger = logger
        self._batcher = C.Batcher(owner, batch_states, phi, device,
                                  policy.xp)

        self._init_rollout(value_stats_window, entropy_stats_window)
        self.kl_record = C.Window(kl_stats_window)
        self.policy_step_size_record = C.Window(policy_step_size_stats_window)
        self.n_policy_updates = 0

    def _states(self, batch_obs):
        x = self._batcher.batch_states(batch_obs, self._batcher.xp_arg,
                                       self.phi)
        if self.obs_normalizer is not None:
            x = self.obs_normalizer(x, update=False)
        return x

    def _forward(self, method, batch_obs, state, with_value=True):
        """One step: ``(distribution, values or None, new state)``; a
        recurrent state is the pair (policy's, vf's)."""
        x = self._states(batch_obs)
        with self._batcher.first_call(method, batch_obs):
            if self.recurrent:
                p_state, v_state = (None, None) if state is None else state
                distrib, p_state = self.policy(x, p_state)
                value = None
                if with_value:
                    value, v_state = self.vf(x, v_state)
                return distrib, value, (p_state, v_state)
            value = self.vf(x) if with_value else None
            return self.policy(x), value, None

    def _mask_state(self, state, indices):
        if state is None:
            return None
        p_state, v_state = state
        return (self.policy.mask_recurrent_state_at(p_state, indices),
                self.vf.mask_recurrent_state_at(v_state, indices))

    def _update(self):
        rollout = self._rollout
        data, ends, advs, v_teacher = self._advantages()
        dtype = data['values'].dtype
        if self.obs_normalizer is not None:
            self.obs_normalizer.experience(self._batcher.batch_states(
                rollout.flat_obs(), self._batcher.xp_arg, self.phi))
        if self.recurrent:
            sequences = C.sequences_of(ends, self.max_recurrent_sequence_len)
            index = C.sequence_index(sequences)
        else:
            sequences = None
            index = numpy.arange(advs.size)
            flat = lambda a: a.reshape((-1,) + a.shape[2:])  # NOQA
            data = {k: flat(v) for k, v in data.items()}
            advs, v_teacher = flat(advs), flat(v_teacher)
        device = self.policy.device
        self._update_policy(
            rollout, sequences,
            C.send(device, data['actions'][index]),
            C.send(device, data['log_probs'][index].astype(dtype)),
            C.send(device, advs[index].astype(dtype)))
        self._update_vf(rollout, sequences, v_teacher.astype(dtype))
        rollout.clear()

    def _run_policy(self, rollout, sequences):
        """The policy's distributions over the whole update's data (flat,
        or per sequence concatenated)."""
        if not self.recurrent:
            return self.policy(self._states(rollout.flat_obs()))
        state = self._sequence_state(self.policy, rollout, sequences, 0)
        xs = [self._states(rollout.sequence_obs(i, s, e))
              for i, s, e in sequences]
        distrib, _ = self.policy.n_step_forward(xs, state,
                                                output_mode='concat')
        return distrib

    @staticmethod
    def _sequence_state(link, rollout, sequences, which):
        """The start states of ``link``, the ``which``-th of the stored
        (policy's, vf's) pairs."""
        return C.start_states(
            link, [None if pair is None else pair[which]
                   for pair in rollout.states], sequences)

    def _compute_gain(self, log_prob, log_prob_old, entropy, advs):
        """The surrogate objective plus the entropy bonus."""
        ratio = F.exp(log_prob - log_prob_old)
        return F.mean(ratio * advs) + self.entropy_coef * F.mean(entropy)

    def _compute_kl_constrained_step(self, action_distrib,
                                     action_distrib_old, gain):
        """The natural-gradient step whose quadratic KL estimate is
        ``max_kl``."""
        params = _ordered_params(self.policy)
        kl = F.mean(action_distrib_old.kl(action_distrib))
        kl_grads = chainer.grad([kl], params, enable_double_backprop=True)
        if any(g is None for g in kl_grads):
            raise RuntimeError('TRPO: the KL divergence does not depend on '
                               'every policy parameter; remove the unused '
                               'ones')
        flat_kl_grads = _flatten_variables(kl_grads)
        damping = self.conjugate_gradient_damping

        def fisher_vector_product(vec):
            grads = chainer.grad([F.sum(flat_kl_grads * vec)], params)
            return _flatten(grads) + damping * vec

        gain_grads = chainer.grad([gain], params)
        if any(g is None for g in gain_grads):
            raise RuntimeError('TRPO: the surrogate objective does not depend'
                               ' on every policy parameter')
        direction = conjugate_gradient(
            fisher_vector_product, _flatten(gain_grads),
            max_iter=self.conjugate_gradient_max_iter)
        dfd = float(C.to_host((direction * fisher_vector_product(
            direction)).sum()))
        scale = (2.0 * self.max_kl / (dfd + 1e-8)) ** 0.5
        return direction * scale

    def _update_policy(self, rollout, sequences, actions, log_probs_old,
                       advs):
        distrib = self._run_policy(rollout, sequences)
        gain = self._compute_gain(distrib.log_prob(actions), log_probs_old,
                                  distrib.entropy, advs)
        distrib_old = distrib.copy()
        full_step = self._compute_kl_constrained_step(distrib, distrib_old,
                                                      gain)
        self._line_search(full_step, rollout, sequences, actions,
                          log_probs_old, advs, distrib_old, gain)
        self.n_policy_updates += 1

    def _line_search(self, full_step, rollout, sequences, actions,
                     log_probs_old, advs, distrib_old, gain):
        params = _ordered_params(self.policy)
        old_flat = _flatten([p.array for p in params])
        gain = float(C.to_host(gain))
        step_size = 1.0
        for _ in range(self.line_search_max_backtrack + 1):
            _set_flat(params, old_flat + step_size * full_step)
            with C.acting():
                distrib = self._run_policy(rollout, sequences)
                new_gain = float(C.to_host(self._compute_gain(
                    distrib.log_prob(actions), log_probs_old,
                    distrib.entropy, advs)))
                new_kl = float(C.to_host(F.mean(distrib_old.kl(distrib))))
            if (C.isfinite(new_gain) and C.isfinite(new_kl)
                    and new_gain >= gain and new_kl <= self.max_kl):
                self.kl_record.append(new_kl)
                self.policy_step_size_record.append(step_size)
                return True
            step_size *= 0.5
        # No acceptable step: keep the old policy.
        self.policy_step_size_record.append(0.0)
        _set_flat(params, old_flat)
        return False

    def _update_vf(self, rollout, sequences, v_teacher):
        device = self.vf.device
        if not self.recurrent:
            states = self._states(rollout.flat_obs())
            n = len(v_teacher)
            for _ in range(self.vf_epochs):
                for idx in C.minibatches(n, self.vf_batch_size):
                    pred = self.vf(C.index_batch(states, C.send(device, idx)))
                    pred = C.flat_values('TRPO', pred, len(idx))
                    self._vf_step(pred, C.send(device, v_teacher[idx]))
            return
        for _ in range(self.vf_epochs):
            for batch in C.sequence_minibatches(sequences,
                                                self.vf_batch_size):
                state = self._sequence_state(self.vf, rollout, batch, 1)
                xs = [self._states(rollout.sequence_obs(i, s, e))
                      for i, s, e in batch]
                pred, _ = self.vf.n_step_forward(xs, state,
                                                 output_mode='concat')
                index = C.sequence_index(batch)
                pred = C.flat_values('TRPO', pred, len(index[0]))
                self._vf_step(pred, C.send(device, v_teacher[index]))

    def _vf_step(self, pred, target):
        loss = F.mean(F.square(pred - target))
        self.vf.cleargrads()
        loss.backward()
        self.vf_optimizer.update()

    def get_statistics(self):
        """ChainerRL's TRPO statistics: recent values and entropies, the KL
        and step size of recent policy updates and the explained variance
        of the last update's value targets."""
        return [
            ('average_value', C.mean_or_nan(self.value_record)),
            ('average_entropy', C.mean_or_nan(self.entropy_record)),
            ('average_kl', C.mean_or_nan(self.kl_record)),
            ('average_policy_step_size',
             C.mean_or_nan(self.policy_step_size_record)),
            ('explained_variance', self.explained_variance),
        ]
