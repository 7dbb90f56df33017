"""Pieces the policy-gradient agents share: device placement, batching of
observations with shape checks, model calls, statistics and the
generalized advantage estimator."""
import collections
import contextlib
import math
import numbers

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl.misc.batch_states import batch_states as \
    default_batch_states


def identity(x):
    """The default ``phi``: observations are used as they are."""
    return x


def place_link(owner, link, gpu, name='model'):
    """Move ``link`` as ChainerRL's ``gpu`` argument asks: an int N >= 0
    means CuPy device N, None or a negative int leaves it where it is, a
    device spec string or Device moves it there. Returns the link's device.
    """
    if link is None:
        return None
    if gpu is not None:
        if isinstance(gpu, bool):
            raise TypeError('{}: gpu must be None, an int or a device spec, '
                            'got {!r}'.format(owner, gpu))
        if isinstance(gpu, numbers.Integral):
            spec = '@cupy:{}'.format(int(gpu)) if gpu >= 0 else None
        else:
            spec = gpu
        if spec is not None:
            try:
                device = chainer.get_device(spec)
            except Exception as e:
                raise ValueError(
                    '{}: gpu={!r} asks for device {!r}, which is not '
                    'available ({})'.format(owner, gpu, spec, e)) from None
            link.to_device(device)
    return link.device


def check_model_and_optimizer(owner, model, optimizer):
    """An on-policy agent's ``model`` must be a Link and ``optimizer`` set
    up before the agent is made."""
    if not isinstance(model, chainer.Link):
        raise TypeError('{}: model must be a chainer_core Link, got {}'
                        .format(owner, type(model).__name__))
    if optimizer is None or getattr(optimizer, 'target', None) is None:
        raise ValueError('{}: optimizer must be set up with the model '
                         '(optimizer.setup(model)) before creating the '
                         'agent'.format(owner))


def check_positive_int(owner, name, value, minimum=1):
    return _arrays.check_int(owner, name, value, minimum=minimum)


check_float = _arrays.check_real


def mean_or_nan(values):
    """Mean of a sequence of numbers, NaN when it is empty."""
    return float(numpy.mean(values)) if len(values) else float('nan')


def to_host(x):
    """NumPy copy of an array or Variable of any device."""
    return _arrays.to_host(x)


def flat_values(owner, value, batch_size):
    """The model's value output as a Variable of shape ``(batch_size,)``
    (ChainerRL's V-functions return ``(batch_size, 1)``)."""
    if not isinstance(value, chainer.Variable):
        value = chainer.Variable(value, requires_grad=False)
    if value.size != batch_size:
        raise ValueError('{}: the model returned values of shape {} for a '
                         'batch of {} observations; expected ({},) or ({}, 1)'
                         .format(owner, value.shape, batch_size, batch_size,
                                 batch_size))
    if value.shape != (batch_size,):
        value = F.reshape(value, (batch_size,))
    return value


def explained_variance(predictions, targets):
    """``1 - Var(targets - predictions) / Var(targets)``; NaN when the
    targets do not vary."""
    targets = numpy.asarray(targets, dtype=numpy.float64)
    var = float(numpy.var(targets))
    if len(targets) == 0 or var == 0:
        return float('nan')
    residual = targets - numpy.asarray(predictions, dtype=numpy.float64)
    return float(1.0 - numpy.var(residual) / var)


