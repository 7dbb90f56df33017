"""Pieces ACER and PCL share.

Both agents act in one environment per process, keep the steps of the
current segment and, when it ends, run the model again on the whole
segment with a graph (acting itself needs none). The parameters do not
change between acting and updating, so the loss is the one a graph kept
from acting would give, built with one batched call instead of one per
step. A recurrent model is stepped one observation at a time from the
recurrent state the segment started from; its states are kept by the
agent, not in the link, so acting, evaluating and replaying never disturb
one another.
"""
import numpy

import chainer_core as chainer

from chainer_rl import _arrays
from chainer_rl import recurrent as R
from chainer_rl.agents._pg_common import check_obs_batch
from chainer_rl.agents._pg_common import obs_shape
from chainer_rl.agents._pg_common import to_host


def check_model(owner, model):
    if not isinstance(model, chainer.Link):
        raise TypeError('{}: model must be a chainer_core Link, got {}'
                        .format(owner, type(model).__name__))
    if callable(getattr(model, 'n_step_forward', None)):
        raise TypeError(
            '{}: StatelessRecurrent models are not supported; use a model '
            'keeping its own state (chainer_rl.recurrent.RecurrentChainMixin'
            ' with L.LSTM, say)'.format(owner))
    return model


def check_optimizer(owner, optimizer, model):
    target = getattr(optimizer, 'target', None)
    if not isinstance(optimizer, chainer.Optimizer) or target is None:
        raise ValueError('{}: optimizer must be a chainer_core Optimizer set '
                         'up with the model (optimizer.setup(model)), got {}'
                         .format(owner, type(optimizer).__name__))
    if target is not model:
        raise ValueError('{}: optimizer is set up with a {} that is not the '
                         'model given'.format(owner, type(target).__name__))
    return optimizer


def check_initialized(owner, model):
    """The local and shared copies need every parameter to exist."""
    missing = [name for name, p in model.namedparams() if p.array is None]
    if missing:
        raise ValueError(
            '{}: the model has uninitialized parameters ({}); give the input '
            'sizes of its links or run it once on an observation before '
            'creating the agent'.format(owner, ', '.join(missing[:5])))


def check_replay_buffer(owner, replay_buffer):
    if replay_buffer is not None and not callable(
            getattr(replay_buffer, 'sample_episodes', None)):
        raise TypeError('{}: replay_buffer must be None or an episodic '
                        'replay buffer (with sample_episodes), got {}'.format(
                            owner, type(replay_buffer).__name__))
    return replay_buffer


def sample_episodes(replay_buffer, n, max_len):
    """``(episodes, weights)``; weights are ones unless the buffer is
    prioritized."""
    episodes = replay_buffer.sample_episodes(n, max_len)
    if isinstance(episodes, tuple):
        episodes, weights = episodes
    else:
        weights = [1.0] * len(episodes)
    return list(episodes), [float(w) for w in weights]


def update_priorities(replay_buffer, errors):
    """Give the episodes just sampled from a prioritized buffer that waits
    for their priorities (``wait_priority_after_sampling``) priorities from
    ``errors``, one per episode; other buffers are left alone."""
    memory = getattr(replay_buffer, 'episodic_memory', None)
    if getattr(memory, 'flag_wait_priority', False) and callable(
            getattr(replay_buffer, 'update_errors', None)):
        replay_buffer.update_errors([float(e) for e in errors])


def push_grads(local, shared):
    """Give ``shared``'s parameters the gradients of ``local``'s."""
    params = dict(shared.namedparams())
    for name, param in local.namedparams():
        dst = params[name]
        grad = param.grad
        if grad is not None and _arrays.device_of(grad) != _arrays.device_of(
                dst.array):
            grad = _arrays.like(grad, dst.array)
        dst.grad = grad


