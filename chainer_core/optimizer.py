"""Optimizers: update rules per parameter, driven by an Optimizer."""
import collections

import warnings

import numpy

from backend_api._host import host
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
        return 'Hyperparameter({})'.format(', '.join(
            '{}={!r}'.format(k, v) for k, v in sorted(self.get_dict().items())))

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
    """``optimizer.<name>`` reads and writes ``optimizer.hyperparam.<name>``."""

    def __init__(self, name):
        self._name = name
        self.__doc__ = 'Alias of ``hyperparam.{}``.'.format(name)

    def __get__(self, obj, type=None):
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._name)

    def __set__(self, obj, value):
        setattr(obj.hyperparam, self._name, value)


class UpdateRule:
    """How one parameter is updated from its gradient.

    Subclasses implement :meth:`init_state` (allocate ``self.state``
    arrays like the parameter) and :meth:`update_core` (update
    ``param.array`` in place from ``param.grad``).
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
        return self._state

    def add_hook(self, hook, name=None, timing='pre'):
        """Add ``hook(rule, param)`` to run before or after updates."""
        if not callable(hook):
            raise TypeError('hook function must be callable')
        if timing not in ('pre', 'post'):
            raise ValueError("timing must be 'pre' or 'post', got {!r}"
                             .format(timing))
        name = name or getattr(hook, 'name', getattr(hook, '__name__', None))
        hooks = self._pre_update_hooks if timing == 'pre' else \
            self._post_update_hooks
        if name in hooks:
            raise KeyError('hook "{}" already exists'.format(name))
        hooks[name] = hook

    def remove_hook(self, name):
        for hooks in (self._pre_update_hooks, self._post_update_hooks):
            if name in hooks:
                del hooks[name]
                return
        raise KeyError('no hook named {}'.format(name))

    def update(self, param):
        """Update ``param`` from its gradient (no-op if the grad is None)."""
        if not self.enabled:
            return
        self.t += 1
        grad_var = param._grad_var
        if grad_var is None:
            return
        loss_scale = getattr(param, '_loss_scale', None)
        if loss_scale is not None:
            grad_var._data = grad_var._data / loss_scale
            param._loss_scale = None
        if self._use_fp32_update and param.dtype == numpy.float16:
            self._update_in_fp32(param)
            return
        if self._state is None:
            self._state = {}
            self.init_state(param)
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
        master._grad_var = Variable(param.grad.astype(numpy.float32),
                                    requires_grad=False)
        if self._state is None:
            self._state = {}
            self.init_state(master)
        for hook in self._pre_update_hooks.values():
            hook(self, master)
        self.update_core(master)
        for hook in self._post_update_hooks.values():
            hook(self, master)
        param.array[...] = master.array.astype(param.dtype)

    def update_core(self, param):
        raise NotImplementedError(
            '{} must implement update_core'.format(type(self).__name__))

    def init_state(self, param):
        """Allocate the state arrays for ``param`` (default: none)."""

    def use_fp32_update(self, flag=True):
        """Keep a float32 master copy of float16 parameters."""
        self._use_fp32_update = flag

    def serialize(self, serializer):
        """Save or load ``t`` and the state arrays."""
        from chainer_core.serializer import Deserializer
        self.t = serializer('t', self.t)
        if self._state is None:
            if not isinstance(serializer, Deserializer):
                return
            # The state's keys come from init_state on a stand-in
            # parameter; the stored arrays then replace the stand-ins.
            self._state = {}
            dummy = numpy.zeros(1, numpy.float32)
            self.init_state(Variable(dummy, grad=dummy))
            for key in list(self._state):
                self._state[key] = serializer(key, None)
            return
        for key in sorted(self._state):
            self._state[key] = serializer(key, self._state[key])


class Optimizer:
    """Base of optimizers: owns the target link and the hooks."""

    target = None
    t = 0
    epoch = 0
    use_auto_new_epoch = False
    _loss_scale = None
    _loss_scaling_is_dynamic = False
    _loss_scale_max = 65504.0

    def setup(self, link):
        """Attach to ``link`` (its parameters will be updated). Returns
        ``self``."""
        from chainer_core.link import Link
        if not isinstance(link, Link):
            raise TypeError('optimization target must be a Link, got {}'
                            .format(type(link).__name__))
        self.target = link
        self.t = 0
        self.epoch = 0
        self._pre_update_hooks = collections.OrderedDict()
        self._post_update_hooks = collections.OrderedDict()
        return self

    def update(self, lossfun=None, *args, **kwds):
        raise NotImplementedError

    def new_epoch(self, auto=False):
        """Count an epoch (iterators call this with ``auto=True``)."""
        if self.use_auto_new_epoch and not auto:
            raise RuntimeError('new_epoch is called automatically by the '
                               'updater; do not call it yourself')
        self.epoch += 1

    def _check_set_up(self):
        if self.target is None:
            raise RuntimeError('the optimizer is not set up: call '
                               'optimizer.setup(link) first')

    def add_hook(self, hook, name=None, timing='auto'):
        """Add ``hook(optimizer)`` before ('pre') or after ('post')
        updates; 'auto' uses the hook's ``timing`` attribute."""
        self._check_set_up()
        if not callable(hook):
            raise TypeError('hook function must be callable')
        if timing == 'auto':
            timing = getattr(hook, 'timing', 'pre')
        if timing not in ('pre', 'post'):
            raise ValueError("timing must be 'pre', 'post' or 'auto', got "
                             "{!r}".format(timing))
        name = name or getattr(hook, 'name', getattr(hook, '__name__', None))
        if name in self._pre_update_hooks or name in self._post_update_hooks:
            raise KeyError('hook "{}" already exists'.format(name))
        hooks = self._pre_update_hooks if timing == 'pre' else \
            self._post_update_hooks
        hooks[name] = hook

    def remove_hook(self, name):
        for hooks in (self._pre_update_hooks, self._post_update_hooks):
            if name in hooks:
                del hooks[name]
                return
        raise KeyError('no hook named {}'.format(name))

    def call_hooks(self, timing='pre'):
        hooks = self._pre_update_hooks if timing == 'pre' else \
            self._post_update_hooks
        for hook in hooks.values():
            hook(self)

    def serialize(self, serializer):
        """Save or load ``t``, ``epoch`` and every parameter's rule state."""
        self.t = serializer('t', self.t)
        self.epoch = serializer('epoch', self.epoch)
        for name, param in self.target.namedparams():
            rule = getattr(param, 'update_rule', None)
            if rule is not None:
                rule.serialize(serializer[name.lstrip('/')])

    def set_loss_scale(self, loss_scale):
        """Scale losses by ``loss_scale`` in ``update(lossfun)``; None turns
        dynamic scaling off."""
        self._loss_scale = loss_scale
        self._loss_scaling_is_dynamic = False

    def loss_scaling(self, interval=1000, scale=None):
        """Dynamic loss scaling for float16: halve the scale and skip the
        update on non-finite gradients, double it after ``interval`` clean
        updates."""
        self._loss_scaling_is_dynamic = True
        self._loss_scale = float(scale) if scale is not None else 2.0 ** 16
        self._loss_scaling_interval = interval
        self._loss_scaling_clean = 0

    def _grads_are_finite(self):
        for param in self.target.params(False):
            g = param.grad
            if g is None:
                continue
            xp = host.device_from_array(g).xp
            if not bool(xp.isfinite(g).all()):
                return False
        return True

    def _dynamic_loss_scaling_step(self):
        """Adjust the scale; False means this update must be skipped."""
        if self._grads_are_finite():
            self._loss_scaling_clean += 1
            if self._loss_scaling_clean >= self._loss_scaling_interval:
                self._loss_scale = min(self._loss_scale * 2.0,
                                       self._loss_scale_max)
                self._loss_scaling_clean = 0
            return True
        self._loss_scale = max(self._loss_scale / 2.0, 1.0)
        self._loss_scaling_clean = 0
        for param in self.target.params(False):
            param._loss_scale = None
        return False