def gae(rewards, values, next_values, dones, ends, gamma, lambd):
    """Generalized advantage estimates of time-major ``(T, B)`` arrays.

    Args:
        rewards, values: per step and env.
        next_values: value of the observation after each step (used where a
            step is the last of its fragment, i.e. ``ends``; elsewhere
            ``values[t + 1]`` is used).
        dones: True where the step reached a terminal state (nothing is
            bootstrapped).
        ends: True where the step is the last of its episode or of the
            data (terminal, truncated or simply the newest step).

    Returns:
        ``(advantages, value_targets)``, float64 arrays of shape ``(T, B)``.
    """
    rewards = numpy.asarray(rewards, dtype=numpy.float64)
    values = numpy.asarray(values, dtype=numpy.float64)
    next_values = numpy.asarray(next_values, dtype=numpy.float64)
    ends = numpy.asarray(ends, dtype=bool)
    nonterminal = 1.0 - numpy.asarray(dones, dtype=numpy.float64)
    following = numpy.empty_like(values)
    following[:-1] = values[1:]
    following[-1] = 0.0
    boot = numpy.where(ends, next_values, following)
    # A NaN bootstrap of a terminal step is never read.
    boot = numpy.where(nonterminal > 0, boot, 0.0)
    deltas = rewards + gamma * nonterminal * boot - values
    carry = gamma * lambd * (~ends)
    advantages = numpy.empty_like(values)
    adv = numpy.zeros(values.shape[1:], dtype=numpy.float64)
    for t in range(len(values) - 1, -1, -1):
        adv = deltas[t] + carry[t] * adv
        advantages[t] = adv
    return advantages, advantages + values


@contextlib.contextmanager
def acting():
    """Forward passes that only choose actions: no graph, test mode."""
    with chainer.no_backprop_mode(), chainer.using_config('train', False):
        yield


def obs_shape(obs):
    """Shape of one observation; None where it has none to check (tuples
    of inputs, arbitrary objects)."""
    shape = getattr(obs, 'shape', None)
    if shape is not None:
        return tuple(shape)
    if isinstance(obs, (list, numbers.Number)):
        return numpy.shape(obs)
    return None


def check_obs_batch(owner, method, batch_obs, argname, expected):
    """Number of observations in ``batch_obs``, checking that it is a
    non-empty sequence whose observations all have one shape (``expected``
    where one was seen before)."""
    try:
        n = len(batch_obs)
    except TypeError:
        raise TypeError('{}.{}: {} must be a sequence of observations, got'
                        ' {}'.format(owner, method, argname,
                                     type(batch_obs).__name__)) from None
    if n == 0:
        raise ValueError('{}.{}: {} is empty; expected one observation '
                         'per env'.format(owner, method, argname))
    for i, obs in enumerate(batch_obs):
        shape = obs_shape(obs)
        if expected is None:
            expected = shape
        elif shape != expected:
            raise ValueError(
                '{}.{}: {}[{}] has shape {}, expected {} (the shape of '
                'the observations seen before)'.format(
                    owner, method, argname, i, shape, expected))
    return n


class Batcher(object):
    """Turns lists of observations into model input, checking that every
    observation has the shape of the first one seen (a wrong shape would
    otherwise surface as an obscure error deep inside the model)."""

    def __init__(self, owner, batch_states, phi, device, xp):
        self.owner = owner
        self.batch_states = _arrays.check_callable(owner, 'batch_states',
                                                   batch_states)
        self.phi = _arrays.check_callable(owner, 'phi', phi)
        self.set_device(device, xp)
        self.expected_shape = None

    def set_device(self, device, xp):
        # ChainerRL's own batch_states functions take an array module; the
        # default one also accepts the Device, which is never ambiguous.
        self.device = device
        self.xp_arg = device if self.batch_states is default_batch_states \
            else xp

    def check(self, method, batch_obs, argname='batch_obs'):
        return check_obs_batch(self.owner, method, batch_obs, argname,
                               self.expected_shape)

    def __call__(self, method, batch_obs, argname='batch_obs'):
        self.check(method, batch_obs, argname)
        return self.batch_states(batch_obs, self.xp_arg, self.phi)

    def remember(self, batch_obs):
        """Fix the expected shape once the model accepted a batch."""
        if self.expected_shape is None:
            self.expected_shape = obs_shape(batch_obs[0])

    @contextlib.contextmanager
    def first_call(self, method, batch_obs):
        """Around the first model call: a failure is reported with the
        agent's name and the observation shape, and a success fixes the
        shape later batches must have."""
        if self.expected_shape is not None:
            yield
            return
        try:
            yield
        except (ValueError, TypeError, IndexError) as e:
            raise ValueError('{}.{}: the model rejected observations of '
                             'shape {}: {}'.format(
                                 self.owner, method, obs_shape(batch_obs[0]),
                                 e)) from e
        self.remember(batch_obs)

    def pi_and_v(self, method, model, batch_obs, phi):
        """``(distribution, values)`` of the actor-critic ``model`` on
        ``batch_obs``."""
        x = self.batch_states(batch_obs, self.xp_arg, phi)
        with self.first_call(method, batch_obs):
            return check_pair(self.owner, call_pi_and_v(model, x))


