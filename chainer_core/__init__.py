"""chainer-core: define-by-run deep learning, with installable backends."""
from backend_api import _host as _backend_host
from chainer_core import _numpy_backend
from chainer_core.configuration import (  # NOQA
    config, get_dtype, global_config, mixed16, using_config)

_backend_host.host.add_builtin('numpy', _numpy_backend, global_config.add_key)

from chainer_core.variable import (  # NOQA
    Parameter, Variable, VariableNode, as_array, as_variable)
from chainer_core.function_node import FunctionNode, grad  # NOQA
from chainer_core._backprop import backward  # NOQA
from chainer_core.backend import get_array_module  # NOQA
from backend_api._host import get_device, using_device  # NOQA
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


def __getattr__(name):
    # chainer.cuda, the old name of chainer.backends.cuda: imported on
    # first use, as it imports CuPy.
    if name == 'cuda':
        from chainer_core.backends import cuda
        return cuda
    raise AttributeError('module {!r} has no attribute {!r}'.format(
        __name__, name))
