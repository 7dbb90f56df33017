"""Pieces the continuous-action off-policy agents (DDPG, TD3, Soft
Actor-Critic) share: where their links live, input checks whose messages
name the agent, cheap target-network updates and statistics windows.

Everything here runs once per environment step or once per update, so it
is written to stay off the profile: no per-call parameter lookups, no
device round trips beyond the one that hands actions to the environment.
"""
import numbers

import numpy

import chainer_core as chainer

from chainer_rl import _arrays
from chainer_rl import distribution as distribution_module
from chainer_rl import recurrent as recurrent_module
from chainer_rl.misc import copy_param as copy_param_module


def check_int(owner, name, value, minimum):
    """``value`` as an int of at least ``minimum`` (bools refused)."""
    return _arrays.check_int(owner, name, value, minimum)


def check_real(owner, name, value, low=None, high=None):
    """``value`` as a float within ``[low, high]`` (either may be None)."""
    value = _arrays.check_real(owner, name, value)
    if (low is not None and value < low) or (high is not None
                                             and value > high):
        raise ValueError('{}: {} must be in [{}, {}], got {}'.format(
            owner, name, '-inf' if low is None else low,
            'inf' if high is None else high, value))
    return value


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
        expected = self.obs_shape
        for i, obs in enumerate(batch_obs):
            shape = getattr(obs, 'shape', None)
            if shape is None:
                continue
            shape = tuple(shape)
            if expected is None:
                expected = shape
            elif shape != expected:
                raise ValueError(
                    '{}: observation {} has shape {}, expected {} (the shape '
                    'of the observations seen before)'.format(
                        where, i, shape, expected))
        return expected

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
