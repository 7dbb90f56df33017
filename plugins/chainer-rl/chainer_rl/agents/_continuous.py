"""Pieces the continuous-action off-policy agents (DDPG, TD3, Soft
Actor-Critic) share: where their links live, input checks whose messages
name the agent, cheap target-network updates and statistics windows.

Everything here runs once per environment step or once per update, so it
is written to stay off the profile: no per-call parameter lookups, no
device round trips beyond the one that hands actions to the environment.
"""
import collections
import copy
import numbers

import numpy

import chainer_core as chainer
import chainer_core.functions as F

from chainer_rl import _arrays
from chainer_rl import distribution as distribution_module
from chainer_rl import recurrent as recurrent_module
from chainer_rl.misc import copy_param as copy_param_module
from chainer_rl.replay_buffer import ReplayUpdater


def check_int(owner, name, value, minimum):
    """``value`` as an int of at least ``minimum`` (bools refused)."""
    return _arrays.check_int(owner, name, value, minimum)


check_real = _arrays.check_real


def check_callable(owner, name, value):
    if not callable(value):
        raise TypeError('{}: {} must be callable, got {!r}'.format(
            owner, name, value))
    return value


def check_link(owner, name, value):
    if not isinstance(value, chainer.Link):
        raise TypeError('{}: {} must be a chainer_core Link, got {}'.format(
            owner, name, type(value).__name__))
    return value


def check_optimizer(owner, name, optimizer, link):
    """The optimizer must be set up on ``link``: an optimizer attached to
    another link would silently train the wrong parameters."""
    if not isinstance(optimizer, chainer.Optimizer):
        raise TypeError('{}: {} must be a chainer_core Optimizer, got {}'
                        .format(owner, name, type(optimizer).__name__))
    if optimizer.target is not link:
        raise ValueError(
            '{}: {} must be set up on its link ({}.setup(...)); it is set up'
            ' on {}'.format(owner, name, name,
                            'nothing' if optimizer.target is None
                            else type(optimizer.target).__name__))
    return optimizer


def resolve_device(owner, gpu, links):
    """Place ``links`` (a dict name -> link) as ChainerRL's ``gpu`` says and
    return the device they share.

    ``gpu=None`` or a negative int leaves them where they are; an int
    ``N >= 0`` moves them to ``@cupy:N``.
    """
    if gpu is not None:
        if isinstance(gpu, bool) or not isinstance(gpu, numbers.Integral):
            raise TypeError('{}: gpu must be None or an int, got {!r}'
                            .format(owner, gpu))
        if gpu >= 0:
            device = chainer.get_device('@cupy:{}'.format(int(gpu)))
            for link in links.values():
                link.to_device(device)
    found = []
    for name, link in links.items():
        for param_name, param in link.namedparams():
            if param.array is not None:
                found.append((name + param_name, param.device))
    if not found:
        return next(iter(links.values())).device
    first_name, first = found[0]
    for name, device in found[1:]:
        if str(device) != str(first):
            raise ValueError(
                '{}: all models must be on one device, but {} is on {} and '
                '{} on {}'.format(owner, first_name, first, name, device))
    return first


def action_of(owner, out):
    """The action Variable of a policy's output: a Distribution's sample,
    or the output itself when the policy returns actions directly."""
    if isinstance(out, distribution_module.Distribution):
        return out.sample()
    if isinstance(out, chainer.Variable):
        return out
    if _arrays.is_array(out):
        return chainer.Variable(out, requires_grad=False)
    raise TypeError('{}: the policy must return a Distribution or a '
                    'Variable of actions, got {}'.format(
                        owner, type(out).__name__))


def greedy_action_of(owner, out):
    """The most probable action of a policy's output."""
    if isinstance(out, distribution_module.Distribution):
        return out.most_probable
    return action_of(owner, out)


