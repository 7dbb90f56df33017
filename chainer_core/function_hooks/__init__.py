"""Function hooks (Chainer's ``chainer.function_hooks``)."""
from chainer_core import _lazy

__getattr__, __dir__ = _lazy(__name__, {
    '.callable_hook': ('CallableHook',),
    '.cuda_profile': ('CUDAProfileHook',),
    '.cupy_memory_profile': ('CupyMemoryProfileHook',),
    '.debug_print': ('PrintHook',),
    '.timer': ('TimerHook',),
}, submodules=True)
