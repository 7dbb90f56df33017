"""Loading the native extension (``chainer_mkldnn._C``) and libdnnl.

The extension finds ``libdnnl.so.3`` through its RPATH (the runtime wheel's
``<prefix>/lib``). Where that does not hold (a relocated environment, a
different install scheme), the library is located through the file list of
the ``onednn-cpu-gomp`` distribution and loaded with ``RTLD_GLOBAL`` before
the extension is imported again.
"""
import os
import threading

_lock = threading.Lock()
_lib = None
_error = None
_tried = False


def _preload_dnnl():
    import ctypes
    import importlib.metadata as metadata
    dist = metadata.distribution('onednn-cpu-gomp')
    for f in dist.files or ():
        if f.name == 'libdnnl.so.3':
            path = dist.locate_file(f)
            ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
            return path
    raise ImportError('onednn-cpu-gomp lists no libdnnl.so.3')


def _tune_openmp():
    # libgomp spins 300000 rounds at each barrier before sleeping; when the
    # cores are shared with other processes a spinning thread holds a core
    # its partner needs, and every oneDNN call slows down several fold. A
    # short spin keeps idle-machine latency and degrades gracefully. Read
    # by libgomp when it loads (here, with libdnnl), and only if the user
    # set neither knob.
    if 'OMP_WAIT_POLICY' not in os.environ:
        os.environ.setdefault('GOMP_SPINCOUNT', '10000')


def _import():
    _tune_openmp()
    try:
        from chainer_mkldnn import _C
    except ImportError as e:
        if 'libdnnl' not in str(e):
            raise
        _preload_dnnl()
        from chainer_mkldnn import _C
    _C.version()  # creates nothing, but calls into libdnnl
    return _C


def _ensure():
    global _lib, _error, _tried
    if _tried:
        return
    with _lock:
        if _tried:
            return
        if _error is None:
            try:
                _lib = _import()
            except Exception as e:
                _error = ('cannot load the oneDNN extension: {}: {} '
                          '(reinstall chainer-mkldnn and onednn-cpu-gomp)'
                          .format(type(e).__name__, e))
        _tried = True


def set_load_error(message):
    """Mark the library unusable here (checked before trying to load it)."""
    global _error
    _error = message


def load_error():
    """None when the extension loads, else why it does not."""
    _ensure()
    return _error


def lib():
    """The extension module (loads it on first use)."""
    _ensure()
    if _lib is None:
        raise RuntimeError('chainer-mkldnn: ' + _error)
    return _lib
