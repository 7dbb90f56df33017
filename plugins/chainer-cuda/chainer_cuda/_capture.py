"""What the kernels are told while :func:`chainer_cuda.graph_step` runs a
step: the recorder of the step on this thread, if any.

Kept apart from :mod:`chainer_cuda.graph` (which imports CuPy) so that the
kernel modules and the plugin's top level can import it anywhere.
"""
import contextlib
import threading


class GraphCaptureError(RuntimeError):
    """A training step that :func:`chainer_cuda.graph_step` cannot capture
    or replay as a CUDA graph; the same step runs eagerly."""


_local = threading.local()


def current():
    """The recorder of the graph step being warmed up, captured or prepared
    for a replay on this thread, or None.

    The optimizer kernels hand it their launches (it puts their per-step
    scalars on the device, or only notes them); the matrix products take
    its presence as the sign that cuBLAS, which CuPy does not let a stream
    capture call, must be avoided.
    """
    return getattr(_local, 'recorder', None)


@contextlib.contextmanager
def use(recorder):
    """Make ``recorder`` :func:`current` inside the block (None: none)."""
    previous = current()
    _local.recorder = recorder
    try:
        yield recorder
    finally:
        _local.recorder = previous