class BatcherFollowsLink(object):
    """For agents whose ``_batcher`` must follow the link named by
    ``_device_link`` when it is moved after the agent was made."""

    _device_link = 'model'

    @property
    def xp(self):
        return getattr(self, self._device_link).xp

    def _sync_device(self):
        link = getattr(self, self._device_link)
        if link.device != self._batcher.device:
            self._batcher.set_device(link.device, link.xp)


class PiAndVModel(chainer.Link):
    """Interface of an actor-critic model: ``pi_and_v(obs)`` gives the
    action distribution and the values of a batch of observations."""

    def pi_and_v(self, obs):
        """Return ``(distribution, values)`` for the batch ``obs``."""
        raise NotImplementedError(
            '{}.pi_and_v is not implemented'.format(type(self).__name__))

    def forward(self, obs):
        return self.pi_and_v(obs)


class SeparatePiAndV(object):
    """Mixin, ahead of ``chainer.Chain``: a policy ``pi`` and a V-function
    ``v`` that share nothing."""

    def __init__(self, pi, v):
        super().__init__()
        with self.init_scope():
            self.pi = pi
            self.v = v

    def pi_and_v(self, obs):
        return self.pi(obs), self.v(obs)

    def forward(self, obs):
        return self.pi_and_v(obs)


class SharedPiAndV(object):
    """Mixin, ahead of ``chainer.Chain``: a policy ``pi`` and a V-function
    ``v`` that both read the features computed by ``shared``."""

    def __init__(self, shared, pi, v):
        super().__init__()
        with self.init_scope():
            self.shared = shared
            self.pi = pi
            self.v = v

    def pi_and_v(self, obs):
        h = self.shared(obs)
        return self.pi(h), self.v(h)

    def forward(self, obs):
        return self.pi_and_v(obs)


def call_pi_and_v(model, x):
    """A ChainerRL A2C/A3C model has ``pi_and_v``; a PFRL-style one is
    called directly; either returns ``(distribution, values)``."""
    pi_and_v = getattr(model, 'pi_and_v', None)
    if pi_and_v is not None:
        return pi_and_v(x)
    return model(x)


def check_pair(owner, out):
    if not isinstance(out, tuple) or len(out) != 2:
        raise TypeError('{}: the model must return (action distribution, '
                        'values), got {}'.format(owner, type(out).__name__))
    return out


def check_pending(owner, method, pending):
    """An outcome can only be observed after the actions that led to it."""
    if not pending:
        raise RuntimeError('{}.{}: there are no actions to observe; call '
                           'batch_act_and_train first'.format(owner, method))


def check_batch_size(owner, method, argname, got, expected):
    if got != expected:
        raise ValueError('{}.{}: {} has {} entries, expected {} (one per env '
                         'of the last batch of actions)'.format(
                             owner, method, argname, got, expected))


def index_batch(x, idx):
    """Rows ``idx`` (a device index array) of a batch or tuple/dict of
    batches."""
    if isinstance(x, tuple):
        return tuple(index_batch(a, idx) for a in x)
    if isinstance(x, dict):
        return {k: index_batch(a, idx) for k, a in x.items()}
    return x[idx]


