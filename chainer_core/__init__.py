"""chainer-core: define-by-run deep learning, with installable backends."""
import os as _os

import numpy as _numpy

from chainer_core._runtime import host as _backend_host
from chainer_core.configuration import (  # NOQA
    config, get_dtype, global_config, mixed16, using_config)

_backend_host.host.set_config_registrar(global_config.add_key)

from chainer_core.variable import (  # NOQA
    Parameter, Variable, VariableNode, as_array, as_variable)
from chainer_core.function_node import FunctionNode, grad  # NOQA
from chainer_core._backprop import backward  # NOQA
from chainer_core.backend import get_array_module  # NOQA
from chainer_core._runtime.host import get_device, using_device  # NOQA
from chainer_core import backend, functions, initializers, utils  # NOQA
from chainer_core import gradient_check  # NOQA
from chainer_core.distribution import (  # NOQA
    Distribution, cross_entropy, kl_divergence, register_kl)
from chainer_core import distributions  # NOQA
from chainer_core._runtime_info import print_runtime_info  # NOQA
from chainer_core import device_resident  # NOQA
from chainer_core.device_resident import DeviceResident  # NOQA
from chainer_core.link import Chain, ChainList, Link  # NOQA
from chainer_core.sequential import Sequential  # NOQA
from chainer_core import (  # NOQA
    dataset, datasets, iterators, links, optimizers, reporter, serializers,
    training)

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


# After no_backprop_mode and force_backprop_mode: chainer_core.function
# re-exports them, as chainer.function did.
from chainer_core.function import Function, FunctionAdapter  # NOQA
from chainer_core.function_hook import (  # NOQA
    FunctionHook, get_function_hooks)
from chainer_core.link_hook import LinkHook  # NOQA
from chainer_core.optimizer import (  # NOQA
    GradientMethod, Hyperparameter, Optimizer, UpdateRule)
from chainer_core.reporter import (  # NOQA
    DictSummary, Reporter, Summary, get_current_reporter, report,
    report_scope)
from chainer_core.serializer import (  # NOQA
    AbstractSerializer, Deserializer, Serializer)
from chainer_core import (  # NOQA
    backends, function_hooks, link_hooks, optimizer_hooks)


from chainer_core import types, warnings  # NOQA
from chainer_core.backend import is_arrays_compatible  # NOQA
from chainer_core.functions.math import basic_math  # NOQA
from chainer_core.initializer import Initializer  # NOQA

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


# Imported on first use: cuda imports CuPy, the others are rarely needed.
_LAZY_MODULES = {
    'cuda': 'chainer_core.backends.cuda',
    'array': 'chainer_core.functions.array',
    'computational_graph': 'chainer_core.computational_graph',
    'exporters': 'chainer_core.exporters',
    'graph_optimizations': 'chainer_core.graph_optimizations',
    'memory_layouts': 'chainer_core.memory_layouts',
}
_GRAPH_OPT = 'chainer_core.graph_optimizations.'
_LAZY_NAMES = {
    'static_graph': _GRAPH_OPT + 'static_graph',
    'static_code': _GRAPH_OPT + 'static_graph_utilities',
}


def __getattr__(name):
    import importlib
    if name in _LAZY_MODULES:
        return importlib.import_module(_LAZY_MODULES[name])
    if name in _LAZY_NAMES:
        return getattr(importlib.import_module(_LAZY_NAMES[name]), name)
    raise AttributeError('module {!r} has no attribute {!r}'.format(
        __name__, name))


def __dir__():
    return sorted(set(globals()) | set(_LAZY_MODULES) | set(_LAZY_NAMES))
