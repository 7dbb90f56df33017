"""Function hooks (Chainer's ``chainer.function_hooks``)."""
from chainer_core.function_hooks.callable_hook import CallableHook  # NOQA
from chainer_core.function_hooks.cuda_profile import CUDAProfileHook  # NOQA
from chainer_core.function_hooks.cupy_memory_profile import (  # NOQA
    CupyMemoryProfileHook)
from chainer_core.function_hooks.debug_print import PrintHook  # NOQA
from chainer_core.function_hooks.timer import TimerHook  # NOQA
