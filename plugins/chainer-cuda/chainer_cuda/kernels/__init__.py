"""The kernels of the cuda backend, by kernel name (see chainer-core's
``python -m chainer_core kernels``).

Every op without a kernel here runs its reference kernel with
``xp = cupy``; these replace references that launch many kernels where one
does. A kernel returns ``NotImplemented`` for what it does not cover (a
dtype, a layout, a mode), and the reference runs instead.
"""
from chainer_cuda.kernels import (
    activations, lstm, noise, normalization, optimizers, softmax)

KERNELS = {}
for _module in (activations, softmax, normalization, noise, lstm,
                optimizers):
    KERNELS.update(_module.KERNELS)
