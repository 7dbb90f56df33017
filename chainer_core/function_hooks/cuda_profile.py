"""CUDAProfileHook: name every function call in the CUDA profiler's
timeline (Chainer's ``chainer.function_hooks.cuda_profile``)."""
from chainer_core import function_hook


def _nvtx():
    try:
        from cupy.cuda import nvtx, runtime
    except ImportError as e:
        raise RuntimeError(
            'CUDAProfileHook marks ranges in the CUDA profiler through NVTX '
            'and needs a CUDA device through the chainer-cuda plugin '
            '(with CuPy); CuPy cannot be imported here ({})'.format(e)) \
            from e
    try:
        count = runtime.getDeviceCount()
    except runtime.CUDARuntimeError as e:
        raise RuntimeError(
            'CUDAProfileHook needs a CUDA device through the chainer-cuda '
            'plugin; the CUDA runtime reports none ({})'.format(e)) from e
    if count == 0:
        raise RuntimeError('CUDAProfileHook needs a CUDA device through the '
                           'chainer-cuda plugin; this machine has none')
    return nvtx


class CUDAProfileHook(function_hook.FunctionHook):
    """Mark the forward and backward computation of each function node as
    an NVTX range (``<label>.forward``, ``<label>.backward``), so that
    ``nvprof``/Nsight Systems timelines show which op ran each kernel.

    Needs a CUDA device through the chainer-cuda plugin (CuPy): without
    one, constructing the hook raises :class:`RuntimeError` saying what is
    missing.

    Example:
        >>> with CUDAProfileHook():
        ...     loss = model(x, t)
    """

    name = 'CUDAProfileHook'

    def __init__(self):
        self._nvtx = _nvtx()

    def forward_preprocess(self, function, in_data):
        self._nvtx.RangePush(function.label + '.forward')

    def forward_postprocess(self, function, in_data):
        self._nvtx.RangePop()

    def backward_preprocess(self, function, in_data, out_grad):
        self._nvtx.RangePush(function.label + '.backward')

    def backward_postprocess(self, function, in_data, out_grad):
        self._nvtx.RangePop()
