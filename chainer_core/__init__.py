"""chainer-core: define-by-run deep learning, with installable backends."""
from backend_api import _host as _backend_host
from chainer_core import _numpy_backend
from chainer_core.configuration import (  # NOQA
    config, global_config, using_config)

_backend_host.host.add_builtin('numpy', _numpy_backend, global_config.add_key)

from chainer_core.variable import (  # NOQA
    Parameter, Variable, VariableNode, as_array, as_variable)
from chainer_core.function_node import FunctionNode, grad  # NOQA
from chainer_core._backprop import backward  # NOQA
from chainer_core.backend import get_array_module  # NOQA
from backend_api._host import get_device, using_device  # NOQA
from chainer_core import backend, functions, initializers, utils  # NOQA
from chainer_core import gradient_check  # NOQA
from chainer_core._runtime_info import print_runtime_info  # NOQA
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