class GradientMethod(Optimizer):
    """Optimizers that update parameters from their gradients."""

    def __init__(self):
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
        raise NotImplementedError

    def reallocate_cleared_grads(self):
        """Give a zero gradient to initialised parameters without one."""
        for param in self.target.params(False):
            if param.grad is None:
                xp = host.device_from_array(param.array).xp
                param._grad_var = Variable(xp.zeros_like(param.array),
                                           requires_grad=False)

    def use_cleargrads(self, use=True):
        warnings.warn('GradientMethod.use_cleargrads is deprecated; '
                      'cleargrads is always used', DeprecationWarning)

    def use_fp32_update(self, flag=True):
        """Update float16 parameters through float32 master copies."""
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                param.update_rule.use_fp32_update(flag)

    def update(self, lossfun=None, *args, **kwds):
        """Update the parameters.

        With ``lossfun``, first compute ``loss = lossfun(*args, **kwds)``,
        clear the gradients and backprop (scaled by the loss scale);
        otherwise use the gradients already computed.
        """
        self._check_set_up()
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            self.target.cleargrads()
            loss.backward(loss_scale=self._loss_scale)
            del loss
        if self._loss_scaling_is_dynamic and \
                not self._dynamic_loss_scaling_step():
            self.target.cleargrads()
            return
        self.reallocate_cleared_grads()
        self.call_hooks('pre')
        self.t += 1
        for param in self.target.params():
            rule = param.update_rule
            if rule is not None:
                rule.update(param)
        self.reallocate_cleared_grads()
        self.call_hooks('post')


