"""chainer-core: define-by-run deep learning, with installable backends."""
import importlib as _importlib
import os as _os
import sys as _sys

import numpy as _numpy


def _lazy(package, exports=None, submodules=()):
    """PEP 562 ``__getattr__`` and ``__dir__`` for ``package``, which import
    its names on first access instead of with the package (most programs
    use a few of chainer_core's hundreds of modules).

    ``exports`` maps a module (relative to ``package`` when it starts with
    a dot) to the names the package takes from it. ``submodules`` names the
    package's modules that are attributes of it, or is True for all of
    them.
    """
    where = {name: module for module, names in (exports or {}).items()
             for name in names}

    def __getattr__(name):
        if name in where:
            value = getattr(_importlib.import_module(where[name], package),
                            name)
            # Bound on the module, so that later lookups (F.relu in a
            # training loop) skip __getattr__.
            setattr(_sys.modules[package], name, value)
            return value
        if name == '__all__':
            # ``from package import *`` imports the lazy names too.
            return [n for n in __dir__() if not n.startswith('_')]
        if (name in submodules if submodules is not True
                else not name.startswith('__')):
            try:
                return _importlib.import_module(package + '.' + name)
            except ModuleNotFoundError as e:
                if e.name != package + '.' + name:
                    raise
        raise AttributeError('module {!r} has no attribute {!r}'.format(
            package, name))

    def __dir__():
        names = set(vars(_sys.modules[package])) | set(where)
        if submodules is True:
            import pkgutil
            names.update(m.name for m in pkgutil.iter_modules(
                _sys.modules[package].__path__))
        else:
            names.update(submodules)
        return sorted(names)

    return __getattr__, __dir__


from chainer_core._runtime import host as _backend_host
from chainer_core._runtime import kernels as _kernels
from chainer_core.configuration import (  # NOQA
    config, get_dtype, global_config, mixed16, using_config)

_backend_host.host.set_config_registrar(global_config.add_key)

from chainer_core.variable import (  # NOQA
    Parameter, Variable, VariableNode, as_array, as_variable)
from chainer_core.function_node import FunctionNode, grad  # NOQA
from chainer_core._backprop import backward  # NOQA
from chainer_core.backend import get_array_module  # NOQA
from chainer_core._runtime.host import get_device, using_device  # NOQA
# Variable's operators are FunctionNodes of basic_math; the other ops load
# on first use.
from chainer_core import backend, functions  # NOQA
from chainer_core.functions.math import basic_math  # NOQA


def _declare_kernels():
    # The ops and the optimizers declare their kernels when imported.
    from chainer_core import optimizers
    for package in (functions, optimizers):
        for name in package.__all__:
            getattr(package, name)


_kernels.set_declarer(_declare_kernels)

__version__ = '0.1.0'


def no_backprop_mode():
    """Scope in which no graph is recorded (``enable_backprop=False``)."""
    return using_config('enable_backprop', False)


def force_backprop_mode():
    """Scope in which the graph is recorded even inside no_backprop_mode."""
    return using_config('enable_backprop', True)


def is_debug():
    return bool(config.debug)


def set_debug(debug):
    config.debug = debug


class DebugMode:
    """Scope with ``config.debug`` on (NaN/Inf checks naming the op)."""

    def __init__(self, debug):
        self._cm = using_config('debug', debug)

    def __enter__(self):
        self._cm.__enter__()

    def __exit__(self, *exc):
        self._cm.__exit__(*exc)


from chainer_core import backends  # NOQA
from chainer_core.backend import is_arrays_compatible  # NOQA

# Set by users to silence utils.experimental's warnings.
disable_experimental_feature_warning = bool(int(
    _os.environ.get('CHAINER_DISABLE_EXPERIMENTAL_FEATURE_WARNING') or 0))


class _FallbackType:
    """The value a function's device-specific forward returns to ask for
    the generic one instead (Chainer's ``chainer.Fallback``)."""

    def __repr__(self):
        return 'Fallback'


Fallback = _FallbackType()


def get_array_types():
    """The array types of every available backend, NumPy's first (found by
    sending an empty array to each backend's first device)."""
    found = [_numpy.ndarray]
    for b in _backend_host.host.ordered_backends():
        try:
            if not (b.is_available() and b.device_count() > 0):
                continue
            t = type(b.get_device(0).send(_numpy.zeros(0, _numpy.float32)))
        except Exception:
            # get_device reports a failing plugin; here it has no type.
            continue
        if t not in found:
            found.append(t)
    return tuple(found)


def get_cpu_array_types():
    """The array types of the installed backends whose arrays live in host
    memory and are NumPy arrays (``numpy.ndarray`` and its subclasses)."""
    return tuple(t for t in get_array_types()
                 if issubclass(t, _numpy.ndarray))


def get_compute_mode():
    """The compute mode of a static graph being built; this project runs
    every graph define-by-run, so it is always None."""
    return None


def should_use_cudnn(level, lowest_version=0):
    """Whether cuDNN should be used (see ``backends.cuda``)."""
    from chainer_core.backends import cuda
    return cuda.should_use_cudnn(level, lowest_version)


def should_use_cudnn_tensor_core(dtype):
    """Whether cuDNN's tensor cores should be used (see
    ``backends.cuda``)."""
    from chainer_core.backends import cuda
    return cuda.should_use_cudnn_tensor_core(dtype)


# Imported on first use: together the subpackages import most of the
# package's modules, and cuda imports CuPy.
__getattr__, __dir__ = _lazy(__name__, {
    '._runtime_info': ('print_runtime_info',),
    '.backends': ('cuda',),
    '.device_resident': ('DeviceResident',),
    '.distribution': (
        'Distribution', 'cross_entropy', 'kl_divergence', 'register_kl'),
    '.function': ('Function', 'FunctionAdapter'),
    '.function_hook': ('FunctionHook', 'get_function_hooks'),
    '.functions': ('array',),
    '.graph_optimizations.static_graph': ('static_graph',),
    '.graph_optimizations.static_graph_utilities': ('static_code',),
    '.initializer': ('Initializer',),
    '.link': ('Chain', 'ChainList', 'Link'),
    '.link_hook': ('LinkHook',),
    '.optimizer': ('GradientMethod', 'Hyperparameter', 'Optimizer',
                   'UpdateRule'),
    '.reporter': ('DictSummary', 'Reporter', 'Summary',
                  'get_current_reporter', 'report', 'report_scope'),
    '.sequential': ('Sequential',),
    '.serializer': ('AbstractSerializer', 'Deserializer', 'Serializer'),
}, submodules=(
    'computational_graph', 'dataset', 'datasets', 'device_resident',
    'distribution', 'distributions', 'exporters', 'function',
    'function_hook', 'function_hooks', 'gradient_check', 'graph_optimizations',
    'initializer', 'initializers', 'iterators', 'link', 'link_hook',
    'link_hooks', 'links', 'memory_layouts', 'optimizer', 'optimizer_hooks',
    'optimizers', 'reporter', 'sequential', 'serializer', 'serializers',
    'training', 'types', 'utils', 'warnings'))