class InputChecks(object):
    """Checks of what the environment loop hands the agent.

    The observation shape and the action shape are not given to the agents'
    constructors (ChainerRL's signatures have no spaces), so they are
    learned from the first observation and the first policy output, and
    anything later that disagrees is refused with a message that names the
    agent, the argument, the expected and the actual shape.
    """

    def __init__(self, owner):
        self.owner = owner
        self.obs_shape = None
        self.action_shape = None
        self.action_dtype = None
        self.n_envs = None

    def observations(self, method, batch_obs):
        where = '{}.{}'.format(self.owner, method)
        if isinstance(batch_obs, (str, bytes, dict)) or not hasattr(
                batch_obs, '__len__'):
            raise TypeError(
                '{}: batch_obs must be a sequence with one observation per '
                'env, got {}'.format(where, type(batch_obs).__name__))
        if len(batch_obs) == 0:
            raise ValueError('{}: batch_obs is empty; expected one '
                             'observation per env'.format(where))
        return _arrays.check_obs_shapes(where, batch_obs, self.obs_shape,
                                        'seen before')

    def accept_observations(self, shape):
        if shape is not None:
            self.obs_shape = shape

    def learn_actions(self, actions):
        """Remember the shape and dtype of one row of ``actions`` (host)."""
        if self.action_shape is None:
            self.action_shape = tuple(actions.shape[1:])
            self.action_dtype = actions.dtype

    def burnin_action(self, func, bounds=None):
        """Call ``burnin_action_func`` and check what it returns against the
        policy's actions (shape, and ``bounds`` when the agent knows them)."""
        where = '{}: burnin_action_func'.format(self.owner)
        action = func()
        try:
            array = numpy.asarray(action)
        except Exception as e:
            raise TypeError('{} must return an array-like action, got {} '
                            '({})'.format(where, type(action).__name__, e))
        if array.dtype.kind not in 'fiub':
            raise TypeError('{} must return a numeric action, got dtype {}'
                            .format(where, array.dtype))
        if self.action_shape is not None and array.shape != self.action_shape:
            raise ValueError('{} returned an action of shape {}, expected {} '
                             '(the shape of the policy\'s actions)'.format(
                                 where, array.shape, self.action_shape))
        if not numpy.all(numpy.isfinite(array)):
            raise ValueError('{} returned a non-finite action {}'.format(
                where, array))
        if bounds is not None:
            low, high = bounds
            if numpy.any(array < low) or numpy.any(array > high):
                raise ValueError(
                    '{} returned {}, outside [{}, {}], the range of the '
                    'policy\'s actions (normalize the env\'s action space, '
                    'e.g. with wrappers.NormalizeActionSpace)'.format(
                        where, array, low, high))
        dtype = self.action_dtype if self.action_dtype is not None \
            else numpy.float32
        return array.astype(dtype, copy=False)

    def batch_size(self, method, n, last_n):
        if last_n is None:
            raise RuntimeError(
                '{}.{}: no training action was taken before; call '
                'batch_act_and_train (or act_and_train) first'.format(
                    self.owner, method))
        if n != last_n:
            raise ValueError(
                '{}.{}: batch_obs has {} entries, expected {} (one per env '
                'of the last batch of actions)'.format(
                    self.owner, method, n, last_n))


def policy_actions(owner, method, policy, xs, greedy):
    """Run ``policy`` on the batch ``xs`` and return host actions, wrapping
    a failure on unexpected input in an error naming the agent."""
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        try:
            out = policy(xs)
        except (TypeError, ValueError) as e:
            shape = getattr(xs, 'shape', None)
            raise ValueError(
                '{}.{}: the policy failed on a batch of observations of '
                'shape {} after phi: {}'.format(owner, method, shape, e)) \
                from e
        action = greedy_action_of(owner, out) if greedy else \
            action_of(owner, out)
    return _arrays.to_host(action.array)


