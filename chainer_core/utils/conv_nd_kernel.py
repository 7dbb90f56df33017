"""Chainer's ``chainer.utils.conv_nd_kernel`` module path.

In Chainer this module generates the CUDA source of the N-dimensional
im2col/col2im kernels. Those kernels belong to a CUDA device, which the
chainer-cuda plugin provides; on the CPU, N-dimensional patches are
computed by :mod:`chainer_core.utils.conv_nd`.
"""
