"""Links: parameters tied to the code that uses them."""
import collections
import contextlib
import copy as copy_module
import numbers
import warnings

import numpy

from chainer_core import _link_hooks
from chainer_core import initializers
from chainer_core.device_resident import DeviceResident
from chainer_core.variable import Parameter

_COPY_MODES = ('init', 'copy', 'share')


def _check_copy_mode(mode):
    if mode not in _COPY_MODES:
        raise ValueError("the 'mode' argument should be either 'init', "
                         "'copy', or 'share', but {!r} was given".format(mode))


def _is_shape(value):
    if value is None or isinstance(value, numbers.Integral):
        return True
    if isinstance(value, (tuple, list)):
        return all(isinstance(v, numbers.Integral) for v in value)
    return False


def _ensure_shape_dtype(value):
    """``name=value`` of ``Link(**params)``: a shape, or (shape, dtype)."""
    if _is_shape(value):
        return value, numpy.float32
    shape, dtype = value
    return shape, dtype


def _is_array(value):
    return hasattr(value, 'shape') and hasattr(value, 'dtype') and \
        not isinstance(value, numpy.generic)


def _indented_children(cls_name, items):
    """Chainer's layout of a composite link's string form."""
    lines = []
    for key, child in items:
        rep = '({}): {},'.format(key, child)
        for line in rep.splitlines():
            lines.append('  {}\n'.format(line))
    body = ''.join(lines)
    if body:
        body = '\n' + body
    return '{}({})'.format(cls_name, body)


