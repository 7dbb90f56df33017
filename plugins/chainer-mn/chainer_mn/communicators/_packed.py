"""Averaging gradients through one contiguous buffer and one Allreduce."""
import numpy

from chainer_mn import _mpi


def as_grad(segment, param):
    """``segment`` (a NumPy array shaped like ``param``) as a gradient of
    ``param``: a view when ``param`` lives in host memory and the dtypes
    agree, else a copy on ``param``'s device."""
    data = param.array
    if isinstance(data, numpy.ndarray):
        if segment.dtype != data.dtype:
            segment = segment.astype(data.dtype)
        if type(data) is not numpy.ndarray:
            segment = segment.view(type(data))
        return segment
    return param.device.send(segment.astype(param.dtype))


def pack(entries, buf, scale):
    """Copy the gradients of ``entries`` (``(param, grad)``, a None grad
    read as zeros) into consecutive segments of ``buf``, times ``scale``."""
    off = 0
    for p, g in entries:
        n = p.size
        seg = buf[off:off + n].reshape(p.shape)
        off += n
        if g is None:
            seg.fill(0)
            continue
        if not isinstance(g, numpy.ndarray):
            g = _mpi.host_array(g)
        elif numpy.may_share_memory(g, buf):
            # The gradient still is a view of this buffer (left from an
            # earlier step): reading it while other segments are written
            # could see them.
            g = g.copy()
        if scale == 1.0:
            numpy.copyto(seg, g, casting='same_kind')
        else:
            numpy.multiply(g, scale, out=seg, casting='same_kind')


def unpack(entries, buf):
    """Give each parameter of ``entries`` its segment of ``buf``."""
    off = 0
    for p, _ in entries:
        n = p.size
        p.grad = as_grad(buf[off:off + n].reshape(p.shape), p)
        off += n


class PackedBuffer:
    """A buffer kept across steps, grown when needed."""

    def __init__(self):
        self._array = None

    def get(self, n, dtype):
        a = self._array
        if a is None or a.dtype != dtype or a.size < n:
            a = self._array = numpy.empty(n, dtype)
        return a[:n]

    def release(self):
        self._array = None
