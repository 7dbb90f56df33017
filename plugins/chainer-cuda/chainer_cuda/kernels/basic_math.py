"""pow with the exponent 0.5, as NumPy computes it.

NumPy takes ``x ** 0.5`` for a scalar exponent as ``sqrt(x)`` whenever the
result is float32 or float64; CuPy calls ``pow``. The two differ where C's
``pow`` has its own rule: ``pow(-inf, 0.5)`` is inf and ``sqrt(-inf)`` nan
(``x ** 1.5``'s gradient, ``1.5 x ** 0.5``, meets this), and
``sqrt(-0.0)`` is -0.0. Every other exponent is the reference's.
"""
import numpy

from chainer_cuda.kernels._build import cupy

_SQRT_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def pow(x, y):
    cp = cupy()
    if not isinstance(x, cp.ndarray) or x.dtype.kind != 'f' or \
            not isinstance(y, (float, numpy.floating)) or y != 0.5:
        return NotImplemented
    # The result dtype NumPy gives (a Python float does not widen x).
    dtype = numpy.result_type(x.dtype, y)
    if dtype not in _SQRT_DTYPES:
        return NotImplemented
    return cp.sqrt(x.astype(dtype, copy=False))


KERNELS = {'pow': pow}