def send(device, array):
    return device.send(numpy.ascontiguousarray(array))


class Window(collections.deque):
    """A bounded record of recent numbers for ``get_statistics``."""

    def __init__(self, maxlen):
        super().__init__(maxlen=maxlen)


def record_outcome(owner, method, rollout, batcher, batch_obs, batch_reward,
                   batch_done, batch_reset, update_due, values_of):
    """Check the outcome of the rollout's pending step and add it.

    ``update_due(steps, n_envs)`` says whether the rollout is due for an
    update once it holds ``steps`` steps; ``values_of()`` runs the model on
    ``batch_obs`` and returns its values. Returns ``(dones, resets,
    update_now)``.
    """
    check_pending(owner, method, rollout.pending)
    n = rollout.n_envs
    check_batch_size(owner, method, 'batch_obs', len(batch_obs), n)
    batcher.check(method, batch_obs)
    rewards = numpy.asarray(batch_reward, dtype=numpy.float64)
    dones = numpy.asarray(batch_done, dtype=bool)
    resets = numpy.logical_and(numpy.asarray(batch_reset, dtype=bool),
                               ~dones)
    for name, a in (('batch_reward', rewards), ('batch_done', dones),
                    ('batch_reset', resets)):
        if a.shape != (n,):
            raise ValueError('{}.{}: {} must have one entry per env, '
                             'shape ({},), got {}'.format(
                                 owner, method, name, n, a.shape))
    update_now = update_due(len(rollout) + 1, n)
    # Values of the observations after this step, needed where the
    # following step will not provide them: truncated episodes and,
    # before an update, every unfinished fragment.
    need = resets | (~dones if update_now else resets)
    next_values = numpy.full(n, numpy.nan)
    if need.any():
        with acting():
            v = values_of()
        next_values[need] = host_values(owner, v, n)[need]
    rollout.add_observe(rewards, dones, resets, next_values)
    return dones, resets, update_now


_STATELESS_RECURRENT_METHODS = ('n_step_forward', 'mask_recurrent_state_at',
                                'get_recurrent_state_at',
                                'concatenate_recurrent_states')


