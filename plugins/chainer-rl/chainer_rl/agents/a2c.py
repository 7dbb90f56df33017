"""Advantage Actor-Critic, the synchronous variant of A3C."""

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import agent
from chainer_rl.agents import _pg_common as C
from chainer_rl.misc.batch_states import batch_states as _default_batch_states
from chainer_rl.recurrent import RecurrentChainMixin


class A2CModel(C.PiAndVModel):
    """Interface of A2C's model: ``pi_and_v(obs)`` gives the action
    distribution and the values of a batch of observations."""


class A2CSeparateModel(C.SeparatePiAndV, chainer.Chain, A2CModel,
                       RecurrentChainMixin):
    """An A2C model made of a policy ``pi`` and a V-function ``v`` that share
    nothing."""


class A2C(C.BatcherFollowsLink, agent.AttributeSavingMixin,
          agent.BatchAgent):
    """Advantage Actor-Critic: A3C's n-step actor-critic update applied
    synchronously to a batch of environments (as described with
    "Asynchronous Methods for Deep Reinforcement Learning", Mnih et al.,
    2016, and named A2C by OpenAI Baselines; see also "Scalable
    trust-region method for deep reinforcement learning using
    Kronecker-factored approximation", Wu et al., 2017).

    Every ``update_steps`` steps of ``num_processes`` envs, the policy
    follows the advantages of n-step returns (or of GAE with ``use_gae``)
    and the value function regresses on those returns. Truncated episodes
    (``batch_reset``) bootstrap from the value of their last observation.

    Args:
        model (A2CModel): gives ``(distribution, values)`` through
            ``pi_and_v`` (or by being called, PFRL style).
        optimizer (~chainer_core.Optimizer): set up with ``model``.
        gamma (float): discount factor.
        num_processes (int): number of envs acting together.
        gpu: None or a negative int leaves the model where it is; an int
            N >= 0 moves it to ``@cupy:N``; a device spec moves it there.
        update_steps (int): steps per env between updates.
        phi (callable): feature extractor applied to each observation.
        pi_loss_coef, v_loss_coef, entropy_coeff (float): weights of the
            policy loss, the value loss and the entropy bonus.
        use_gae (bool): use generalized advantage estimation.
        tau (float): GAE's lambda.
        act_deterministically (bool): evaluation takes the most probable
            action instead of sampling.
        average_actor_loss_decay, average_entropy_decay,
        average_value_decay (float): decay of the moving averages reported
            by ``get_statistics``.
        batch_states (callable): ``batch_states(list_of_obs, xp, phi)``.
    """

    process_idx = None
    saved_attributes = ('model', 'optimizer')

    def __init__(self, model, optimizer, gamma, num_processes, gpu=None,
                 update_steps=5, phi=C.identity, pi_loss_coef=1.0,
                 v_loss_coef=0.5, entropy_coeff=0.01, use_gae=False,
                 tau=0.95, act_deterministically=False,
                 average_actor_loss_decay=0.999, average_entropy_decay=0.999,
                 average_value_decay=0.999,
                 batch_states=_default_batch_states):
        owner = 'A2C'
        C.check_model_and_optimizer(owner, model, optimizer)
        self.model = model
        self.optimizer = optimizer
        self.gpu = gpu
        device = C.place_link(owner, model, gpu)
        self.gamma = C.check_float(owner, 'gamma', gamma, 0, 1)
        self.num_processes = C.check_positive_int(owner, 'num_processes',
                                                  num_processes)
        self.update_steps = C.check_positive_int(owner, 'update_steps',
                                                 update_steps)
        self.phi = phi
        self.pi_loss_coef = C.check_float(owner, 'pi_loss_coef',
                                          pi_loss_coef)
        self.v_loss_coef = C.check_float(owner, 'v_loss_coef', v_loss_coef)
        self.entropy_coeff = C.check_float(owner, 'entropy_coeff',
                                           entropy_coeff)
        self.use_gae = bool(use_gae)
        self.tau = C.check_float(owner, 'tau', tau, 0, 1)
        self.act_deterministically = bool(act_deterministically)
        self.average_actor_loss_decay = C.check_float(
            owner, 'average_actor_loss_decay', average_actor_loss_decay, 0, 1)
        self.average_entropy_decay = C.check_float(
            owner, 'average_entropy_decay', average_entropy_decay, 0, 1)
        self.average_value_decay = C.check_float(
            owner, 'average_value_decay', average_value_decay, 0, 1)
        self.batch_states = batch_states
        self._batcher = C.Batcher(owner, batch_states, phi, device, model.xp)

        self.t = 0
        self.average_actor_loss = 0.0
        self.average_value = 0.0
        self.average_entropy = 0.0
        self._rollout = C.Rollout()

    def _forward(self, method, batch_obs):
        return self._batcher.pi_and_v(method, self.model, batch_obs,
                                      self.phi)

    def _batch_act_train(self, batch_obs):
        method = 'batch_act_and_train'
        self._sync_device()
        n = self._batcher.check(method, batch_obs)
        if n != self.num_processes:
            raise ValueError(
                'A2C.{}: batch_obs has {} observations, expected one per '
                'process (num_processes={})'.format(method, n,
                                                    self.num_processes))
        with C.acting():
            distrib, value = self._forward(method, batch_obs)
            action = C.act_on_host(distrib, stats=False)
        self._rollout.add_act(batch_obs, action, None,
                              C.host_values('A2C', value, n))
        self.t += 1
        return action

    def _batch_act_eval(self, batch_obs):
        method = 'batch_act'
        self._sync_device()
        self._batcher.check(method, batch_obs)
        with C.acting():
            distrib, _ = self._forward(method, batch_obs)
            return C.act_on_host(distrib, self.act_deterministically,
                                 stats=False)

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        method = 'batch_observe_and_train'
        _, _, update_now = C.record_outcome(
            'A2C', method, self._rollout, self._batcher, batch_obs,
            batch_reward, batch_done, batch_reset,
            lambda steps, n: steps >= self.update_steps,
            lambda: self._forward(method, batch_obs)[1])
        if update_now:
            self.update()

    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        pass

    def _compute_returns(self, data):
        """Targets of the values, ``(update_steps, num_processes)``: n-step
        returns, or GAE advantages plus values with ``use_gae`` (with lambda
        1 both are the same)."""
        ends = C.episode_ends(data['dones'], data['resets'])
        _, returns = C.gae(data['rewards'], data['values'],
                           data['next_values'], data['dones'], ends,
                           self.gamma, self.tau if self.use_gae else 1.0)
        return returns

    def update(self):
        """One gradient step on the data of the last ``update_steps``
        steps."""
        rollout = self._rollout
        data = rollout.arrays()
        returns = self._compute_returns(data)
        steps, n = returns.shape
        device = self.model.device
        x = self._batcher.batch_states(rollout.flat_obs(),
                                       self._batcher.xp_arg, self.phi)
        distrib, values = C.check_pair('A2C', C.call_pi_and_v(self.model, x))
        values = C.flat_values('A2C', values, steps * n)
        actions = data['actions'].reshape((steps * n,)
                                          + data['actions'].shape[2:])
        log_probs = distrib.log_prob(C.send(device, actions))
        returns = C.send(device, returns.reshape(-1).astype(values.dtype))
        advantages = returns - values
        value_loss = F.mean(advantages * advantages)
        action_loss = -F.mean(advantages.array * log_probs)
        entropy = F.mean(distrib.entropy)
        loss = (self.v_loss_coef * value_loss
                + self.pi_loss_coef * action_loss
                - self.entropy_coeff * entropy)
        self.model.cleargrads()
        loss.backward()
        self.optimizer.update()
        rollout.clear()

        def decay(avg, rate, x):
            return avg + (1 - rate) * (float(C.to_host(x)) - avg)
        self.average_actor_loss = decay(self.average_actor_loss,
                                        self.average_actor_loss_decay,
                                        action_loss)
        self.average_value = decay(self.average_value,
                                   self.average_value_decay, value_loss)
        self.average_entropy = decay(self.average_entropy,
                                     self.average_entropy_decay, entropy)

    def get_statistics(self):
        """ChainerRL's A2C statistics: moving averages of the policy loss
        (``average_actor``), the value loss (``average_value``) and the
        entropy."""
        return [
            ('average_actor', self.average_actor_loss),
            ('average_value', self.average_value),
            ('average_entropy', self.average_entropy),
        ]
