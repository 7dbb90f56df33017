"""Optimizers: update rules per parameter, driven by an Optimizer."""
import collections
import copy
import functools
import math
import warnings

import numpy

from chainer_core import optimizer_hooks
from chainer_core.variable import Variable


class Hyperparameter:
    """Hyperparameters with fallback to a parent (per-parameter overrides).

    ``optimizer.hyperparam`` is the parent of every update rule's
    ``hyperparam``; setting ``rule.hyperparam.lr`` overrides one parameter.
    """

    def __init__(self, parent=None):
        self._parent = parent

    def __getattr__(self, name):
        if name.startswith('_') or '_parent' not in self.__dict__:
            raise AttributeError(name)
        parent = self.__dict__['_parent']
        if parent is None:
            raise AttributeError('hyperparameter {!r} is not set'.format(
                name))
        return getattr(parent, name)

    def __repr__(self):
        items = sorted(self.get_dict().items())
        return 'Hyperparameter({})'.format(
            ', '.join('{}={!r}'.format(k, v) for k, v in items))

    @property
    def parent(self):
        return self._parent

    def get_dict(self):
        """All hyperparameters, own values overriding the parent's."""
        d = {} if self._parent is None else self._parent.get_dict()
        d.update((k, v) for k, v in self.__dict__.items()
                 if not k.startswith('_'))
        return d


class HyperparameterProxy:
    """``optimizer.<name>`` reads and writes
    ``optimizer.hyperparam.<name>``."""

    def __init__(self, attr_name):
        self._name = attr_name
        self.__doc__ = 'Alias of ``hyperparam.{}``.'.format(attr_name)

    def __get__(self, obj, type=None):
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._name)

    def __set__(self, obj, value):
        setattr(obj.hyperparam, self._name, value)


def _hook_name(hook, name):
    if name is None:
        name = getattr(hook, 'name', getattr(hook, '__name__', None))
    if name is None:
        raise ValueError('the name of the hook function is not specified')
    return name


def _hook_timing(hook, timing):
    if timing not in ('pre', 'post', 'auto'):
        raise ValueError("timing must be 'pre', 'post' or 'auto', got {!r}"
                         .format(timing))
    if timing != 'auto':
        return timing
    # A plain function as a hook is common: without a timing of its own
    # it runs before the update, as in Chainer, without a warning.
    timing = getattr(hook, 'timing', None)
    return timing if timing in ('pre', 'post') else 'pre'


def _check_callable(hook, where):
    if not callable(hook):
        raise TypeError('{}: hook function must be callable, got {!r} ({})'
                        .format(where, hook, type(hook).__name__))


def _on_device(value, device):
    """``value`` on ``device`` (a state array loaded on the host, say)."""
    if not hasattr(value, 'shape') or isinstance(value, numpy.generic):
        return value
    if device.is_array_supported(value):
        return value
    return device.send(value)