class Link(DeviceResident):
    """A building block of models: parameters, persistents and ``forward``.

    Parameters are registered by assigning :class:`Parameter` objects to
    attributes inside :meth:`init_scope`::

        class Affine(Link):
            def __init__(self, n_in, n_out):
                super().__init__()
                with self.init_scope():
                    self.W = Parameter(initializers.Normal(), (n_out, n_in))

    Persistent values (arrays, scalars, anything serializable) registered
    with :meth:`add_persistent` or :meth:`register_persistent` are saved and
    loaded with the parameters but not trained.

    Calling a link runs its link hooks (global ones and those added with
    :meth:`add_hook`) around :meth:`forward`.

    Args:
        params: (deprecated) ``name=shape`` or ``name=(shape, dtype)``
            pairs, each added as an uninitialised (NaN) parameter.

    Attributes:
        name (str): the name given by the parent chain, or None.
    """

    def __init__(self, **params):
        self._params = set()
        self._persistent = set()
        self._within_init_scope = False
        self._local_link_hooks = None
        self._device = None
        self.name = None
        for name, value in params.items():
            shape, dtype = _ensure_shape_dtype(value)
            self.add_param(name, shape, dtype=dtype)

    # -- registration ----------------------------------------------------

    @property
    def within_init_scope(self):
        """True inside :meth:`init_scope`."""
        return getattr(self, '_within_init_scope', False)

    @contextlib.contextmanager
    def init_scope(self):
        """Inside this scope, assigned Parameters (and links) register."""
        old = self.within_init_scope
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
        """Register a parameter ``name``.

        .. deprecated:: Chainer v2
           Assign a :class:`Parameter` inside :meth:`init_scope` instead.

        Args:
            name (str): the parameter (and attribute) name.
            shape (int or tuple): its shape; None leaves it uninitialised.
            dtype: its dtype when no ``initializer`` is given.
            initializer: an initializer, scalar or array; None fills NaN.
        """
        warnings.warn('Link.add_param is deprecated: assign a Parameter to '
                      'an attribute inside "with link.init_scope():"',
                      DeprecationWarning, stacklevel=2)
        if name in self.__dict__:
            raise AttributeError('cannot register a new parameter {}: '
                                 'attribute exists'.format(name))
        if initializer is None:
            initializer = initializers.NaN(dtype)
        param = Parameter(initializer, shape)
        with self.init_scope():
            setattr(self, name, param)

    def add_persistent(self, name, value):
        """Register ``value`` as the persistent value ``name``.

        Persistent values are serialized and moved between devices with
        the link, but not trained.
        """
        d = self.__dict__
        if name in d:
            raise AttributeError('cannot register a new persistent value {}: '
                                 'attribute exists'.format(name))
        self._persistent.add(name)
        self._params.discard(name)
        d[name] = value

    def register_persistent(self, name):
        """Make the existing attribute ``name`` persistent (a parameter of
        that name stops being one)."""
        if not hasattr(self, name):
            raise AttributeError('cannot register non-existent attribute {} '
                                 'as a persistent value'.format(name))
        self._persistent.add(name)
        self._params.discard(name)

    # -- traversal --------------------------------------------------------

    def params(self, include_uninit=True):
        """All parameters of this link and its descendants."""
        out = []
        self._gather_params(None, include_uninit, out)
        return iter(out)

    def namedparams(self, include_uninit=True):
        """``(path, parameter)`` pairs, paths like ``/l1/W``."""
        out = []
        self._gather_params('', include_uninit, out)
        return iter(out)

    def _gather_params(self, prefix, include_uninit, out):
        # One flat pass instead of nested generators: optimizers walk the
        # parameters several times per update. ``prefix`` None: no names.
        d = self.__dict__
        for name in sorted(self._params):
            p = d[name]
            if include_uninit or p.array is not None:
                out.append(p if prefix is None else
                           (prefix + '/' + name, p))

    def links(self, skipself=False):
        """This link (unless ``skipself``) and all its descendants."""
        for _, link in self.namedlinks(skipself):
            yield link

    def namedlinks(self, skipself=False):
        """``(path, link)`` pairs; this link is ``'/'``."""
        if not skipself:
            yield '/', self

    def children(self):
        """The direct child links."""
        return iter(())

    def count_params(self):
        """The number of scalars in all parameters (uninitialised ones are
        left out, with a warning)."""
        size = 0
        for name, param in self.namedparams():
            if param.array is None:
                warnings.warn('parameter {!r} has not been initialized, so '
                              'the count does not include it'.format(name))
                continue
            size += param.size
        return size

    # -- gradients and updates -------------------------------------------

    def cleargrads(self):
        """Set every parameter's gradient to None."""
        for p in self.params():
            p.cleargrad()

    def zerograds(self):
        """Set every parameter's gradient to zeros.

        .. deprecated:: Chainer v1.15
           Use :meth:`cleargrads`.
        """
        warnings.warn('Link.zerograds is deprecated. Use Link.cleargrads '
                      'instead.', DeprecationWarning, stacklevel=2)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', DeprecationWarning)
            for p in self.params():
                p.zerograd()

    def addgrads(self, link):
        """Add the gradients of ``link`` (of the same structure) to ours,
        across devices."""
        src = link.__dict__
        d = self.__dict__
        for name in self._params:
            d[name].addgrad(src[name])
        for name, child in self._named_children():
            child.addgrads(link._child(name))

    def copyparams(self, link, copy_persistent=True):
        """Copy the parameter arrays (not the gradients) of ``link``, which
        has the same structure, into ours, across devices; with
        ``copy_persistent`` the persistent values too."""
        src = link.__dict__
        d = self.__dict__
        for name in self._params:
            d[name].copydata(src[name])
        if copy_persistent:
            for name in self._persistent:
                value = src[name]
                dst = d[name]
                if _is_array(dst) and _is_array(value):
                    if dst.shape != value.shape:
                        raise ValueError(
                            'copyparams: persistent {!r} has the shape {} '
                            'here and {} in the source'.format(
                                name, dst.shape, value.shape))
                    dst[...] = self.device.send(value)
                else:
                    d[name] = copy_module.deepcopy(value)
        for name, child in self._named_children():
            child.copyparams(link._child(name), copy_persistent)

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
        """True if some parameter has an enabled update rule."""
        for p in self.params():
            rule = p.update_rule
            if rule is not None and rule.enabled:
                return True
        return False

    # -- children (overridden by Chain and ChainList) ---------------------

    def _named_children(self):
        return iter(())

    def _child(self, name):
        raise KeyError(name)

    @classmethod
    def from_params(cls, *args, **kwargs):
        """A link of this class holding the given arrays as its parameters
        (and the given constants, such as a stride). Links that support it
        override this (Linear, the convolutions ...)."""
        raise NotImplementedError(
            '{}.from_params is not supported by this link'.format(
                cls.__name__))

    # -- devices ------------------------------------------------------------

    def device_resident_accept(self, visitor):
        """Visit this link, its parameters and array persistents, then its
        children; links holding other arrays extend it."""
        super().device_resident_accept(visitor)
        d = self.__dict__
        for name in self._params:
            visitor.visit_variable(d[name])
        for name in self._persistent:
            value = d[name]
            if _is_array(value):
                d[name] = visitor.visit_array(value)
        for _, child in self._named_children():
            child.device_resident_accept(visitor)

    # -- copying ------------------------------------------------------------

    def copy(self, mode='share'):
        """A copy of the whole hierarchy, named None.

        Args:
            mode (str): ``'share'``: a shallow copy whose parameters share
                their arrays (not their gradients) and persistents with
                this link; ``'copy'``: a deep copy; ``'init'``: a deep copy
                whose initialised parameters are re-initialised by their
                initializers.
        """
        _check_copy_mode(mode)
        if mode == 'share':
            ret = self._copy_share()
        else:
            ret = copy_module.deepcopy(self)
            if mode == 'init':
                for param in ret.params(include_uninit=False):
                    device = param.device
                    param.initialize(param.shape)
                    param.to_device(device)
        ret.name = None
        return ret

    def _copy_share(self):
        ret = copy_module.copy(self)
        ret._params = set(self._params)
        ret._persistent = set(self._persistent)
        if self._local_link_hooks is not None:
            ret._local_link_hooks = collections.OrderedDict(
                self._local_link_hooks)
        d = ret.__dict__
        for name in ret._params:
            p = copy_module.copy(d[name])
            p.grad = None
            d[name] = p
        return ret

    def repeat(self, n_repeat, mode='init'):
        """A :class:`~chainer_core.Sequential` of ``n_repeat`` copies of
        this link made by :meth:`copy` with ``mode``."""
        from chainer_core.sequential import Sequential
        _check_copy_mode(mode)
        ret = Sequential()
        for _ in range(n_repeat):
            ret.append(self.copy(mode))
        return ret

    # -- serialization ------------------------------------------------------

    def serialize(self, serializer):
        """Save or load parameters, persistents and children through
        ``serializer``; keys are the attribute names (``W``, ``avg_mean``),
        children go under their names."""
        d = self.__dict__
        for name in sorted(self._params):
            param = d[name]
            data = serializer(name, param.array)
            if param.array is None and data is not None:
                # Loading into an uninitialised (lazy) parameter.
                param.initialize(data.shape)
                param.array[...] = param.device.send(data)
        for name in sorted(self._persistent):
            d[name] = serializer(name, d[name])
        for name, child in self._named_children():
            child.serialize(serializer[name])

    # -- hooks and calls ----------------------------------------------------

    @property
    def local_link_hooks(self):
        """The hooks registered on this link (an ordered dict by name)."""
        if self._local_link_hooks is None:
            self._local_link_hooks = collections.OrderedDict()
        return self._local_link_hooks

    def add_hook(self, hook, name=None):
        """Register a :class:`~chainer_core.LinkHook` on this link under
        ``name`` (the hook's ``name`` by default). Returns self."""
        from chainer_core.link_hook import LinkHook
        if not isinstance(hook, LinkHook):
            raise TypeError('add_hook: the hook must be a LinkHook, got {}'
                            .format(type(hook).__name__))
        if name is None:
            name = hook.name
        hooks = self.local_link_hooks
        if name in hooks:
            raise KeyError('hook {} already exists'.format(name))
        hooks[name] = hook
        hook.added(self)
        return self

    def delete_hook(self, name):
        """Unregister the hook ``name``."""
        hooks = self.local_link_hooks
        if name not in hooks:
            raise KeyError('hook {} does not exist'.format(name))
        hooks[name].deleted(self)
        del hooks[name]

    def __call__(self, *args, **kwargs):
        hooks = _link_hooks.get_link_hooks()
        if self._local_link_hooks:
            hooks = collections.OrderedDict(hooks)
            hooks.update(self._local_link_hooks)
        if not hooks:
            return self.forward(*args, **kwargs)
        hooks = list(hooks.values())
        pre = _link_hooks.ForwardCallbackArgs(self, 'forward', args, kwargs)
        for hook in hooks:
            hook.forward_preprocess(pre)
        out = self.forward(*args, **kwargs)
        post = _link_hooks.ForwardCallbackArgs(self, 'forward', args,
                                               kwargs, out)
        for hook in hooks:
            hook.forward_postprocess(post)
        return out

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            '{} does not implement forward'.format(type(self).__name__))

    # -- printing ---------------------------------------------------------

    @property
    def printable_specs(self):
        """``(name, value)`` pairs shown by ``str(link)``."""
        return iter(())

    def __str__(self):
        specs = ', '.join('{}={}'.format(k, v)
                          for k, v in self.printable_specs)
        return '{}({})'.format(type(self).__name__, specs)

    def __repr__(self):
        return str(self)


