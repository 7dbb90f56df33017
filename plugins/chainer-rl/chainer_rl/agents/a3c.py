"""Asynchronous Advantage Actor-Critic."""
import copy

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import agent
from chainer_rl import recurrent as R
from chainer_rl.agents import _pg_common as C
from chainer_rl.misc.batch_states import batch_states as _default_batch_states
from chainer_rl.misc.copy_param import copy_param
from chainer_rl.recurrent import RecurrentChainMixin


class A3CModel(C.PiAndVModel):
    """Interface of A3C's model: ``pi_and_v(obs)`` gives the action
    distribution and the values of a batch of observations."""


class A3CSeparateModel(C.SeparatePiAndV, chainer.Chain, A3CModel,
                       RecurrentChainMixin):
    """An A3C model made of a policy ``pi`` and a V-function ``v`` that share
    nothing."""


class A3CSharedModel(C.SharedPiAndV, chainer.Chain, A3CModel,
                     RecurrentChainMixin):
    """An A3C model whose policy ``pi`` and V-function ``v`` both read the
    features computed by ``shared``."""


class A3C(C.BatcherFollowsLink, agent.AttributeSavingMixin, agent.AsyncAgent,
          agent.BatchAgent):
    """Asynchronous Advantage Actor-Critic, from "Asynchronous Methods for
    Deep Reinforcement Learning" (Mnih et al., 2016).

    Each process acts with its own copy of the model for up to ``t_max``
    steps (or until an episode ends), backpropagates the n-step
    actor-critic loss through that copy and applies the gradients to the
    model shared by all processes (``chainer_rl.misc.async_``), then copies
    the shared parameters back. Recurrent models (``chainer_rl.recurrent``
    or chainer_core's stateful links) are backpropagated through each
    segment and their state is reset when an episode ends.

    Train it with ``chainer_rl.experiments.train_agent_async``. The model
    must be on the ``@numpy`` device, whose arrays can be shared between
    processes.

    Args:
        model (A3CModel): the shared model; gives ``(distribution,
            values)`` through ``pi_and_v`` (or by being called).
        optimizer (~chainer_core.Optimizer): set up with ``model``.
        t_max (int): steps per update.
        gamma (float): discount factor.
        beta (float): weight of the entropy bonus.
        process_idx (int): index of this process.
        phi (callable): feature extractor applied to each observation.
        pi_loss_coef, v_loss_coef (float): weights of the policy and value
            losses.
        keep_loss_scale_same (bool): scale up the loss of segments cut
            short by an episode's end as if they had ``t_max`` steps.
        normalize_grad_by_t_max (bool): divide the loss by the segment's
            length.
        use_average_reward (bool): subtract a running average of the reward
            (the average-reward formulation).
        average_reward_tau (float): step size of that average.
        act_deterministically (bool): evaluation takes the most probable
            action instead of sampling.
        average_entropy_decay, average_value_decay (float): decay of the
            moving averages reported by ``get_statistics``.
        batch_states (callable): ``batch_states(list_of_obs, xp, phi)``.
    """

    process_idx = None
    saved_attributes = ('model', 'optimizer')

    def __init__(self, model, optimizer, t_max, gamma, beta=1e-2,
                 process_idx=0, phi=C.identity, pi_loss_coef=1.0,
                 v_loss_coef=0.5, keep_loss_scale_same=False,
                 normalize_grad_by_t_max=False, use_average_reward=False,
                 average_reward_tau=1e-2, act_deterministically=False,
                 average_entropy_decay=0.999, average_value_decay=0.999,
                 batch_states=_default_batch_states):
        owner = 'A3C'
        C.check_model_and_optimizer(owner, model, optimizer)
        self.shared_model = model
        self.model = copy.deepcopy(model)
        self.optimizer = optimizer
        self.t_max = C.check_positive_int(owner, 't_max', t_max)
        self.gamma = C.check_float(owner, 'gamma', gamma, 0, 1)
        self.beta = C.check_float(owner, 'beta', beta)
        self.process_idx = process_idx
        self.phi = phi
        self.pi_loss_coef = C.check_float(owner, 'pi_loss_coef',
                                          pi_loss_coef)
        self.v_loss_coef = C.check_float(owner, 'v_loss_coef', v_loss_coef)
        self.keep_loss_scale_same = bool(keep_loss_scale_same)
        self.normalize_grad_by_t_max = bool(normalize_grad_by_t_max)
        self.use_average_reward = bool(use_average_reward)
        self.average_reward_tau = C.check_float(owner, 'average_reward_tau',
                                                average_reward_tau)
        self.act_deterministically = bool(act_deterministically)
        self.average_entropy_decay = C.check_float(
            owner, 'average_entropy_decay', average_entropy_decay, 0, 1)
        self.average_value_decay = C.check_float(
            owner, 'average_value_decay', average_value_decay, 0, 1)
        self.batch_states = batch_states
        self._batcher = C.Batcher(owner, batch_states, phi, model.device,
                                  model.xp)
        self.recurrent = C.keeps_state(model)

        self.t = 0
        self.t_start = 0
        self.average_reward = 0.0
        self.average_value = 0.0
        self.average_entropy = 0.0
        self.n_updates = 0
        self._clear_segment()
        self._n_envs = None
        self._test_n_envs = None
        self._synced = False

    @property
    def shared_attributes(self):
        """The shared model and the optimizer's states live in shared
        memory."""
        return ('shared_model', 'optimizer')

    def _clear_segment(self):
        self._obs = []
        self._actions = []
        self._log_probs = []
        self._entropies = []
        self._values = []
        self._rewards = []
        self._pending = False

    def sync_parameters(self):
        """Copy the shared parameters into this process's model."""
        copy_param(target_link=self.model, source_link=self.shared_model)
        self._synced = True

    def _forward(self, model, method, batch_obs):
        return self._batcher.pi_and_v(method, model, batch_obs, self.phi)

    # ------------------------------------------------------------------
    # primitives

    def _batch_act_train(self, batch_obs):
        method = 'batch_act_and_train'
        self._sync_device()
        if not self._synced:
            self.sync_parameters()
        n = self._batcher.check(method, batch_obs)
        if self._n_envs not in (None, n):
            if self._rewards:
                raise ValueError(
                    'A3C.{}: batch_obs has {} observations but the current '
                    'segment comes from {} envs; the number of envs must stay'
                    ' the same during training'.format(method, n,
                                                       self._n_envs))
            if self.recurrent:
                R.reset_recurrent_state(self.model)
        self._n_envs = n
        if self._pending:
            # The outcome of the previous action never came: drop it.
            for field in (self._log_probs, self._entropies, self._values,
                          self._obs, self._actions):
                if len(field) > len(self._rewards):
                    field.pop()
        if self.recurrent:
            # The graph is kept: the loss backpropagates through the state.
            distrib, value = self._forward(self.model, method, batch_obs)
            action, _, entropy = C.act_on_host(distrib)
            self._log_probs.append(
                distrib.log_prob(C.send(self.model.device, action)))
            self._entropies.append(distrib.entropy)
            self._values.append(C.flat_values('A3C', value, n))
        else:
            # No graph while acting: the update runs the model once on the
            # whole segment, which gives the same loss with far fewer
            # nodes to backpropagate.
            with C.acting():
                distrib, value = self._forward(self.model, method,
                                               batch_obs)
                action, _, entropy = C.act_on_host(distrib)
            self._obs.append(list(batch_obs))
            self._actions.append(action)
        self._pending = True
        values = C.host_values('A3C', value, n)
        self.average_value += (1 - self.average_value_decay) * (
            float(values.mean()) - self.average_value)
        self.average_entropy += (1 - self.average_entropy_decay) * (
            float(entropy.mean()) - self.average_entropy)
        return action

    def _batch_act_eval(self, batch_obs):
        # The shared model holds the latest parameters (in every process
        # and in the parent after training); its recurrent state serves
        # evaluation only.
        method = 'batch_act'
        self._sync_device()
        n = self._batcher.check(method, batch_obs)
        if self.recurrent and self._test_n_envs not in (None, n):
            R.reset_recurrent_state(self.shared_model)
        self._test_n_envs = n
        with C.acting():
            distrib, _ = self._forward(self.shared_model, method, batch_obs)
            return C.act_on_host(distrib, self.act_deterministically,
                                 stats=False)

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        method = 'batch_observe_and_train'
        C.check_pending('A3C', method, self._pending)
        n = self._n_envs
        C.check_batch_size('A3C', method, 'batch_obs', len(batch_obs), n)
        self._batcher.check(method, batch_obs)
        rewards = numpy.asarray(batch_reward, dtype=numpy.float64)
        dones = numpy.asarray(batch_done, dtype=bool)
        resets = numpy.asarray(batch_reset, dtype=bool)
        for name, a in (('batch_reward', rewards), ('batch_done', dones),
                        ('batch_reset', resets)):
            if a.shape != (n,):
                raise ValueError('A3C.{}: {} must have one entry per env, '
                                 'shape ({},), got {}'.format(
                                     method, name, n, a.shape))
        self._rewards.append(rewards)
        self._pending = False
        self.t += 1
        ended = dones | resets
        if self.t - self.t_start < self.t_max and not ended.any():
            return
        # The segment ends for every env when one episode ends, so no
        # episode boundary lies inside a segment.
        bootstrap = numpy.zeros(n)
        if not dones.all():
            with C.acting(), R.state_kept(self.model):
                _, v = self._forward(self.model, method, batch_obs)
            bootstrap = numpy.where(dones, 0.0, C.host_values('A3C', v, n))
        self.update(bootstrap)
        if self.recurrent and ended.any():
            R.reset_recurrent_state(self.model, ended if n > 1 else None)

    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        if not self.recurrent:
            return
        mask = numpy.logical_or(numpy.asarray(batch_done, dtype=bool),
                                numpy.asarray(batch_reset, dtype=bool))
        if mask.any():
            R.reset_recurrent_state(self.shared_model,
                                    mask if len(mask) > 1 else None)

    # ------------------------------------------------------------------
    # update

    def update(self, bootstrap):
        """Apply the gradient of the current segment's loss to the shared
        model, given the values ``bootstrap`` (one per env) of the
        observations after the segment."""
        steps = len(self._rewards)
        if steps == 0:
            return
        if self.recurrent:
            log_probs = F.stack(self._log_probs)     # (steps, n)
            entropies = F.stack(self._entropies)
            values = F.stack(self._values)
        else:
            log_probs, entropies, values = self._segment_outputs()
        host_values = C.to_host(values).astype(numpy.float64)
        returns = numpy.empty_like(host_values)
        ret = numpy.asarray(bootstrap, dtype=numpy.float64)
        for i in range(steps - 1, -1, -1):
            ret = self._rewards[i] + self.gamma * ret
            if self.use_average_reward:
                ret = ret - self.average_reward
                self.average_reward += self.average_reward_tau * float(
                    numpy.mean(ret - host_values[i]))
            returns[i] = ret
        advantages = returns - host_values
        device = self.model.device
        dtype = values.dtype
        advantages = C.send(device, advantages.astype(dtype))
        returns = C.send(device, returns.astype(dtype))
        pi_loss = -F.sum(log_probs * advantages) \
            - self.beta * F.sum(entropies)
        v_loss = F.sum(F.square(values - returns)) / 2
        pi_loss = pi_loss * self.pi_loss_coef
        v_loss = v_loss * self.v_loss_coef
        loss = pi_loss + v_loss
        if self.keep_loss_scale_same and steps < self.t_max:
            loss = loss * (self.t_max / steps)
        if self.normalize_grad_by_t_max:
            loss = loss / steps
        self.model.cleargrads()
        loss.backward()
        shared = dict(self.shared_model.namedparams())
        for name, param in self.model.namedparams():
            shared[name].grad = param.grad
        self.optimizer.update()
        self.n_updates += 1
        self.sync_parameters()
        if self.recurrent:
            R.unchain_backward(R.get_recurrent_state(self.model))
        self._clear_segment()
        self.t_start = self.t

    def _segment_outputs(self):
        """Log-probabilities, entropies and values of the segment's steps,
        each of shape ``(steps, n_envs)``, from one batched forward pass."""
        steps, n = len(self._obs), self._n_envs
        obs = [o for step in self._obs for o in step]
        x = self._batcher.batch_states(obs, self._batcher.xp_arg, self.phi)
        distrib, values = C.check_pair('A3C',
                                       C.call_pi_and_v(self.model, x))
        actions = numpy.concatenate(self._actions)
        log_probs = distrib.log_prob(C.send(self.model.device, actions))
        shape = (steps, n)
        return (F.reshape(log_probs, shape),
                F.reshape(distrib.entropy, shape),
                F.reshape(C.flat_values('A3C', values, steps * n), shape))

    # ------------------------------------------------------------------

    def save(self, dirname):
        """Save the shared parameters (as ``model``) and the optimizer."""
        copy_param(target_link=self.model, source_link=self.shared_model)
        super().save(dirname)

    def load(self, dirname):
        """Load into this process's model and the shared one."""
        super().load(dirname)
        copy_param(target_link=self.shared_model, source_link=self.model)

    def get_statistics(self):
        """ChainerRL's A3C statistics: moving averages of the values and
        entropies seen while training."""
        return [
            ('average_value', self.average_value),
            ('average_entropy', self.average_entropy),
        ]