class UpdateRule:
    """How one parameter is updated from its gradient.

    Subclasses implement :meth:`init_state` (allocate ``self.state``
    arrays like the parameter) and :meth:`update_core` (update
    ``param.array`` in place from ``param.grad``), or instead of the latter
    :meth:`update_core_cpu` and :meth:`update_core_gpu`.

    Attributes:
        enabled (bool): when False, :meth:`update` leaves the parameter as
            it is.
        hyperparam (Hyperparameter): this rule's hyperparameters; unset
            entries fall back to the optimizer's.
        t (int): the number of updates made by this rule.
    """

    def __init__(self, parent_hyperparam=None):
        self._pre_update_hooks = collections.OrderedDict()
        self._post_update_hooks = collections.OrderedDict()
        self._state = None
        self.enabled = True
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self.t = 0
        self._use_fp32_update = False
        self._fp32_param = None

    @property
    def state(self):
        """The state dictionary (None before the first update)."""
        return self._state

    def add_hook(self, hook, name=None, timing='auto'):
        """Add ``hook(rule, param)`` to run before or after each update.

        Args:
            hook (callable): the hook.
            name (str): its name (default: ``hook.name``).
            timing (str): ``'pre'``, ``'post'``, or ``'auto'`` to use the
                hook's ``timing`` attribute (``'pre'`` if it has none).
        """
        _check_callable(hook, '{}.add_hook'.format(type(self).__name__))
        timing = _hook_timing(hook, timing)
        name = _hook_name(hook, name)
        if name in self._pre_update_hooks or name in self._post_update_hooks:
            raise ValueError('hook "{}" already exists'.format(name))
        hooks = self._pre_update_hooks if timing == 'pre' else \
            self._post_update_hooks
        hooks[name] = hook

    def remove_hook(self, name):
        """Remove the hook registered as ``name``."""
        for hooks in (self._pre_update_hooks, self._post_update_hooks):
            if name in hooks:
                del hooks[name]
                return
        raise KeyError('no hook named {}'.format(name))

    def update(self, param):
        """Run the hooks and update ``param`` (nothing when its grad is
        None or the rule is disabled)."""
        if not self.enabled:
            return
        self.t += 1
        if param._data is None or param._grad_array() is None:
            return
        if self._use_fp32_update and param.dtype == numpy.float16:
            self._update_in_fp32(param)
            return
        self._prepare(param)
        loss_scale = param._loss_scale
        if loss_scale is not None:
            param.grad = param.grad / loss_scale
            # Divided once: a second update without a new backward pass
            # must not divide again.
            param._loss_scale = None
        self._run(param)

    def _run(self, param):
        for hook in self._pre_update_hooks.values():
            hook(self, param)
        self.update_core(param)
        for hook in self._post_update_hooks.values():
            hook(self, param)

    def _update_in_fp32(self, param):
        master = self._fp32_param
        if master is None or master.shape != param.shape:
            master = self._fp32_param = Variable(
                param.array.astype(numpy.float32), name=param.name)
        elif not param.device.is_array_supported(master.array):
            master.array = param.device.send(master.array)
        # The gradient is cast before the loss scale is divided out, so
        # small gradients that float16 holds only scaled survive.
        grad = param.grad.astype(numpy.float32)
        loss_scale = param._loss_scale
        if loss_scale is not None:
            grad /= loss_scale
            param._loss_scale = None
        master.grad = grad
        self._prepare(master)
        self._run(master)
        param.array[...] = master.array.astype(param.dtype)
        master.grad = None

    def _prepare(self, param):
        if self._state is None:
            self._state = {}
            self.init_state(param)
        state = self._state
        if state:
            device = param.device
            for key, value in state.items():
                state[key] = _on_device(value, device)

    def update_core(self, param):
        """Update ``param.array`` from ``param.grad``.

        The default calls :meth:`update_core_cpu` for NumPy arrays and
        :meth:`update_core_gpu` for CuPy arrays.
        """
        xp = param.device.xp
        if xp is numpy or isinstance(param.array, numpy.ndarray):
            self.update_core_cpu(param)
        elif getattr(xp, '__name__', '') == 'cupy':
            self.update_core_gpu(param)
        else:
            raise NotImplementedError(
                '{} has no update for arrays of device {}: override '
                'update_core'.format(type(self).__name__, param.device))

    def update_core_cpu(self, param):
        raise NotImplementedError(
            '{} must implement update_core or update_core_cpu'.format(
                type(self).__name__))

    def update_core_gpu(self, param):
        raise NotImplementedError(
            '{} must implement update_core or update_core_gpu'.format(
                type(self).__name__))

    def init_state(self, param):
        """Allocate the state arrays for ``param`` (default: none)."""

    def use_fp32_update(self, flag=True):
        """Update float16 parameters through a float32 master copy.

        The gradient is cast to float32, the update (and the hooks) run on
        the master copy, and the parameter receives the result cast back.
        """
        self._use_fp32_update = flag

    def serialize(self, serializer):
        """Save or load ``t``, the state arrays and the float32 master
        copy (when :meth:`use_fp32_update` is on)."""
        from chainer_core.serializer import Deserializer
        loading = isinstance(serializer, Deserializer)
        self.t = serializer('t', self.t)
        if self._state is not None:
            for key in sorted(self._state):
                self._state[key] = serializer(key, self._state[key])
        elif loading:
            self._load_fresh_state(serializer)
        else:
            # Saved as "none", so that loading knows the state was not
            # made yet (the parameter never updated) rather than missing.
            for key in self._state_keys():
                serializer(key, None)
        if self._use_fp32_update:
            self._serialize_fp32_param(serializer, loading)

    def _state_keys(self):
        # init_state on a stand-in parameter, run on a shallow copy with a
        # state of its own, so that nothing of ours changes.
        probe = copy.copy(self)
        probe._state = {}
        dummy = numpy.empty(1, numpy.float32)
        probe.init_state(Variable(dummy, grad=dummy))
        return sorted(probe._state)

    def _load_fresh_state(self, serializer):
        state = {}
        for key in self._state_keys():
            try:
                value = serializer(key, None)
            except KeyError:
                if self.enabled:
                    raise
                value = None
            if value is None:
                # Not made before saving: it is made on the first update.
                return
            state[key] = value
        self._state = state

    def _serialize_fp32_param(self, serializer, loading):
        master = self._fp32_param
        if not loading:
            if master is not None:
                serializer('fp32_param', master.array)
            return
        try:
            value = serializer('fp32_param',
                               None if master is None else master.array)
        except KeyError:
            # Saved without a master copy: it is made from the parameter.
            return
        if value is not None and master is None:
            self._fp32_param = Variable(
                numpy.asarray(value, dtype=numpy.float32))