class Chain(Link):
    """A link composed of child links registered in :meth:`init_scope`.

    Children are reached as attributes (``chain.l1``) or by name
    (``chain['l1']``); parameter paths go through them (``/l1/W``).

    Args:
        links: (deprecated) ``name=link`` pairs added as children.
    """

    def __init__(self, **links):
        super().__init__()
        self._children = set()
        for name, link in links.items():
            self.add_link(name, link)

    def __getitem__(self, name):
        return getattr(self, name)

    def __setattr__(self, name, value):
        if self.within_init_scope and isinstance(value, Link):
            if hasattr(self, name):
                raise AttributeError('cannot register a new link {}: '
                                     'attribute exists'.format(name))
            value.name = name
            self._children.add(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._children.discard(name)
        super().__delattr__(name)

    def add_link(self, name, link):
        """Register ``link`` as the child ``name``.

        .. deprecated:: Chainer v2
           Assign the link to an attribute inside :meth:`init_scope`.
        """
        warnings.warn('Chain.add_link is deprecated: assign the link to an '
                      'attribute inside "with chain.init_scope():"',
                      DeprecationWarning, stacklevel=2)
        if name in self.__dict__:
            raise AttributeError('cannot register a new link {}: attribute '
                                 'exists'.format(name))
        if not isinstance(link, Link):
            raise TypeError('cannot register a non-link object as a child')
        with self.init_scope():
            setattr(self, name, link)

    def _named_children(self):
        d = self.__dict__
        for name in sorted(self._children):
            yield name, d[name]

    def _child(self, name):
        return self.__dict__[name]

    def _gather_params(self, prefix, include_uninit, out):
        super()._gather_params(prefix, include_uninit, out)
        for name, child in self._named_children():
            child._gather_params(
                None if prefix is None else prefix + '/' + name,
                include_uninit, out)

    def namedlinks(self, skipself=False):
        if not skipself:
            yield '/', self
        for name, child in self._named_children():
            prefix = '/' + name
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def children(self):
        for _, child in self._named_children():
            yield child

    def _copy_share(self):
        ret = super()._copy_share()
        ret._children = set(self._children)
        d = ret.__dict__
        for name in ret._children:
            child = d[name].copy('share')
            child.name = name
            d[name] = child
        return ret

    def __str__(self):
        return _indented_children(type(self).__name__,
                                  self._named_children())


class ChainList(Link):
    """A link composed of a list of child links, named ``'0'``, ``'1'``...

    Args:
        links: the initial children.
    """

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
        """Append ``link`` as a child named after its index."""
        if not isinstance(link, Link):
            raise TypeError('cannot register a non-link object as a child, '
                            'got {}'.format(type(link).__name__))
        link.name = str(len(self._children))
        self._children.append(link)

    def append(self, link):
        """Same as :meth:`add_link`."""
        self.add_link(link)

    def _named_children(self):
        for idx, child in enumerate(self._children):
            yield str(idx), child

    def _child(self, name):
        return self._children[int(name)]

    def _gather_params(self, prefix, include_uninit, out):
        super()._gather_params(prefix, include_uninit, out)
        for name, child in self._named_children():
            child._gather_params(
                None if prefix is None else prefix + '/' + name,
                include_uninit, out)

    def namedlinks(self, skipself=False):
        if not skipself:
            yield '/', self
        for name, child in self._named_children():
            prefix = '/' + name
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def children(self):
        return iter(list(self._children))

    def _copy_share(self):
        ret = super()._copy_share()
        ret._children = []
        for idx, child in enumerate(self._children):
            child = child.copy('share')
            child.name = str(idx)
            ret._children.append(child)
        return ret

    def __str__(self):
        return _indented_children(type(self).__name__,
                                  self._named_children())