class RecurrentRolloutMixin(object):
    """What PPO and TRPO do alike: gathering a rollout, taking in outcomes,
    acting in evaluation, the advantages of an update, and the
    recurrent-state bookkeeping (the states of envs whose episode ended
    are reset, in training and in evaluation). The agent defines
    ``_mask_state(state, indices)``, which takes a None state,
    ``_forward(method, batch_obs, state, with_value=True)``, which returns
    ``(distribution, values or None, new state)``, and ``_update()``."""

    def _init_recurrence(self, owner, recurrent, max_recurrent_sequence_len,
                         links, message):
        """Set ``recurrent`` and ``max_recurrent_sequence_len``; a recurrent
        agent's ``links`` (``(name, link)`` pairs) must be
        StatelessRecurrent, else TypeError with ``message`` formatted with
        ``name``, ``type`` and ``method``."""
        self.recurrent = bool(recurrent)
        self.max_recurrent_sequence_len = (
            None if max_recurrent_sequence_len is None
            else check_positive_int(owner, 'max_recurrent_sequence_len',
                                    max_recurrent_sequence_len))
        if self.recurrent:
            for name, link in links:
                for method in _STATELESS_RECURRENT_METHODS:
                    if not callable(getattr(link, method, None)):
                        raise TypeError('{}: {}'.format(owner, message.format(
                            name=name, type=type(link).__name__,
                            method=method)))

    def _init_rollout(self, value_stats_window, entropy_stats_window):
        self.value_record = Window(value_stats_window)
        self.entropy_record = Window(entropy_stats_window)
        self.explained_variance = float('nan')
        self._rollout = Rollout()
        self.train_recurrent_states = None
        self.test_recurrent_states = None
        self._test_n_envs = None

    def _batch_act_train(self, batch_obs):
        method = 'batch_act_and_train'
        owner = self._batcher.owner
        self._sync_device()
        n = self._batcher.check(method, batch_obs)
        if self._rollout.n_envs is not None and len(self._rollout) and \
                n != self._rollout.n_envs:
            raise ValueError(
                '{}.{}: batch_obs has {} observations but the data gathered '
                'since the last update comes from {} envs; the number of '
                'envs must stay the same during training'.format(
                    owner, method, n, self._rollout.n_envs))
        if self._rollout.n_envs not in (None, n):
            self.train_recurrent_states = None
        with acting():
            prev_state = self.train_recurrent_states
            distrib, value, state = self._forward(method, batch_obs,
                                                  prev_state)
            action, log_prob, entropy = act_on_host(distrib)
        values = host_values(owner, value, n)
        self.value_record.extend(values.tolist())
        self.entropy_record.extend(entropy.tolist())
        self._rollout.add_act(batch_obs, action, log_prob, values,
                              prev_state)
        if self.recurrent:
            self.train_recurrent_states = state
        return action

    def _reset_ended_train_states(self, dones, resets):
        if self.recurrent:
            ended = numpy.flatnonzero(dones | resets).tolist()
            if ended:
                self.train_recurrent_states = self._mask_state(
                    self.train_recurrent_states, ended)

    def _batch_act_eval(self, batch_obs):
        method = 'batch_act'
        self._sync_device()
        n = self._batcher.check(method, batch_obs)
        # A state kept for another number of envs cannot continue.
        state = self.test_recurrent_states if self._test_n_envs == n \
            else None
        self._test_n_envs = n
        with acting():
            distrib, _, state = self._forward(method, batch_obs, state,
                                              with_value=False)
            action = act_on_host(distrib, self.act_deterministically,
                                 stats=False)
        if self.recurrent:
            self.test_recurrent_states = state
        return action

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        method = 'batch_observe_and_train'
        dones, resets, update_now = record_outcome(
            self._batcher.owner, method, self._rollout, self._batcher,
            batch_obs, batch_reward, batch_done, batch_reset,
            lambda steps, n: steps * n >= self.update_interval,
            lambda: self._forward(method, batch_obs,
                                  self.train_recurrent_states)[1])
        self._reset_ended_train_states(dones, resets)
        if update_now:
            self._update()

    def _advantages(self):
        """The rollout's arrays, where its episode fragments end, the GAE
        advantages (standardized if asked) and the value targets; the
        explained variance of the targets is recorded."""
        data = self._rollout.arrays()
        ends = episode_ends(data['dones'], data['resets'])
        advs, v_teacher = gae(data['rewards'], data['values'],
                              data['next_values'], data['dones'], ends,
                              self.gamma, self.lambd)
        self.explained_variance = explained_variance(
            data['values'].ravel(), v_teacher.ravel())
        if self.standardize_advantages:
            advs = (advs - advs.mean()) / (advs.std() + 1e-8)
        return data, ends, advs, v_teacher

    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        if not self.recurrent or self.test_recurrent_states is None:
            return
        ended = [i for i, (d, r) in enumerate(zip(batch_done, batch_reset))
                 if d or r]
        if ended:
            self.test_recurrent_states = self._mask_state(
                self.test_recurrent_states, ended)


def isfinite(x):
    return not (math.isnan(x) or math.isinf(x))