class Optimizer:
    """Base of optimizers: owns the target link and the hooks.

    Attributes:
        target (Link): the link whose parameters are updated.
        t (int): the number of updates.
        epoch (int): the epoch count (see :meth:`new_epoch`).
        use_auto_new_epoch (bool): set by updaters that call
            :meth:`new_epoch` themselves.
    """

    target = None
    t = 0
    epoch = 0
    use_auto_new_epoch = False
    _pre_update_hooks = None
    _post_update_hooks = None
    _loss_scale = None
    _loss_scale_max = 65504  # the largest float16
    _loss_scaling_is_dynamic = False
    _loss_scaling_isnan = False
    _loss_scaling_isnan_ever = False

    def setup(self, link):
        """Attach to ``link`` (its parameters will be updated) and drop the
        hooks. Returns ``self``."""
        from chainer_core.link import Link
        if not isinstance(link, Link):
            # Chainer's message first: code may match on it.
            raise TypeError('optimization target must be a link: {}.setup '
                            'takes a chainer.Link, got {}'.format(
                                type(self).__name__, type(link).__name__))
        self.target = link
        self.t = 0
        self.epoch = 0
        self._pre_update_hooks = collections.OrderedDict()
        self._post_update_hooks = collections.OrderedDict()
        return self

    def update(self, lossfun=None, *args, **kwds):
        """Update the parameters (from ``lossfun(*args, **kwds)`` if
        given)."""
        raise NotImplementedError

    def new_epoch(self, auto=False):
        """Count an epoch.

        Args:
            auto (bool): True when an updater calls it; it must then have
                set :attr:`use_auto_new_epoch`.
        """
        if auto and not self.use_auto_new_epoch:
            raise RuntimeError(
                'new_epoch(auto=True) called, but use_auto_new_epoch is '
                'False: the updater must set optimizer.use_auto_new_epoch = '
                'True')
        if not auto and self.use_auto_new_epoch:
            raise RuntimeError(
                'new_epoch is called by the updater (use_auto_new_epoch is '
                'True): pass auto_new_epoch=False to the updater or stop '
                'calling new_epoch yourself')
        self.epoch += 1

    def _check_set_up(self):
        if self.target is None:
            raise RuntimeError('{} is not set up: call optimizer.setup(link) '
                               'first'.format(type(self).__name__))

    def add_hook(self, hook, name=None, timing='auto'):
        """Add an optimizer hook.

        A hook with a true ``call_for_each_param`` attribute is called as
        ``hook(rule, param)`` for every parameter, others as
        ``hook(optimizer)``.

        Args:
            hook (callable): the hook.
            name (str): its name (default: ``hook.name``).
            timing (str): ``'pre'`` (before the update), ``'post'``, or
                ``'auto'`` for the hook's ``timing`` attribute.
        """
        _check_callable(hook, '{}.add_hook'.format(type(self).__name__))
        self._check_set_up()
        timing = _hook_timing(hook, timing)
        name = _hook_name(hook, name)
        if name in self._pre_update_hooks or name in self._post_update_hooks:
            raise KeyError('hook "{}" already exists'.format(name))
        hooks = self._pre_update_hooks if timing == 'pre' else \
            self._post_update_hooks
        hooks[name] = hook

    def remove_hook(self, name):
        """Remove the hook registered as ``name``."""
        for hooks in (self._pre_update_hooks or {},
                      self._post_update_hooks or {}):
            if name in hooks:
                del hooks[name]
                return
        raise KeyError('no hook named {}'.format(name))

    def call_hooks(self, timing='pre'):
        """Call the hooks of ``timing`` in registration order."""
        for hook in self._hooks_of(timing):
            self._call_hook(hook)

    def _hooks_of(self, timing):
        if timing not in ('pre', 'post'):
            raise ValueError("timing must be 'pre' or 'post', got {!r}"
                             .format(timing))
        hooks = self._pre_update_hooks if timing == 'pre' else \
            self._post_update_hooks
        return list((hooks or {}).values())

    def _call_hook(self, hook):
        if getattr(hook, 'call_for_each_param', False):
            for param in self.target.params():
                hook(param.update_rule, param)
        else:
            hook(self)

    def serialize(self, serializer):
        """Save or load ``t``, ``epoch``, every parameter's rule state and,
        with dynamic loss scaling, the current scale.

        The target's parameters are not included: serialize the link too.
        """
        self.t = serializer('t', self.t)
        self.epoch = serializer('epoch', self.epoch)
        if self._loss_scaling_is_dynamic:
            self._serialize_loss_scaling(serializer)
        for name, param in self.target.namedparams():
            rule = getattr(param, 'update_rule', None)
            if rule is not None:
                rule.serialize(serializer[name.lstrip('/')])

    def _serialize_loss_scaling(self, serializer):
        try:
            self._loss_scale = float(serializer('loss_scale',
                                                self._loss_scale))
            self._loss_scaling_isnan_ever = bool(serializer(
                'loss_scaling_isnan_ever', self._loss_scaling_isnan_ever))
        except KeyError:
            # A snapshot taken without dynamic loss scaling: start afresh.
            pass

    def loss_scaling(self, interval=1000, scale=None):
        """Configure loss scaling.

        Args:
            interval (int): with dynamic scaling, the number of clean updates
                over which the scale doubles once an overflow has been seen
                (before the first overflow it doubles every update).
            scale (float): a fixed scale; None means dynamic scaling, which
                starts at 1, halves it and skips the update whenever a
                gradient holds Inf or NaN.
        """
        if scale is None:
            if interval < 1:
                raise ValueError('interval must be at least 1, got {}'
                                 .format(interval))
            self._loss_scaling_is_dynamic = True
            self._loss_scale = 1.0
            self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
            self._loss_scaling_isnan_ever = False
        else:
            if scale <= 0:
                raise ValueError('loss scale must be positive, got {}'
                                 .format(scale))
            self._loss_scale = scale

    def set_loss_scale(self, loss_scale):
        """Set the loss scale (``loss_scaling(scale=loss_scale)``)."""
        self.loss_scaling(scale=loss_scale)

    def check_nan_in_grads(self):
        """With dynamic loss scaling, note (and warn) whether any gradient
        holds Inf or NaN."""
        self._loss_scaling_isnan = False
        if not self._loss_scaling_is_dynamic:
            return
        bad = []
        for name, param in self.target.namedparams(False):
            g = param.grad
            if g is None:
                continue
            if not bool(param.device.xp.isfinite(g).all()):
                bad.append(name)
        if bad:
            self._loss_scaling_isnan = True
            self._loss_scaling_isnan_ever = True
            warnings.warn('non-finite gradient of {} (iteration {}, loss '
                          'scale {}): the update is skipped'.format(
                              ', '.join(bad), self.t, self._loss_scale))

    def is_safe_to_update(self):
        """False when :meth:`check_nan_in_grads` found Inf or NaN."""
        return not self._loss_scaling_isnan

    def update_loss_scale(self):
        """Adjust the dynamic loss scale after an update."""
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            multiplier = 0.5
        elif self._loss_scaling_isnan_ever:
            multiplier = self._loss_scaling_multiplier
        else:
            multiplier = 2.0
        self._loss_scale = max(1.0, min(self._loss_scale_max,
                                        self._loss_scale * multiplier))


