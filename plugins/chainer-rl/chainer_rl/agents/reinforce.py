"""REINFORCE: the Monte-Carlo policy gradient."""
import numbers
import warnings

import numpy

import chainer_core.functions as F

from chainer_rl import agent
from chainer_rl import recurrent as R
from chainer_rl.agents import _pg_common as C
from chainer_rl.misc.batch_states import batch_states as _default_batch_states


class _Episode(object):
    """One env's episode in progress: what its loss will need."""

    __slots__ = ('obs', 'actions', 'rewards', 'log_probs', 'entropies')

    def __init__(self):
        self.obs = []
        self.actions = []
        self.rewards = []
        self.log_probs = []   # recurrent models: (Variable, row) per step
        self.entropies = []

    def __len__(self):
        return len(self.rewards)


class REINFORCE(C.BatcherFollowsLink, agent.AttributeSavingMixin,
                agent.BatchAgent):
    """Williams' episodic REINFORCE, from "Simple Statistical
    Gradient-Following Algorithms for Connectionist Reinforcement Learning"
    (Williams, 1992).

    After every ``batchsize`` complete episodes the policy follows
    ``sum_t (R_t - b) grad log pi(a_t|s_t)`` (plus ``beta`` times the
    entropy gradient), averaged over the episodes, where ``R_t`` is the
    undiscounted sum of the rewards from step t on, as in ChainerRL.
    Episodes cut short without reaching a terminal state (``done=False``)
    are dropped with a warning, as their returns are unknown.

    Args:
        model (~chainer_core.Link): maps a batch of observations to an
            action distribution. A recurrent model (``chainer_rl.recurrent``
            or chainer_core's stateful links) keeps its state through each
            episode; it is then backpropagated through the whole episode.
        optimizer (~chainer_core.Optimizer): set up with ``model``.
        beta (float): weight of the entropy bonus.
        phi (callable): feature extractor applied to each observation.
        batchsize (int): episodes per update.
        act_deterministically (bool): evaluation takes the most probable
            action instead of sampling.
        average_entropy_decay (float): decay of the entropy's moving
            average reported by ``get_statistics``.
        backward_separately (bool): backpropagate each episode as soon as
            it ends and only accumulate gradients (less memory for long
            episodes).
        batch_states (callable): ``batch_states(list_of_obs, xp, phi)``.
        logger: accepted for compatibility; unused.
        baseline: None (ChainerRL's REINFORCE: no baseline), a number
            subtracted from every return, or ``'mean'``: the mean return of
            the batch's steps (with ``backward_separately``, of the
            previous batch's, since an episode is backpropagated before
            the rest of its batch exists).
        gpu: None or a negative int leaves the model where it is; an int
            N >= 0 moves it to ``@cupy:N``; a device spec moves it there.
    """

    saved_attributes = ('model', 'optimizer')

    def __init__(self, model, optimizer, beta=0, phi=C.identity, batchsize=1,
                 act_deterministically=False, average_entropy_decay=0.999,
                 backward_separately=False,
                 batch_states=_default_batch_states, logger=None,
                 baseline=None, gpu=None):
        owner = 'REINFORCE'
        C.check_model_and_optimizer(owner, model, optimizer)
        self.model = model
        self.optimizer = optimizer
        device = C.place_link(owner, model, gpu)
        self.beta = C.check_float(owner, 'beta', beta)
        self.phi = phi
        self.batchsize = C.check_positive_int(owner, 'batchsize', batchsize)
        self.act_deterministically = bool(act_deterministically)
        self.average_entropy_decay = C.check_float(
            owner, 'average_entropy_decay', average_entropy_decay, 0, 1)
        self.backward_separately = bool(backward_separately)
        self.batch_states = batch_states
        self.logger = logger
        if baseline is not None and baseline != 'mean' and (
                isinstance(baseline, bool)
                or not isinstance(baseline, numbers.Real)):
            raise ValueError("REINFORCE: baseline must be None, 'mean' or a "
                             "number, got {!r}".format(baseline))
        self.baseline = baseline
        self._batcher = C.Batcher(owner, batch_states, phi, device, model.xp)
        self.recurrent = C.keeps_state(model)

        self.average_entropy = 0.0
        self.t = 0
        self.n_backward = 0
        self.n_updates = 0
        self._episodes = None          # per env, in progress
        self._finished = []            # complete episodes awaiting update
        self._pending = False
        self._last_mean_return = 0.0
        self._batch_returns = []
        self._test_state = None
        self._test_n = None

    def _policy(self, method, batch_obs):
        x = self._batcher.batch_states(batch_obs, self._batcher.xp_arg,
                                       self.phi)
        with self._batcher.first_call(method, batch_obs):
            return self.model(x)

    # ------------------------------------------------------------------
    # primitives

    def _batch_act_train(self, batch_obs):
        method = 'batch_act_and_train'
        self._sync_device()
        n = self._batcher.check(method, batch_obs)
        if self._episodes is None or len(self._episodes) != n:
            if self._episodes is not None and any(
                    len(ep) for ep in self._episodes):
                raise ValueError(
                    'REINFORCE.{}: batch_obs has {} observations but {} '
                    'episodes are in progress; the number of envs must stay '
                    'the same during training'.format(method, n,
                                                      len(self._episodes)))
            self._episodes = [_Episode() for _ in range(n)]
            if self.recurrent:
                R.reset_recurrent_state(self.model)
        if self._pending:
            for ep in self._episodes:
                # The outcome of the previous action never came: drop it.
                for field in (ep.obs, ep.actions, ep.log_probs,
                              ep.entropies):
                    if len(field) > len(ep.rewards):
                        field.pop()
        if self.recurrent:
            # The graph is kept: the loss backpropagates through the state.
            distrib = self._policy(method, batch_obs)
            action, _, entropy = C.act_on_host(distrib)
            log_prob = distrib.log_prob(C.send(self.model.device, action))
            ent_var = distrib.entropy
            for i, ep in enumerate(self._episodes):
                ep.log_probs.append((log_prob, i))
                ep.entropies.append((ent_var, i))
                ep.actions.append(action[i])
        else:
            with C.acting():
                distrib = self._policy(method, batch_obs)
                action, _, entropy = C.act_on_host(distrib)
            for i, ep in enumerate(self._episodes):
                ep.obs.append(batch_obs[i])
                ep.actions.append(action[i])
        self.average_entropy += (1 - self.average_entropy_decay) * (
            float(numpy.mean(entropy)) - self.average_entropy)
        self.t += 1
        self._pending = True
        return action

    def _batch_act_eval(self, batch_obs):
        method = 'batch_act'
        self._sync_device()
        n = self._batcher.check(method, batch_obs)
        with C.acting():
            if self.recurrent:
                train_state = R.get_recurrent_state(self.model)
                R.set_recurrent_state(
                    self.model, self._test_state if self._test_n == n
                    else None)
                try:
                    distrib = self._policy(method, batch_obs)
                    self._test_state = R.get_recurrent_state(self.model)
                    self._test_n = n
                finally:
                    R.set_recurrent_state(self.model, train_state)
            else:
                distrib = self._policy(method, batch_obs)
            return C.act_on_host(distrib, self.act_deterministically,
                                 stats=False)

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        method = 'batch_observe_and_train'
        C.check_pending('REINFORCE', method, self._pending)
        n = len(self._episodes)
        C.check_batch_size('REINFORCE', method, 'batch_obs', len(batch_obs),
                           n)
        C.check_batch_size('REINFORCE', method, 'batch_reward',
                           len(batch_reward), n)
        self._pending = False
        ended = numpy.zeros(n, dtype=bool)
        for i, (ep, r, done, reset) in enumerate(zip(
                self._episodes, batch_reward, batch_done, batch_reset)):
            ep.rewards.append(float(r))
            if done:
                self._finished.append(ep)
            elif reset:
                warnings.warn(
                    'REINFORCE: an episode ended without reaching a terminal '
                    'state (done=False); REINFORCE needs whole episodes, so '
                    'it is thrown away')
            else:
                continue
            ended[i] = True
            self._episodes[i] = _Episode()
            if self.backward_separately and done:
                self._accumulate([ep], self._last_mean_return)
                self._finished.pop()
                if self.n_backward >= self.batchsize:
                    self._apply_update()
        if self.recurrent and ended.any():
            R.reset_recurrent_state(self.model, ended if n > 1 else None)
        if not self.backward_separately and \
                len(self._finished) >= self.batchsize:
            episodes, self._finished = self._finished, []
            returns = [self._returns(ep) for ep in episodes]
            mean = float(numpy.mean(numpy.concatenate(returns)))
            self._accumulate(episodes, mean, returns)
            self._apply_update()

    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        if not self.recurrent or self._test_state is None:
            return
        mask = [bool(d) or bool(r) for d, r in zip(batch_done, batch_reset)]
        if any(mask):
            self._test_state = (None if all(mask) else
                                R.mask_recurrent_state(self._test_state,
                                                       mask))

    # ------------------------------------------------------------------
    # update

    @staticmethod
    def _returns(ep):
        """Undiscounted sums of the rewards from each step on."""
        return numpy.cumsum(ep.rewards[::-1])[::-1]

    def _baseline_value(self, mean):
        if self.baseline is None:
            return 0.0
        if self.baseline == 'mean':
            return mean
        return float(self.baseline)

    def _accumulate(self, episodes, mean, returns=None):
        """Backpropagate the loss of ``episodes`` (divided by
        ``batchsize``), adding to the gradients."""
        if self.n_backward == 0:
            self.model.cleargrads()
        if returns is None:
            returns = [self._returns(ep) for ep in episodes]
        self._batch_returns.extend(numpy.concatenate(returns).tolist())
        weights = numpy.concatenate(returns) - self._baseline_value(mean)
        device = self.model.device
        if self.recurrent:
            log_probs = F.stack([lp[i] for ep in episodes
                                 for lp, i in ep.log_probs])
            entropies = F.stack([e[i] for ep in episodes
                                 for e, i in ep.entropies])
        else:
            obs = [o for ep in episodes for o in ep.obs]
            actions = numpy.stack([a for ep in episodes for a in ep.actions])
            x = self._batcher.batch_states(obs, self._batcher.xp_arg,
                                           self.phi)
            distrib = self.model(x)
            log_probs = distrib.log_prob(C.send(device, actions))
            entropies = distrib.entropy
        weights = C.send(device, weights.astype(log_probs.dtype))
        loss = (-F.sum(weights * log_probs) - self.beta * F.sum(entropies)) \
            / float(self.batchsize)
        loss.backward()
        self.n_backward += len(episodes)

    def _apply_update(self):
        self.optimizer.update()
        self.n_backward = 0
        self.n_updates += 1
        if self._batch_returns:
            self._last_mean_return = float(numpy.mean(self._batch_returns))
        self._batch_returns = []

    def get_statistics(self):
        """ChainerRL's REINFORCE statistics: the entropy's moving
        average."""
        return [('average_entropy', self.average_entropy)]
