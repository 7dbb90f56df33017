"""as_strided: a strided view of an array's elements."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('as_strided')
def _as_strided(xp, x, index):
    """The elements of x (in C order) at the flat positions index."""
    return xp.take(x.reshape(-1), index.reshape(-1)).reshape(index.shape)


@kernels.declare('as_strided_grad')
def _as_strided_grad(xp, gy, index, shape):
    """Zeros of shape with each element of gy added (in C order) at its
    flat position in index; positions read several times sum up."""
    size = 1
    for s in shape:
        size *= s
    gx = xp.zeros(size, dtype=gy.dtype)
    xp.add.at(gx, index.reshape(-1), gy.reshape(-1))
    return gx.reshape(shape)


def _flat_index(shape, strides, offset):
    index = numpy.full(shape, offset, dtype=numpy.int64)
    for axis, (n, step) in enumerate(zip(shape, strides)):
        at = [1] * len(shape)
        at[axis] = n
        index += (numpy.arange(n, dtype=numpy.int64) * step).reshape(at)
    return index


class AsStrided(function_node.FunctionNode):
    """Read an array's elements by shape, strides and offset."""

    def __init__(self, shape, strides, storage_offset):
        self.shape = _util.check_axes(shape, 'as_strided', 'shape')
        self.strides = _util.check_axes(strides, 'as_strided', 'strides')
        if len(self.shape) != len(self.strides):
            raise ValueError('as_strided: shape {} and strides {} must have '
                             'the same length'.format(shape, strides))
        if any(s < 0 for s in self.shape):
            raise ValueError('as_strided: shape must not be negative, got {}'
                             .format(shape))
        self.storage_offset = 0 if storage_offset is None else \
            _util.check_int(storage_offset, 'as_strided', 'storage_offset')
        self._index = _flat_index(self.shape, self.strides,
                                  self.storage_offset)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        if self._index.size == 0:
            return
        size = type_check.eval(in_types[0].size)
        lo, hi = int(self._index.min()), int(self._index.max())
        if lo < 0 or hi >= size:
            raise type_check.InvalidType(
                'every element read within x.size = {}'.format(size),
                'shape {}, strides {} and storage_offset {} read element {}'
                .format(self.shape, self.strides, self.storage_offset,
                        lo if lo < 0 else hi))

    def forward(self, inputs):
        x, = inputs
        index = _util.device_of(x).send(self._index)
        return kernels.lookup('as_strided', x)(x, index),

    def backward(self, indexes, grad_outputs):
        return AsStridedGrad(self, self.inputs[0].shape).apply(grad_outputs)


class AsStridedGrad(function_node.FunctionNode):
    """Sum a gradient back onto the elements it was read from."""

    def __init__(self, as_strided_node, shape):
        self._node = as_strided_node
        self._shape = shape

    def forward(self, inputs):
        gy, = inputs
        index = _util.device_of(gy).send(self._node._index)
        return kernels.lookup('as_strided_grad', gy)(gy, index, self._shape),

    def backward(self, indexes, grad_outputs):
        f = self._node
        return AsStrided(f.shape, f.strides, f.storage_offset).apply(
            grad_outputs)


def as_strided(x, shape, strides, storage_offset=None):
    """Read the elements of ``x`` by a shape, strides and an offset.

    ``y[i_0, ..., i_k] = x.ravel()[storage_offset + sum_j i_j
    strides[j]]``: strides and offset count elements (not bytes, unlike
    ``numpy.lib.stride_tricks.as_strided``) of ``x`` in C order, whatever
    the memory layout of ``x``. Elements read several times receive the
    sum of their gradients. The output is a new array: writing to it does
    not change ``x``.

    Args:
        x (Variable or array): input.
        shape (tuple of int): the output shape.
        strides (tuple of int): the step, in elements, of each output axis.
        storage_offset (int or None): the position of ``y[0, ..., 0]`` in
            ``x.ravel()`` (None: 0).

    Returns:
        Variable: output of ``shape``.
    """
    return AsStrided(shape, strides, storage_offset).apply((x,))[0]
