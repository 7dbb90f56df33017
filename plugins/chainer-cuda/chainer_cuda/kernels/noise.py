"""dropout: the mask drawn and applied in one kernel after one draw of
uniform numbers (the reference draws float64 numbers and then takes four
more launches)."""
import numpy

from chainer_cuda.kernels._build import Elementwise, cupy, float_dtype

_dropout = Elementwise(
    'dropout', 'T x, float32 u, float64 ratio, float64 scale', 'T y, T mask',
    '''mask = u >= ratio ? T(scale) : T(0);
    y = T(C(x) * C(mask));''')


def dropout(x, ratio, mask):
    # A given mask is one multiplication already.
    if mask is not None or float_dtype(x) is None or not 0 <= ratio < 1:
        return NotImplemented
    u = cupy().random.random_sample(x.shape, dtype=numpy.float32)
    y, mask = _dropout(x, u, float(ratio), 1.0 / (1.0 - ratio))
    return y, mask


KERNELS = {'dropout': dropout}
