"""Global and thread-local configuration (Chainer's ``chainer.config``)."""
import contextlib
import sys
import threading

import numpy


class GlobalConfig:
    """Process-wide defaults of the configuration keys."""

    def __init__(self):
        self.__dict__['_docs'] = {}

    def add_key(self, name, default, doc=''):
        """Add a key (plugins do this through ``chainer_core_configure``)."""
        if name.startswith('_') or not name.isidentifier():
            raise ValueError('invalid configuration key {!r}'.format(name))
        if name not in self.__dict__:
            setattr(self, name, default)
        self._docs[name] = doc

    def __getattr__(self, name):
        # Keys of plugins exist once plugins are discovered.
        if not name.startswith('_'):
            from backend_api._host import host
            if not host._plugins_loaded:
                host.ensure_loaded()
                if name in self.__dict__:
                    return self.__dict__[name]
        raise AttributeError('configuration has no key {!r}'.format(name))

    def show(self, file=sys.stdout):
        for key in sorted(k for k in self.__dict__ if not k.startswith('_')):
            file.write('{:<27}{!r}\n'.format(key, self.__dict__[key]))


class LocalConfig:
    """Thread-local overrides on top of a :class:`GlobalConfig`."""

    def __init__(self, global_config):
        super().__setattr__('_global', global_config)
        super().__setattr__('_local', threading.local())

    def __delattr__(self, name):
        delattr(self._local, name)

    def __getattr__(self, name):
        try:
            return getattr(self._local, name)
        except AttributeError:
            return getattr(self._global, name)

    def __setattr__(self, name, value):
        setattr(self._local, name, value)

    def show(self, file=sys.stdout):
        keys = set(k for k in self._global.__dict__ if not k.startswith('_'))
        keys.update(self._local.__dict__)
        for key in sorted(keys):
            file.write('{:<27}{!r}\n'.format(key, getattr(self, key)))


global_config = GlobalConfig()
config = LocalConfig(global_config)

_DEFAULTS = (
    ('train', True, 'training mode (dropout, batch statistics)'),
    ('enable_backprop', True, 'record the graph for backprop'),
    ('debug', False, 'check every op output for NaN/Inf'),
    ('type_check', True, 'check input types of every op'),
    ('dtype', numpy.dtype(numpy.float32), 'default floating dtype'),
    ('keep_graph_on_report', False, 'keep the graph of reported values'),
    ('use_cudnn', 'auto', "'always', 'auto' or 'never'"),
    ('use_ideep', 'never', "'always', 'auto' or 'never'"),
    ('use_cudnn_tensor_core', 'auto', "'always', 'auto' or 'never'"),
    ('cudnn_deterministic', False, 'deterministic cuDNN algorithms'),
    ('autotune', False, 'autotune cuDNN convolutions'),
    ('lazy_grad_sum', False, 'sum gradients lazily in backward'),
    ('warn_nondeterministic', False, 'warn on nondeterministic ops'),
    ('in_recomputing', False, 'set while recomputing a forward pass'),
    ('schedule_func', None, 'static graph scheduler'),
    ('use_static_graph', True, 'use static graph optimisation'),
)
for _name, _default, _doc in _DEFAULTS:
    global_config.add_key(_name, _default, _doc)


@contextlib.contextmanager
def using_config(name, value, config=config):
    """Set ``config.<name>`` to ``value`` inside the ``with`` block."""
    if hasattr(config._local, name):
        old = getattr(config, name)
        setattr(config, name, value)
        try:
            yield
        finally:
            setattr(config, name, old)
    else:
        setattr(config, name, value)
        try:
            yield
        finally:
            delattr(config, name)
