"""Links: parameters tied to the code that uses them."""
import collections
import contextlib
import copy as copy_module

import numpy

from backend_api._host import get_device, host
from chainer_core import initializers
from chainer_core.variable import Parameter


class Link:
    """A building block of models: parameters, persistents and ``forward``.

    Parameters are registered by assigning :class:`Parameter` objects to
    attributes inside :meth:`init_scope`::

        class Affine(Link):
            def __init__(self, n_in, n_out):
                super().__init__()
                with self.init_scope():
                    self.W = Parameter(initializers.Normal(), (n_out, n_in))

    Args:
        params: ``name=shape`` pairs, each added as an uninitialised
            (NaN) float32 parameter of that shape.
    """

    def __init__(self, **params):
        self._params = set()
        self._persistent = set()
        self._within_init_scope = False
        self.name = None
        self._local_link_hooks = None
        self._device = None
        for name, value in params.items():
            shape, dtype = _ensure_shape_dtype(value)
            self.add_param(name, shape, dtype=dtype)

    # -- registration ----------------------------------------------------

    @property
    def within_init_scope(self):
        return getattr(self, '_within_init_scope', False)

    @contextlib.contextmanager
    def init_scope(self):
        """Inside this scope, assigned Parameters (and links) register."""
        old = self._within_init_scope
        self._within_init_scope = True
        try:
            yield
        finally:
            self._within_init_scope = old

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Parameter):
            value.name = name
            if self._device is not None:
                value.to_device(self._device)
            self._params.add(name)
            self._persistent.discard(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._params.discard(name)
        self._persistent.discard(name)
        super().__delattr__(name)

    def add_param(self, name, shape=None, dtype=numpy.float32,
                  initializer=None):
        """Add a parameter ``name`` (NaN-filled unless ``initializer``)."""
        if name in self.__dict__:
            raise AttributeError('cannot register a new parameter {}: '
                                 'attribute exists'.format(name))
        if initializer is None:
            initializer = initializers.NaN(dtype)
        param = Parameter(initializer, shape)
        with self.init_scope():
            setattr(self, name, param)

    def add_persistent(self, name, value):
        """Add a persistent value (serialized, not trained) ``name``."""
        if name in self.__dict__:
            raise AttributeError('cannot register a new persistent value {}: '
                                 'attribute exists'.format(name))
        self._persistent.add(name)
        self._params.discard(name)
        object.__setattr__(self, name, value)

    def register_persistent(self, name):
        """Make the existing attribute ``name`` persistent."""
        if not hasattr(self, name):
            raise AttributeError('cannot register non-existent attribute {} '
                                 'as a persistent value'.format(name))
        self._persistent.add(name)
        self._params.discard(name)

    # -- traversal --------------------------------------------------------

    def params(self, include_uninit=True):
        """All parameters of this link and its descendants."""
        for _, p in self.namedparams(include_uninit):
            yield p

    def namedparams(self, include_uninit=True):
        """``(path, parameter)`` pairs, paths like ``/l1/W``."""
        d = self.__dict__
        for name in sorted(self._params):
            if include_uninit or d[name].array is not None:
                yield '/' + name, d[name]

    def links(self, skipself=False):
        for _, link in self.namedlinks(skipself):
            yield link

    def namedlinks(self, skipself=False):
        if not skipself:
            yield '/', self

    def children(self):
        return iter(())

    def count_params(self):
        """The number of scalars in all initialised parameters."""
        return sum(p.size for p in self.params() if p.array is not None)

    # -- gradients and updates -------------------------------------------

    def cleargrads(self):
        """Set every parameter's gradient to None."""
        for p in self.params():
            p.cleargrad()

    def zerograds(self):
        """Set every parameter's gradient to zeros."""
        for p in self.params():
            p.zerograd()

    def addgrads(self, link):
        """Add the gradients of ``link`` (same structure) to ours."""
        src = dict(link.namedparams())
        for name, dst in self.namedparams():
            dst.addgrad(src[name])

    def copyparams(self, link, copy_persistent=True):
        """Copy the parameters (and persistents) of ``link`` into ours."""
        src = dict(link.namedparams())
        for name, dst in self.namedparams():
            dst.copydata(src[name])
        if copy_persistent:
            src_links = dict(link.namedlinks())
            for path, dst_link in self.namedlinks():
                src_link = src_links[path]
                for name in dst_link._persistent:
                    value = src_link.__dict__[name]
                    if hasattr(value, 'shape') and hasattr(
                            dst_link.__dict__[name], 'shape'):
                        dst_link.__dict__[name][...] = \
                            dst_link.device.send(value)
                    else:
                        object.__setattr__(dst_link, name,
                                           copy_module.deepcopy(value))

    def enable_update(self):
        """Let optimizers update every parameter."""
        for p in self.params():
            rule = p.update_rule
            if rule is not None:
                rule.enabled = True

    def disable_update(self):
        """Keep optimizers from updating any parameter."""
        for p in self.params():
            rule = p.update_rule
            if rule is not None:
                rule.enabled = False

    @property
    def update_enabled(self):
        for p in self.params():
            if p.update_rule is not None and p.update_rule.enabled:
                return True
        return False

    # -- devices ------------------------------------------------------------

    @property
    def device(self):
        if self._device is not None:
            return self._device
        return host.parse_spec('@numpy')

    @property
    def xp(self):
        return self.device.xp

    def to_device(self, device):
        """Move every parameter and array persistent to ``device``."""
        device = get_device(device)
        for link in self.links():
            d = link.__dict__
            for name in link._params:
                d[name].to_device(device)
            for name in link._persistent:
                value = d[name]
                if hasattr(value, 'shape') and hasattr(value, 'dtype') and \
                        not numpy.isscalar(value):
                    object.__setattr__(link, name, device.send(value))
            object.__setattr__(link, '_device', device)
        return self

    def to_cpu(self):
        return self.to_device('@numpy')

    def to_gpu(self, device=None):
        return self.to_device('@cupy:{}'.format(0 if device is None
                                               else int(device)))

    def to_intel64(self):
        return self.to_device('@intel64')

    # -- copying ------------------------------------------------------------

    def copy(self, mode='share'):
        """A copy: ``'share'`` parameters' arrays, ``'copy'`` them, or
        ``'init'`` fresh uninitialised ones."""
        if mode not in ('share', 'copy', 'init'):
            raise ValueError("Link.copy: mode must be 'share', 'copy' or "
                             "'init', got {!r}".format(mode))
        ret = copy_module.copy(self)
        ret._params = set(self._params)
        ret._persistent = set(self._persistent)
        ret.name = None
        d = ret.__dict__
        for name in ret._params:
            src = d[name]
            if mode == 'share':
                p = copy_module.copy(src)
            elif mode == 'copy':
                p = copy_module.deepcopy(src)
            else:
                p = Parameter(src.initializer, None if src.array is None
                              else src.shape, name=name)
                if src.array is not None:
                    p.to_device(self.device)
            p._grad_var = None if mode == 'init' else src._grad_var
            d[name] = p
        for name in ret._persistent:
            value = d[name]
            d[name] = copy_module.deepcopy(value) if mode != 'share' \
                else copy_module.copy(value)
        return ret

    def repeat(self, n_repeat, mode='init'):
        """A :class:`Sequential` of ``n_repeat`` copies of this link."""
        from chainer_core.sequential import Sequential
        if n_repeat <= 0:
            return Sequential()
        return Sequential(*[self.copy(mode) for _ in range(n_repeat)])

    # -- serialization ------------------------------------------------------

    def serialize(self, serializer):
        """Save or load parameters and persistents through ``serializer``."""
        d = self.__dict__
        for name in sorted(self._params):
            param = d[name]
            data = serializer(name, param.array)
            if param.array is None and data is not None:
                # Loading into an uninitialised (lazy) parameter.
                param.initialize(data.shape)
                param.array[...] = param.device.send(data)
        for name in sorted(self._persistent):
            value = d[name]
            if hasattr(value, 'shape') and not numpy.isscalar(value):
                serializer(name, value)
            else:
                object.__setattr__(self, name, serializer(name, value))

    # -- hooks and calls ----------------------------------------------------

    @property
    def local_link_hooks(self):
        if self._local_link_hooks is None:
            self._local_link_hooks = collections.OrderedDict()
        return self._local_link_hooks

    def add_hook(self, hook, name=None):
        """Add a link hook (called around ``forward``)."""
        name = name or hook.name
        if name in self.local_link_hooks:
            raise KeyError('hook {} already exists'.format(name))
        self.local_link_hooks[name] = hook
        hook.added(self)
        return self

    def delete_hook(self, name):
        if name not in self.local_link_hooks:
            raise KeyError('no hook named {}'.format(name))
        self.local_link_hooks[name].deleted(self)
        del self.local_link_hooks[name]

    def __call__(self, *args, **kwargs):
        from chainer_core import _link_hooks
        hooks = _link_hooks.get_link_hooks()
        if self._local_link_hooks:
            hooks = collections.OrderedDict(hooks)
            hooks.update(self._local_link_hooks)
        if not hooks:
            return self.forward(*args, **kwargs)
        cb_args = _link_hooks.ForwardCallbackArgs(self, 'forward', args,
                                                  kwargs)
        for hook in hooks.values():
            hook.forward_preprocess(cb_args)
        out = self.forward(*args, **kwargs)
        cb_args = _link_hooks.ForwardCallbackArgs(self, 'forward', args,
                                                  kwargs, out)
        for hook in hooks.values():
            hook.forward_postprocess(cb_args)
        return out

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            '{} does not implement forward'.format(type(self).__name__))

    def __repr__(self):
        return '{}()'.format(type(self).__name__)