class GradientMethod(Optimizer):
    """Optimizers that update each parameter from its gradient through an
    :class:`UpdateRule` made by :meth:`create_update_rule`.

    Attributes:
        hyperparam (Hyperparameter): the parent of every rule's
            hyperparameters.
    """

    def __init__(self):
        super().__init__()
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False

    def setup(self, link):
        super().setup(link)
        for param in link.params():
            param.update_rule = self.create_update_rule()
            if self._use_fp32_update:
                param.update_rule.use_fp32_update()
        return self

    def create_update_rule(self):
        """A new update rule for one parameter."""
        raise NotImplementedError

    def reallocate_cleared_grads(self):
        """Give a zero gradient to initialised parameters without one."""
        self._reallocate_cleared_grads(self.target.params(False))

    @staticmethod
    def _reallocate_cleared_grads(params):
        for param in params:
            data = param._data
            if data is not None and param._grad_array() is None:
                param.grad = param.device.xp.zeros_like(data)

    def call_hooks(self, timing='pre'):
        """Call the hooks of ``timing``; gradients a hook clears are
        reallocated after it."""
        for hook in self._hooks_of(timing):
            self._call_hook(hook)
            self.reallocate_cleared_grads()

    def use_cleargrads(self, use=True):
        """Whether :meth:`update` with a loss function clears the
        gradients (else zeros them) before backprop. Deprecated."""
        warnings.warn('GradientMethod.use_cleargrads is deprecated',
                      DeprecationWarning)
        self._use_cleargrads = use

    def use_fp32_update(self, flag=True):
        """Update float16 parameters through float32 master copies."""
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                if param.update_rule is not None:
                    param.update_rule.use_fp32_update(flag)

    def update(self, lossfun=None, *args, **kwds):
        """Update the parameters.

        With ``lossfun``, first compute ``loss = lossfun(*args, **kwds)``,
        clear the gradients and backprop (scaled by the loss scale);
        otherwise use the gradients already computed. With dynamic loss
        scaling, an update whose gradients hold Inf or NaN is skipped (``t``
        still counts it) and the scale is halved.
        """
        self._check_set_up()
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if getattr(self, '_use_cleargrads', True):
                self.target.cleargrads()
            else:
                self.target.zerograds()
            loss.backward(loss_scale=self._loss_scale)
            del loss
        # The parameters are walked three times: gathered once.
        params = list(self.target.params())
        self._reallocate_cleared_grads(params)
        self.check_nan_in_grads()
        self.call_hooks('pre')
        self.t += 1
        if self.is_safe_to_update():
            for param in params:
                param.update()
        self._reallocate_cleared_grads(params)
        self.call_hooks('post')
        self.update_loss_scale()


