"""Whether CUDA can be used here, found out once per process.

Each step that can fail without a GPU is caught and becomes the reason
``info`` shows: CuPy not installed (found without importing it), CuPy
failing to import (a CUDA library missing), no driver or a driver too old
(CuPy's CUDARuntimeError), no device visible.
"""
import importlib.util
import threading

_INSTALL_HINT = ('pip install "chainer-cuda[cuda13]" (CUDA 13) or '
                 '"chainer-cuda[cuda12]" (CUDA 12)')


class State:
    def __init__(self, cupy=None, device_count=0, reason=''):
        self.cupy = cupy
        self.device_count = device_count
        self.reason = reason

    @property
    def available(self):
        return self.cupy is not None and self.device_count > 0


_state = None
_lock = threading.Lock()


def _error(e):
    return '{}: {}'.format(type(e).__name__, e)


def _probe():
    if importlib.util.find_spec('cupy') is None:
        return State(reason='CuPy is not installed ({})'.format(
            _INSTALL_HINT))
    try:
        import cupy
    except Exception as e:
        return State(reason='CuPy is installed but cannot be imported ({}); '
                     'check that its CUDA version matches the driver: {}'
                     .format(_error(e), _INSTALL_HINT))
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:
        return State(reason='no usable CUDA driver: {} (CuPy {})'.format(
            _error(e), getattr(cupy, '__version__', '?')))
    if count < 1:
        return State(reason='the CUDA driver sees no GPU (check '
                     'CUDA_VISIBLE_DEVICES)')
    return State(cupy, count)


def state():
    """The :class:`State` of this process."""
    global _state
    if _state is None:
        with _lock:
            if _state is None:
                _state = _probe()
    return _state


def require():
    """CuPy, or a RuntimeError saying why CUDA cannot be used here."""
    s = state()
    if not s.available:
        raise RuntimeError('chainer-cuda: CUDA is not available here: '
                           + s.reason)
    return s.cupy
