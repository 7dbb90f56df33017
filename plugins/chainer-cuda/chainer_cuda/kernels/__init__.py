"""The kernels of the cuda backend, by kernel name (see chainer-core's
``python -m chainer_core kernels``).

Every op without a kernel here runs its reference kernel with
``xp = cupy``; these replace references that launch many kernels where one
does, and those whose answer on CuPy is not NumPy's (pad, pow, inv,
cholesky, fft, decorrelated batch normalization, max pooling). A kernel
returns ``NotImplemented`` for what it does not cover (a dtype, a layout, a
mode), and the reference runs instead. ``linear`` and ``matmul`` run only
inside :func:`chainer_cuda.graph_step`, where CuPy cannot call cuBLAS.
"""
from chainer_cuda.kernels import (
    activations, array, basic_math, linalg, lstm, matmul, noise,
    normalization, optimizers, pooling, softmax)

KERNELS = {}
for _module in (activations, softmax, normalization, noise, lstm,
                optimizers, array, basic_math, linalg, matmul, pooling):
    KERNELS.update(_module.KERNELS)
