"""The kernels of ``example:0``, by the names and signatures of chainer-core's
kernel table (``python -m chainer_core kernels``): the reference's arguments
without its leading ``xp``, arrays of this device in and out."""
import numpy

from chainer_example_backend.device import ExampleArray


def relu(x):
    # empty_like keeps the array type: the output is on example:0 too.
    y = numpy.empty_like(x)
    numpy.maximum(x, x.dtype.type(0), out=y)
    return y


def relu_grad(y, gy):
    # As the reference: a NaN gradient stays NaN where y <= 0.
    return gy * (y > 0)


def linear(x, W, b):
    """y = x W^T + b for float32 and float64 arguments of one dtype.

    Anything else (float16, mixed dtypes) is declined: returning
    ``NotImplemented`` makes the core run its reference instead, which
    handles every case. A kernel never calls the reference itself.
    """
    dtypes = {a.dtype for a in (x, W, b) if a is not None}
    if len(dtypes) != 1 or dtypes.pop() not in (numpy.float32,
                                                numpy.float64):
        return NotImplemented
    y = numpy.matmul(x.view(numpy.ndarray), W.view(numpy.ndarray).T)
    if b is not None:
        y += b.view(numpy.ndarray)
    return y.view(ExampleArray)


KERNELS = {'relu': relu, 'relu_grad': relu_grad, 'linear': linear}