def make_deprecation_message(module_name):
    """The warning given when a hook is made from its old home,
    ``chainer.optimizer.<module_name>``."""
    return ('chainer.optimizer.{0} is deprecated from v4. Use '
            'chainer.optimizer_hooks.{0} instead.'.format(module_name))


def _deprecated_alias(hook_class):
    """``hook_class`` under its old name here: a subclass that warns when
    made (and so still passes ``isinstance`` checks for the hook)."""
    name = hook_class.__name__

    @functools.wraps(hook_class.__init__)
    def __init__(self, *args, **kwargs):
        warnings.warn(make_deprecation_message(name), DeprecationWarning,
                      stacklevel=2)
        hook_class.__init__(self, *args, **kwargs)

    return type(name, (hook_class,), {
        '__init__': __init__, '__module__': __name__,
        '__doc__': 'Deprecated: use chainer.optimizer_hooks.{}.'.format(name),
    })


GradientClipping = _deprecated_alias(optimizer_hooks.GradientClipping)
GradientHardClipping = _deprecated_alias(optimizer_hooks.GradientHardClipping)
GradientNoise = _deprecated_alias(optimizer_hooks.GradientNoise)
Lasso = _deprecated_alias(optimizer_hooks.Lasso)
WeightDecay = _deprecated_alias(optimizer_hooks.WeightDecay)