def flat(owner, what, x, n):
    """A model output as a Variable of shape ``(n,)``."""
    if not isinstance(x, chainer.Variable):
        x = chainer.Variable(x, requires_grad=False)
    if x.size != n:
        raise ValueError('{}: the model returned {} of shape {} for {} '
                         'observations; expected ({},) or ({}, 1)'.format(
                             owner, what, x.shape, n, n, n))
    if x.shape != (n,):
        x = chainer.functions.reshape(x, (n,))
    return x


class Runner(object):
    """Batches observations (checking their shapes) and runs a model on
    them, step by step from a given state if it is recurrent."""

    def __init__(self, owner, phi, batch_states, recurrent):
        self.owner = owner
        self.phi = _arrays.check_callable(owner, 'phi', phi)
        self.batch_states = _arrays.check_callable(owner, 'batch_states',
                                                   batch_states)
        self.recurrent = recurrent
        self.expected_shape = None

    def check(self, method, batch_obs, argname='batch_obs'):
        return check_obs_batch(self.owner, method, batch_obs, argname,
                               self.expected_shape)

    def single(self, method, batch_obs, argname='batch_obs'):
        n = self.check(method, batch_obs, argname)
        if n != 1:
            raise ValueError(
                '{}.{}: {} has {} observations; {} trains in one env at a '
                'time (use chainer_rl.experiments.train_agent_async for '
                'several)'.format(self.owner, method, argname, n,
                                  self.owner))

    def batch(self, obs_list, device):
        return self.batch_states(list(obs_list), device, self.phi)

    def call(self, method, model, call, obs_list, state=None):
        """``(output, new_state)`` of one batched call; the first call
        ever reports a model that rejects the observations with the
        agent's name and their shape."""
        x = self.batch(obs_list, model.device)
        try:
            if self.recurrent:
                with R.state_kept(model):
                    R.set_recurrent_state(model, state)
                    out = call(model, x)
                    state = R.get_recurrent_state(model)
            else:
                out = call(model, x)
        except (ValueError, TypeError, IndexError) as e:
            if self.expected_shape is not None:
                raise
            message = '{}.{}: the model rejected observations of shape ' \
                '{}: {}'.format(self.owner, method, obs_shape(obs_list[0]), e)
            try:
                error = type(e)(message)
            except Exception:
                error = (TypeError if isinstance(e, TypeError)
                         else ValueError)(message)
            raise error from e
        if self.expected_shape is None:
            self.expected_shape = obs_shape(obs_list[0])
        return out, state

    def run(self, model, call, obs_list, state=None):
        """Outputs for a sequence of observations as ``[(output, start,
        stop)]`` chunks (one for a feed-forward model, one per step for a
        recurrent one) and the recurrent state after the last step."""
        if not self.recurrent:
            return [(call(model, self.batch(obs_list, model.device)), 0,
                     len(obs_list))], None
        chunks = []
        with R.state_kept(model):
            R.set_recurrent_state(model, state)
            for t, obs in enumerate(obs_list):
                chunks.append((call(model, self.batch([obs], model.device)),
                               t, t + 1))
            state = R.get_recurrent_state(model)
        return chunks, state


def reset_rows(state, batch_done, batch_reset):
    """A batched recurrent state with the rows of ended episodes reset."""
    if state is None:
        return None
    mask = numpy.logical_or(numpy.asarray(batch_done, dtype=bool),
                            numpy.asarray(batch_reset, dtype=bool))
    if not mask.any():
        return state
    if mask.all():
        return None
    return R.mask_recurrent_state(state, mask)


def check_observe(owner, method, n, batch_obs, batch_reward, batch_done,
                  batch_reset):
    for name, value in (('batch_obs', batch_obs),
                        ('batch_reward', batch_reward),
                        ('batch_done', batch_done),
                        ('batch_reset', batch_reset)):
        if len(value) != n:
            raise ValueError('{}.{}: {} has {} entries, expected {} (one per '
                             'env of the last actions)'.format(
                                 owner, method, name, len(value), n))