class Rollout(object):
    """On-policy data since the last update, time-major: one entry per step
    holding every env's observation, action, log-probability, value,
    reward and end flags (all envs step together, so each field stacks
    into a ``(T, B)`` array)."""

    def __init__(self):
        self.clear()

    def clear(self):
        self.obs = []
        self.actions = []
        self.log_probs = []
        self.values = []
        self.states = []
        self.rewards = []
        self.dones = []
        self.resets = []
        self.next_values = []
        self.n_envs = None

    def __len__(self):
        """Number of complete steps (acted and observed)."""
        return len(self.rewards)

    @property
    def pending(self):
        """Whether the newest step still waits for its outcome."""
        return len(self.obs) > len(self.rewards)

    def add_act(self, batch_obs, actions, log_probs, values, state=None):
        if self.pending:
            # An action whose outcome never came (an interrupted loop) is
            # dropped rather than paired with an unrelated reward.
            for field in (self.obs, self.actions, self.log_probs,
                          self.values, self.states):
                if len(field) > len(self.rewards):
                    field.pop()
        self.n_envs = len(batch_obs)
        self.obs.append(list(batch_obs))
        self.actions.append(actions)
        self.log_probs.append(log_probs)
        self.values.append(values)
        self.states.append(state)

    def add_observe(self, rewards, dones, resets, next_values):
        self.rewards.append(rewards)
        self.dones.append(dones)
        self.resets.append(resets)
        self.next_values.append(next_values)

    def arrays(self):
        """The complete steps as stacked host arrays."""
        n = len(self)
        return dict(
            actions=numpy.stack(self.actions[:n]),
            log_probs=(None if self.log_probs[0] is None
                       else numpy.stack(self.log_probs[:n])),
            values=numpy.stack(self.values[:n]),
            rewards=numpy.stack(self.rewards),
            dones=numpy.stack(self.dones),
            resets=numpy.stack(self.resets),
            next_values=numpy.stack(self.next_values))

    def flat_obs(self):
        """Observations of the complete steps, time-major."""
        return [o for step in self.obs[:len(self)] for o in step]

    def sequence_obs(self, env, start, stop):
        """Observations of one env's steps ``start`` to ``stop - 1``."""
        return [self.obs[t][env] for t in range(start, stop)]


def episode_ends(dones, resets):
    """Where each env's episode fragment ends: terminal or truncated steps
    and the newest step."""
    ends = numpy.logical_or(dones, resets)
    ends[-1] = True
    return ends


def sequences_of(ends, max_len):
    """Split each env's steps into runs within one episode fragment, of at
    most ``max_len`` steps (None: no limit).

    Returns:
        list of ``(env, start, stop)``.
    """
    T, B = ends.shape
    result = []
    for i in range(B):
        stops = numpy.flatnonzero(ends[:, i]) + 1
        start = 0
        for stop in stops:
            step = (stop - start) if max_len is None else max_len
            for s in range(start, stop, step):
                result.append((i, int(s), int(min(s + step, stop))))
            start = stop
    return result


def sequence_index(sequences):
    """``(times, envs)``: the index of the steps of ``sequences`` into
    time-major ``(T, B)`` arrays, sequence after sequence."""
    return (numpy.concatenate([numpy.arange(s, e) for _, s, e in sequences]),
            numpy.concatenate([numpy.full(e - s, i)
                               for i, s, e in sequences]))


def start_states(link, states, sequences):
    """The batched recurrent state of ``link`` at the start of each of
    ``sequences``, from ``states``, the batched states before each step
    (None: the initial state)."""
    return link.concatenate_recurrent_states([
        None if states[s] is None
        else link.get_recurrent_state_at(states[s], i, True)
        for i, s, _ in sequences])


def minibatches(n, size):
    """One epoch over ``n`` samples: their indices in a random order, in
    slices of ``size``."""
    perm = numpy.random.permutation(n)
    for start in range(0, n, size):
        yield perm[start:start + size]


def sequence_minibatches(sequences, min_steps):
    """One epoch over ``sequences``: in a random order, grouped until a
    group holds ``min_steps`` steps (the last group may hold fewer)."""
    order = numpy.random.permutation(len(sequences))
    batch, size = [], 0
    for k, j in enumerate(order):
        batch.append(sequences[j])
        size += sequences[j][2] - sequences[j][1]
        if size >= min_steps or k == len(order) - 1:
            yield batch
            batch, size = [], 0


