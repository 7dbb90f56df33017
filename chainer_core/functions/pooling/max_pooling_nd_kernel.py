"""Chainer's path of the GPU kernels of max_pooling_nd.

The array work of max_pooling_nd is the registry kernel
``max_pooling_nd`` (and its ``*_grad`` kernels), which a backend
replaces for its own arrays; see :mod:`pooling_nd_kernel`.
"""