def init_twin_critic_agent(agent, owner, policy, q_func1, q_func2,
                           policy_optimizer, q_func1_optimizer,
                           q_func2_optimizer, replay_buffer, gamma, gpu, phi,
                           soft_update_tau, logger, batch_states,
                           burnin_action_func, max_grad_norm):
    """Check and set the arguments TD3 and Soft Actor-Critic share, and
    the state and statistics windows of their twin critics."""
    agent.policy = check_link(owner, 'policy', policy)
    agent.q_func1 = check_link(owner, 'q_func1', q_func1)
    agent.q_func2 = check_link(owner, 'q_func2', q_func2)
    agent.device = resolve_device(owner, gpu, collections.OrderedDict(
        [('policy', policy), ('q_func1', q_func1), ('q_func2', q_func2)]))
    agent.xp = agent.device.xp
    agent.gpu = gpu
    agent.policy_optimizer = check_optimizer(
        owner, 'policy_optimizer', policy_optimizer, policy)
    agent.q_func1_optimizer = check_optimizer(
        owner, 'q_func1_optimizer', q_func1_optimizer, q_func1)
    agent.q_func2_optimizer = check_optimizer(
        owner, 'q_func2_optimizer', q_func2_optimizer, q_func2)
    agent.replay_buffer = replay_buffer
    agent.gamma = check_real(owner, 'gamma', gamma, 0.0, 1.0)
    agent.phi = check_callable(owner, 'phi', phi)
    agent.soft_update_tau = check_real(owner, 'soft_update_tau',
                                       soft_update_tau, 0.0, 1.0)
    agent.logger = logger
    agent.batch_states = check_callable(owner, 'batch_states', batch_states)
    agent.burnin_action_func = None if burnin_action_func is None else \
        check_callable(owner, 'burnin_action_func', burnin_action_func)
    agent.max_grad_norm = max_grad_norm
    agent._clipper = make_clipper(owner, max_grad_norm)

    agent.t = 0
    agent.batch_last_obs = None
    agent.batch_last_action = None
    agent._checks = InputChecks(owner)

    agent.q1_record = collections.deque(maxlen=1000)
    agent.q2_record = collections.deque(maxlen=1000)
    agent.q_func1_loss_record = collections.deque(maxlen=100)
    agent.q_func2_loss_record = collections.deque(maxlen=100)


class TwinCriticMixin(object):
    """Acting, taking in outcomes and target updates of TD3 and Soft
    Actor-Critic (set up by ``init_twin_critic_agent``).

    After burn-in the agent's ``_train_actions(method, batch_obs)`` gives
    the training actions. Burn-in actions are checked against
    ``_burnin_bounds`` (None: unchecked); before the first of them the
    policy runs once, greedily if ``_burnin_probe_greedy``, to learn the
    shape of its actions.
    """

    _burnin_bounds = (-1.0, 1.0)
    _burnin_probe_greedy = True

    def _init_updates(self, owner, minibatch_size, n_times_update,
                      replay_start_size, update_interval,
                      target_policy=False):
        """The replay updater, and target copies of both critics (and of
        the policy if ``target_policy``) with their ``_syncs``."""
        self.replay_updater = make_replay_updater(
            owner, self.replay_buffer, self.update, minibatch_size,
            n_times_update, replay_start_size, update_interval)
        self.minibatch_size = self.replay_updater.batchsize
        sources = [('target_q_func1', self.q_func1),
                   ('target_q_func2', self.q_func2)]
        if target_policy:
            sources.insert(0, ('target_policy', self.policy))
        self._syncs = []
        for name, source in sources:
            target = copy.deepcopy(source)
            setattr(self, name, target)
            self._syncs.append(TargetSync(owner, target, source))

    def sync_target_network(self):
        """Move every target network a step of ``soft_update_tau``."""
        for sync in self._syncs:
            sync.soft(self.soft_update_tau)

    def _policy_actions(self, method, batch_obs, greedy=False):
        shape = self._checks.observations(method, batch_obs)
        xs = self.batch_states(batch_obs, self.xp, self.phi)
        actions = policy_actions(self._checks.owner, method, self.policy, xs,
                                 greedy=greedy)
        self._checks.accept_observations(shape)
        self._checks.learn_actions(actions)
        return actions

    def _batch_act_train(self, batch_obs):
        method = 'batch_act_and_train'
        # The optimizer's count survives save/load.
        if self.burnin_action_func is not None and \
                self.policy_optimizer.t == 0:
            self._checks.observations(method, batch_obs)
            if self._checks.action_shape is None:
                self._policy_actions(method, batch_obs,
                                     self._burnin_probe_greedy)
            actions = [self._checks.burnin_action(self.burnin_action_func,
                                                  self._burnin_bounds)
                       for _ in range(len(batch_obs))]
        else:
            actions = self._train_actions(method, batch_obs)
        self.batch_last_obs = list(batch_obs)
        self.batch_last_action = list(actions)
        return actions

    def _batch_observe_train(self, batch_obs, batch_reward, batch_done,
                             batch_reset):
        store_transitions(self, batch_obs, batch_reward, batch_done,
                          batch_reset)

    def _batch_observe_eval(self, batch_obs, batch_reward, batch_done,
                            batch_reset):
        pass