def _host_log_softmax(distrib):
    from chainer_rl import distribution as D
    if type(distrib) is D.SoftmaxDistribution and distrib.min_prob == 0:
        z = distrib.beta * to_host(distrib.logits).astype(numpy.float64)
        z = z - z.max(axis=1, keepdims=True)
        return z - numpy.log(numpy.exp(z).sum(axis=1, keepdims=True))
    return to_host(distrib.all_log_prob).astype(numpy.float64)


def _host_categorical(distrib, greedy):
    log_p = _host_log_softmax(distrib)
    if greedy:
        action = log_p.argmax(axis=1)
    else:
        # The Gumbel-max trick, as the distribution's own sampler.
        action = (log_p + numpy.random.gumbel(size=log_p.shape)).argmax(
            axis=1)
    action = action.astype(numpy.int32)
    p = numpy.exp(log_p)
    with numpy.errstate(invalid='ignore'):
        entropy = -numpy.where(p > 0, p * log_p, 0.0).sum(axis=1)
    log_prob = log_p[numpy.arange(len(action)), action]
    return action, log_prob, entropy


def _host_gaussian(distrib, greedy):
    mean = to_host(distrib.mean)
    dtype = mean.dtype
    mean = mean.astype(numpy.float64)
    var = to_host(distrib.var).astype(numpy.float64)
    log_var = numpy.log(var)
    if greedy:
        action = mean
    else:
        eps = numpy.random.standard_normal(mean.shape).astype(dtype)
        action = mean + numpy.sqrt(var) * eps
    action = action.astype(dtype)
    diff = action.astype(numpy.float64) - mean
    log_prob = -0.5 * (numpy.log(2 * numpy.pi) + log_var
                       + diff * diff / var).sum(axis=1)
    entropy = 0.5 * (numpy.log(2 * numpy.pi) + 1 + log_var).sum(axis=1)
    return action, log_prob, entropy


def act_on_host(distrib, greedy=False, stats=True):
    """Actions drawn from ``distrib`` (its mode if ``greedy``) with their
    log-probabilities and the entropies, as host arrays.

    Acting needs no graph, so the common distributions are evaluated with
    NumPy from their parameters instead of by a dozen small device ops per
    step; any other distribution goes through its own methods. With
    ``stats=False`` only the actions are returned.
    """
    from chainer_rl import distribution as D
    if isinstance(distrib, D.CategoricalDistribution):
        out = _host_categorical(distrib, greedy)
        return out if stats else out[0]
    if type(distrib) is D.GaussianDistribution:
        out = _host_gaussian(distrib, greedy)
        return out if stats else out[0]
    action = distrib.most_probable if greedy else distrib.sample()
    if not stats:
        return to_host(action)
    log_prob = distrib.log_prob(action)
    return (to_host(action), to_host(log_prob).astype(numpy.float64),
            to_host(distrib.entropy).astype(numpy.float64))


def host_values(owner, value, batch_size):
    """The model's values as a host vector of length ``batch_size``."""
    values = to_host(value)
    if values.size != batch_size:
        raise ValueError('{}: the model returned values of shape {} for a '
                         'batch of {} observations; expected ({},) or ({}, 1)'
                         .format(owner, values.shape, batch_size, batch_size,
                                 batch_size))
    return values.reshape(batch_size)


def keeps_state(link):
    """Whether ``link`` really carries a recurrent state from call to call:
    a stateful chainer_core link or a custom ``Recurrent`` somewhere inside
    (a ``RecurrentChainMixin`` without such children keeps nothing)."""
    from chainer_rl import recurrent as R
    if isinstance(link, R.Recurrent) and not isinstance(
            link, R.RecurrentChainMixin):
        return True
    if not isinstance(link, chainer.Link):
        return False
    if hasattr(link, 'reset_state') and hasattr(link, 'h') and \
            not isinstance(link, R.Recurrent):
        return True
    children = link.children() if hasattr(link, 'children') else ()
    return any(keeps_state(child) for child in children)
