"""chainer-cuda: CUDA GPUs for chainer-core through CuPy.

The devices are ``@cupy:N`` (Chainer's spelling); ``cuda:N`` and Chainer's
integer ids ``N >= 0`` name them too. Every op runs on CuPy: through the
kernels of :mod:`chainer_cuda.kernels` where they are registered, else
through chainer-core's reference kernels with ``xp = cupy``.

This module is what the entry point names. Discovery imports it in every
process that looks for a device, so it imports neither CuPy nor the rest of
the plugin: the hooks do that when they run, and CuPy is imported only
when the backend is asked whether it is available.

:func:`graph_step` captures a whole training step as a CUDA graph and
replays it (:mod:`chainer_cuda.graph`).
"""
from backend_api import hookimpl

from chainer_cuda._capture import GraphCaptureError  # NOQA: public name

api_version = (2, 0)

BACKEND_NAME = 'cuda'


def is_available():
    """Whether CuPy imports and sees at least one CUDA device."""
    from chainer_cuda import _probe
    return _probe.state().available


def unavailable_reason():
    """Why :func:`is_available` is False ('' when it is True)."""
    from chainer_cuda import _probe
    return _probe.state().reason


def graph_step(model, optimizer, lossfun, warmup=3):
    """A training step captured once as a CUDA graph and replayed:
    ``step = graph_step(model, optimizer, lossfun)``, then
    ``loss = step(x, t)`` as ``optimizer.update(lossfun, x, t)``.

    Args:
        model (chainer.Link): the model, on ``@cupy:N``.
        optimizer (chainer.GradientMethod): set up on ``model``.
        lossfun (callable): ``lossfun(*batch)`` returns the loss Variable.
        warmup (int): eager calls before the capture (at least 1).

    Returns:
        chainer_cuda.graph.GraphStep: the step; see
        :func:`chainer_cuda.graph.graph_step` for what it can capture.
    """
    from chainer_cuda import graph
    return graph.graph_step(model, optimizer, lossfun, warmup)


@hookimpl
def chainer_core_register_backends(registry):
    from chainer_cuda.device import BACKEND
    registry.register_backend(BACKEND)


@hookimpl
def chainer_core_register_kernels(registry):
    from chainer_cuda.kernels import KERNELS
    for op_name, fn in KERNELS.items():
        registry.register_kernel(op_name, BACKEND_NAME, fn)


@hookimpl
def chainer_core_device_aliases(registry):
    registry.register_alias(int, '@cupy:{}')
    registry.register_alias('cuda:{}', '@cupy:{}')