def update_twin_critics(agent, batch, loss_scale):
    """Fit both critics to ``agent.compute_target_q(batch)`` with
    ``loss_scale`` times the mean squared error."""
    state, action = batch['state'], batch['action']
    predict_q1 = F.flatten(agent.q_func1(state, action))
    predict_q2 = F.flatten(agent.q_func2(state, action))
    for sync in agent._syncs:
        sync.fill_lazy()
    target_q = agent.compute_target_q(batch)
    loss1 = loss_scale * F.mean_squared_error(target_q, predict_q1)
    loss2 = loss_scale * F.mean_squared_error(target_q, predict_q2)

    agent.q1_record.extend(_arrays.to_host(predict_q1.array).tolist())
    agent.q2_record.extend(_arrays.to_host(predict_q2.array).tolist())
    agent.q_func1_loss_record.append(float(loss1.array))
    agent.q_func2_loss_record.append(float(loss2.array))

    update_with(agent.q_func1_optimizer, loss1, agent._clipper)
    update_with(agent.q_func2_optimizer, loss2, agent._clipper)


def twin_critic_statistics(agent):
    return [
        ('average_q1', mean_or_nan(agent.q1_record)),
        ('average_q2', mean_or_nan(agent.q2_record)),
        ('average_q_func1_loss', mean_or_nan(agent.q_func1_loss_record)),
        ('average_q_func2_loss', mean_or_nan(agent.q_func2_loss_record)),
    ]


def check_explorer(owner, explorer):
    if not callable(getattr(explorer, 'select_action', None)):
        raise TypeError('{}: explorer must have a select_action method, '
                        'got {}'.format(owner, type(explorer).__name__))
    return explorer


def make_replay_updater(owner, replay_buffer, update_func, minibatch_size,
                        n_times_update, replay_start_size, update_interval,
                        episodic_update=False, **kwargs):
    """A ``ReplayUpdater`` whose counts are checked with messages naming
    ``owner``."""
    return ReplayUpdater(
        replay_buffer=replay_buffer,
        update_func=update_func,
        batchsize=check_int(owner, 'minibatch_size', minibatch_size, 1),
        episodic_update=episodic_update,
        n_times_update=check_int(owner, 'n_times_update', n_times_update, 0),
        replay_start_size=check_int(owner, 'replay_start_size',
                                    replay_start_size, 0),
        update_interval=check_int(owner, 'update_interval', update_interval,
                                  1),
        **kwargs)


def explore(explorer, t, greedy):
    """One exploratory action per row of the host actions ``greedy``, kept
    in their dtype so that the replay buffer stores one kind of action."""
    dtype = greedy.dtype
    return [numpy.asarray(explorer.select_action(t, lambda i=i: greedy[i]),
                          dtype=dtype)
            for i in range(len(greedy))]


def store_transitions(agent, batch_obs, batch_reward, batch_done,
                      batch_reset, each_step=None):
    """Append the transitions that end in ``batch_obs`` to the agent's
    replay buffer, one env at a time, and let the replay updater run.

    ``each_step`` is called after each step count, before its transition is
    stored, for agents whose target networks follow the step count.
    """
    n = len(batch_obs)
    agent._checks.batch_size(
        'batch_observe_and_train', n,
        None if agent.batch_last_obs is None else len(agent.batch_last_obs))
    for i in range(n):
        agent.t += 1
        if each_step is not None:
            each_step()
        if agent.batch_last_obs[i] is not None:
            agent.replay_buffer.append(
                state=agent.batch_last_obs[i],
                action=agent.batch_last_action[i],
                reward=batch_reward[i],
                next_state=batch_obs[i],
                next_action=None,
                is_state_terminal=bool(batch_done[i]),
                env_id=i,
            )
            if batch_reset[i] or batch_done[i]:
                agent.batch_last_obs[i] = None
                agent.replay_buffer.stop_current_episode(env_id=i)
        agent.replay_updater.update_if_necessary(agent.t)


