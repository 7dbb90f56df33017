"""A minimal chainer-core backend: the device ``example:0``.

Its arrays are :class:`~chainer_example_backend.device.ExampleArray`, a
NumPy array type of its own in host memory. It brings three kernels
(``relu``, ``relu_grad`` and ``linear``, which declines what it does not
cover); every other op runs chainer-core's NumPy reference on the same
memory.

This module is what the entry point names: it holds ``api_version`` and the
hooks, and imports nothing heavy, since discovery imports it in every
process that looks for a device.
"""
from backend_api import hookimpl

api_version = (2, 0)

BACKEND_NAME = 'example'


@hookimpl
def chainer_core_register_backends(registry):
    from chainer_example_backend.device import BACKEND
    registry.register_backend(BACKEND)


@hookimpl
def chainer_core_register_kernels(registry):
    from chainer_example_backend.kernels import KERNELS
    for op_name, fn in KERNELS.items():
        registry.register_kernel(op_name, BACKEND_NAME, fn)