def _ensure_shape_dtype(value):
    if isinstance(value, tuple) and len(value) == 2 and \
            isinstance(value[0], (int, tuple)):
        shape, dtype = value
        if isinstance(dtype, (type, numpy.dtype, str)):
            return shape, dtype
    return value, numpy.float32


class Chain(Link):
    """A link composed of child links registered in :meth:`init_scope`."""

    def __init__(self, **links):
        super().__init__()
        self._children = set()
        for name, link in links.items():
            self.add_link(name, link)

    def __getitem__(self, name):
        return getattr(self, name)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            if hasattr(self, name) and name not in self._children:
                raise AttributeError('cannot register a new link {}: '
                                     'attribute exists'.format(name))
            value.name = name
            self._children.add(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._children.discard(name)
        super().__delattr__(name)

    def add_link(self, name, link):
        """Register ``link`` as child ``name``."""
        if name in self.__dict__:
            raise AttributeError('cannot register a new link {}: attribute '
                                 'exists'.format(name))
        if not isinstance(link, Link):
            raise TypeError('cannot register a non-link object as a child')
        with self.init_scope():
            setattr(self, name, link)

    def params(self, include_uninit=True):
        for _, p in self.namedparams(include_uninit):
            yield p

    def namedparams(self, include_uninit=True):
        yield from super().namedparams(include_uninit)
        d = self.__dict__
        for name in sorted(self._children):
            prefix = '/' + name
            for path, p in d[name].namedparams(include_uninit):
                yield prefix + path, p

    def namedlinks(self, skipself=False):
        if not skipself:
            yield '/', self
        d = self.__dict__
        for name in sorted(self._children):
            child = d[name]
            prefix = '/' + name
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def children(self):
        d = self.__dict__
        for name in sorted(self._children):
            yield d[name]

    def copy(self, mode='share'):
        ret = super().copy(mode)
        ret._children = set(self._children)
        d = ret.__dict__
        for name in ret._children:
            d[name] = d[name].copy(mode)
            d[name].name = name
        return ret

    def serialize(self, serializer):
        super().serialize(serializer)
        d = self.__dict__
        for name in sorted(self._children):
            d[name].serialize(serializer[name])

    def __repr__(self):
        lines = ['{}('.format(type(self).__name__)]
        for name in sorted(self._children):
            body = repr(self.__dict__[name]).replace('\n', '\n  ')
            lines.append('  ({}): {},'.format(name, body))
        lines.append(')')
        return '\n'.join(lines) if self._children else \
            '{}()'.format(type(self).__name__)


class ChainList(Link):
    """A link composed of a list of child links."""

    def __init__(self, *links):
        super().__init__()
        self._children = []
        for link in links:
            self.add_link(link)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            raise TypeError('cannot register a new link within a '
                            '"with chainlist.init_scope():" block; use '
                            'add_link()')
        super().__setattr__(name, value)

    def __getitem__(self, index):
        return self._children[index]

    def __iter__(self):
        return iter(self._children)

    def __len__(self):
        return len(self._children)

    def add_link(self, link):
        """Append ``link`` as a child."""
        if not isinstance(link, Link):
            raise TypeError('cannot register a non-link object as a child')
        link.name = str(len(self._children))
        self._children.append(link)
        if self._device is not None:
            link.to_device(self._device)

    append = add_link

    def params(self, include_uninit=True):
        for _, p in self.namedparams(include_uninit):
            yield p

    def namedparams(self, include_uninit=True):
        yield from super().namedparams(include_uninit)
        for idx, link in enumerate(self._children):
            prefix = '/{}'.format(idx)
            for path, p in link.namedparams(include_uninit):
                yield prefix + path, p

    def namedlinks(self, skipself=False):
        if not skipself:
            yield '/', self
        for idx, child in enumerate(self._children):
            prefix = '/{}'.format(idx)
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def children(self):
        return iter(self._children)

    def copy(self, mode='share'):
        ret = super().copy(mode)
        ret._children = [c.copy(mode) for c in self._children]
        for i, c in enumerate(ret._children):
            c.name = str(i)
        return ret

    def serialize(self, serializer):
        super().serialize(serializer)
        for idx, child in enumerate(self._children):
            child.serialize(serializer[str(idx)])

    def __repr__(self):
        if not self._children:
            return '{}()'.format(type(self).__name__)
        lines = ['{}('.format(type(self).__name__)]
        for idx, child in enumerate(self._children):
            body = repr(child).replace('\n', '\n  ')
            lines.append('  ({}): {},'.format(idx, body))
        lines.append(')')
        return '\n'.join(lines)


