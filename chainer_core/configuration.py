"""Global and thread-local configuration (Chainer's ``chainer.config``)."""
import contextlib
import os
import sys
import threading

import numpy


_UNSET = object()


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
            from chainer_core._runtime.host import host
            if not host.fully_loaded:
                host.ensure_loaded()
                if name in self.__dict__:
                    return self.__dict__[name]
        raise AttributeError('configuration has no key {!r}'.format(name))

    def show(self, file=None):
        """Print every key and its value, one per line (to stdout)."""
        _print_keys(self, sorted(k for k in self.__dict__
                                 if not k.startswith('_')), file)


class LocalConfig:
    """Thread-local overrides on top of a :class:`GlobalConfig`."""

    def __init__(self, global_config):
        super().__setattr__('_global', global_config)
        super().__setattr__('_local', threading.local())

    def __delattr__(self, name):
        delattr(self._local, name)

    def __getattr__(self, name):
        # The thread's overrides as a dict: a key it lacks, the common case,
        # costs no exception.
        value = self._local.__dict__.get(name, _UNSET)
        if value is _UNSET:
            return getattr(self._global, name)
        return value

    def __setattr__(self, name, value):
        setattr(self._local, name, value)

    def show(self, file=None):
        """Print every key and its value in this thread, one per line."""
        keys = set(k for k in self._global.__dict__ if not k.startswith('_'))
        keys.update(self._local.__dict__)
        _print_keys(self, sorted(keys), file)


def _print_keys(config, keys, file):
    # sys.stdout is looked up per call, so redirection (pytest's capsys,
    # contextlib.redirect_stdout) sees the output.
    if file is None:
        file = sys.stdout
    width = max([len(k) for k in keys] + [0])
    for key in keys:
        file.write('{} {}{}\n'.format(
            key, ' ' * (width - len(key)), getattr(config, key)))


global_config = GlobalConfig()
config = LocalConfig(global_config)


class _Mixed16:
    """The ``mixed16`` default dtype: parameters and activations in
    float16, with float32 where precision matters (batch statistics,
    optimizer masters)."""

    __slots__ = ()
    dtype = numpy.dtype(numpy.float16)

    def __repr__(self):
        return "dtype('mixed16')"

    def __reduce__(self):
        return 'mixed16'


mixed16 = _Mixed16()

_FLOAT_DTYPES = ('float16', 'float32', 'float64')


def _dtype_from_env():
    name = os.environ.get('CHAINER_DTYPE') or 'float32'
    if name == 'mixed16':
        return mixed16
    if name not in _FLOAT_DTYPES:
        raise TypeError('environment variable CHAINER_DTYPE={!r}: expected '
                        'one of float16, float32, float64 or mixed16'
                        .format(name))
    return numpy.dtype(name)


def get_dtype(dtype=None, map_mixed16=None):
    """The dtype to create floating arrays in.

    Args:
        dtype: a dtype, or None for ``config.dtype`` (the default dtype,
            set by ``CHAINER_DTYPE``).
        map_mixed16: what :data:`mixed16` resolves to (float16 when None):
            links pass float32 for values kept in full precision.

    Returns:
        numpy.dtype: the resolved dtype.
    """
    if dtype is None:
        dtype = config.dtype
    if dtype is mixed16:
        return numpy.dtype(numpy.float16 if map_mixed16 is None
                           else map_mixed16)
    return numpy.dtype(dtype)


def _env_flag(name, default):
    # Chainer's convention: CHAINER_DEBUG=1 / CHAINER_TYPE_CHECK=0.
    value = os.environ.get(name)
    if value is None or value == '':
        return default
    try:
        return bool(int(value))
    except ValueError:
        raise ValueError('environment variable {}={!r}: expected 0 or 1'
                         .format(name, value)) from None


_DEFAULTS = (
    ('train', True, 'training mode (dropout, batch statistics)'),
    ('enable_backprop', True, 'record the graph for backprop'),
    ('debug', _env_flag('CHAINER_DEBUG', False),
     'check every op output for NaN/Inf (CHAINER_DEBUG)'),
    ('type_check', _env_flag('CHAINER_TYPE_CHECK', True),
     'check input types of every op (CHAINER_TYPE_CHECK)'),
    ('dtype', _dtype_from_env(),
     'default floating dtype or mixed16 (CHAINER_DTYPE)'),
    ('retain_graph', _env_flag('CHAINER_RETAIN_GRAPH', True),
     'keep arrays retained for backward after a backward pass, so the '
     'graph can be backpropagated again (CHAINER_RETAIN_GRAPH)'),
    ('keep_graph_on_report', _env_flag('CHAINER_KEEP_GRAPH_ON_REPORT', False),
     'keep the graph of reported values (CHAINER_KEEP_GRAPH_ON_REPORT)'),
    ('use_cudnn', os.environ.get('CHAINER_USE_CUDNN') or 'auto',
     "'always', 'auto' or 'never' (CHAINER_USE_CUDNN)"),
    ('use_ideep', os.environ.get('CHAINER_USE_IDEEP') or 'never',
     "'always', 'auto' or 'never' (CHAINER_USE_IDEEP)"),
    ('use_cudnn_tensor_core', 'auto', "'always', 'auto' or 'never'"),
    ('cudnn_deterministic', False, 'deterministic cuDNN algorithms'),
    ('autotune', False, 'autotune cuDNN convolutions'),
    ('lazy_grad_sum', _env_flag('CHAINER_LAZY_GRAD_SUM', False),
     'sum gradients lazily in backward (CHAINER_LAZY_GRAD_SUM)'),
    ('warn_nondeterministic', False, 'warn on nondeterministic ops'),
    ('in_recomputing', False, 'set while recomputing a forward pass'),
    ('schedule_func', None, 'static graph scheduler'),
    ('use_static_graph', True, 'use static graph optimisation'),
)
for _name, _default, _doc in _DEFAULTS:
    global_config.add_key(_name, _default, _doc)


def using_config(name, value, config=config):
    """Set ``config.<name>`` to ``value`` inside the ``with`` block."""
    return _ConfigScope(config, name, value)


class _ConfigScope(contextlib.ContextDecorator):
    """The context manager of :func:`using_config` (also a decorator): a
    class, as the backward pass enters two per call and a generator's costs
    several times more."""

    def __init__(self, config, name, value):
        self._config = config
        self._name = name
        self._value = value

    def _recreate_cm(self):
        # A decorated function may run again before it returns.
        return _ConfigScope(self._config, self._name, self._value)

    def __enter__(self):
        self._old = self._config._local.__dict__.get(self._name, _UNSET)
        setattr(self._config, self._name, self._value)

    def __exit__(self, *exc_info):
        if self._old is _UNSET:
            delattr(self._config, self._name)
        else:
            setattr(self._config, self._name, self._old)