class TargetSync(object):
    """Hard or soft (Polyak) updates of a target link from its source.

    The parameter pairs are found once; each update is then two in-place
    array operations per parameter. Links holding batch normalization go
    through ``misc.soft_copy_param``/``copy_param``, which also carry the
    running statistics. Parameters initialized lazily (``L.Linear(None,
    n)``) are copied into the target as soon as the source has them, so a
    target never starts from initial values of its own.
    """

    def __init__(self, owner, target, source):
        self.target = target
        self.source = source
        self.generic = any(isinstance(link, chainer.links.BatchNormalization)
                           for link in source.links())
        targets = dict(target.namedparams())
        self.pairs = []
        for name, param in source.namedparams():
            if name not in targets:
                raise ValueError('{}: the target network has no parameter '
                                 '{!r}'.format(owner, name))
            self.pairs.append((targets[name], param))
        if len(targets) != len(self.pairs):
            raise ValueError('{}: the target network has parameters its '
                             'source lacks'.format(owner))
        self.ready = False
        self.fill_lazy()

    def fill_lazy(self):
        """Give target parameters still uninitialized the source's values."""
        if self.ready:
            return
        ready = True
        for dst, src in self.pairs:
            if src.array is None:
                ready = False
            elif dst.array is None:
                dst.initialize(src.shape)
                chainer.backend.copyto(dst.array, src.array)
        self.ready = ready

    def hard(self):
        self.fill_lazy()
        if self.generic and self.ready:
            copy_param_module.copy_param(self.target, self.source)
            return
        for dst, src in self.pairs:
            if src.array is not None:
                chainer.backend.copyto(dst.array, src.array)

    def soft(self, tau):
        self.fill_lazy()
        if self.generic and self.ready:
            copy_param_module.soft_copy_param(self.target, self.source, tau)
            return
        keep = 1.0 - tau
        for dst, src in self.pairs:
            if src.array is not None:
                a = dst.array
                a *= keep
                a += tau * src.array


def mean_or_nan(values):
    return float(numpy.mean(values)) if len(values) else float('nan')


def update_with(optimizer, loss, clipper=None):
    """``optimizer.update`` from a computed loss, clipping the gradients'
    joint norm first when a clipper is given."""
    if clipper is None:
        optimizer.update(lambda: loss)
        return
    optimizer.target.cleargrads()
    loss.backward()
    clipper(optimizer)
    optimizer.update()


def make_clipper(owner, max_grad_norm):
    if max_grad_norm is None:
        return None
    value = check_real(owner, 'max_grad_norm', max_grad_norm)
    if not value > 0:
        raise ValueError('{}: max_grad_norm must be positive or None, got {}'
                         .format(owner, max_grad_norm))
    return chainer.optimizer_hooks.GradientClipping(value)


def holds_recurrent_state(link):
    """Whether ``link`` or a descendant keeps a recurrent state.

    ``recurrent.is_recurrent`` says yes for any ``RecurrentChainMixin``,
    which many plain policies and Q-functions carry; this looks for a link
    that really keeps a state (a stateful core link such as ``L.LSTM``, or
    a ``Recurrent`` of its own).
    """
    if isinstance(link, recurrent_module.Recurrent) and not isinstance(
            link, recurrent_module.RecurrentChainMixin):
        return True
    if not isinstance(link, recurrent_module.Recurrent) and hasattr(
            link, 'reset_state') and hasattr(link, 'h'):
        return True
    children = getattr(link, 'children', None)
    return callable(children) and any(holds_recurrent_state(c)
                                      for c in children())


def advance_state(q_func, state, action):
    """Let a recurrent Q-function observe ``(state, action)``: through its
    ``update_state`` when it has one, else by calling it."""
    update_state = getattr(q_func, 'update_state', None)
    if callable(update_state):
        update_state(state, action)
    else:
        q_func(state, action)


state_kept = recurrent_module.state_kept
state_reset = recurrent_module.state_reset