class SegmentAgentMixin(object):
    """Acting and taking in outcomes, alike in ACER and PCL: both keep
    ``_runner``, the local ``model`` with its recurrent state
    ``_train_state`` (and ``_state_before_act``), the evaluation state
    ``_eval_state`` (for ``_eval_n`` envs), ``_pending``, the segment's
    ``_seg_obs``, ``_seg_actions`` and ``_seg_rewards``, a
    ``replay_buffer`` (or None) and moving averages of the values and
    entropies seen while acting."""

    @property
    def xp(self):
        return self.model.xp

    def _drop_unobserved(self, *fields):
        """Forget the previous action if its outcome never came: its
        entries in ``fields`` and the recurrent state it led to."""
        if self._pending:
            for field in fields:
                field.pop()
            self._train_state = self._state_before_act

    def _sample_train_action(self, method, call, obs):
        """A training action for ``obs`` sampled from the local model,
        which steps ``_train_state``; returns ``(action, distribution,
        value, entropy)``, the action as a host batch of one."""
        self._state_before_act = self._train_state
        with chainer.no_backprop_mode(), chainer.using_config('train',
                                                              False):
            out, self._train_state = self._runner.call(
                method, self.model, call, [obs], self._train_state)
            distrib = out[0]
            action = to_host(distrib.sample())
            entropy = float(to_host(distrib.entropy).reshape(-1)[0])
        value = float(to_host(out[-1]).reshape(-1)[0])
        return action, distrib, value, entropy

    def _count_act(self, value, entropy):
        """The action is taken: it waits for its outcome, and its value
        and entropy enter the moving averages."""
        self._pending = True
        self.t += 1
        self.average_value += (1 - self.average_value_decay) * (
            value - self.average_value)
        self.average_entropy += (1 - self.average_entropy_decay) * (
            entropy - self.average_entropy)

    def _act_eval(self, method, model, call, batch_obs):
        n = self._runner.check(method, batch_obs)
        if self._eval_n != n:
            self._eval_state = None
        self._eval_n = n
        with chainer.no_backprop_mode(), chainer.using_config('train',
                                                              False):
            out, self._eval_state = self._runner.call(
                method, model, call, list(batch_obs), self._eval_state)
            distrib = out[0]
            if self.act_deterministically:
                return to_host(distrib.most_probable)
            return to_host(distrib.sample())

    def _observe_outcome(self, batch_obs, batch_reward, batch_done,
                         batch_reset):
        """Check the outcome of the pending action and add its reward to
        the segment; returns ``(obs, done, ended, transition)``, the last
        for the replay buffer."""
        method = 'batch_observe_and_train'
        owner = self._runner.owner
        if not self._pending:
            raise RuntimeError('{}.{}: there is no action to observe; call '
                               'batch_act_and_train first'.format(owner,
                                                                  method))
        check_observe(owner, method, 1, batch_obs, batch_reward, batch_done,
                      batch_reset)
        self._runner.check(method, batch_obs)
        obs = batch_obs[0]
        reward = float(batch_reward[0])
        done = bool(batch_done[0])
        ended = done or bool(batch_reset[0])
        self._seg_rewards.append(reward)
        self._pending = False
        transition = dict(state=self._seg_obs[-1],
                          action=self._seg_actions[-1], reward=reward,
                          next_state=obs, next_action=None,
                          is_state_terminal=done)
        return obs, done, ended, transition

    def _store(self, transition, ended):
        """Give the transition to the replay buffer, if any, and forget
        the recurrent state of an ended episode."""
        if self.replay_buffer is not None:
            self.replay_buffer.append(**transition)
            if ended:
                self.replay_buffer.stop_current_episode()
        if ended:
            self._train_state = None

    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        if self.recurrent:
            self._eval_state = reset_rows(self._eval_state, batch_done,
                                          batch_reset)
