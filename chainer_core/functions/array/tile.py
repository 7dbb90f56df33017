"""tile: repeat a whole array along each axis."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('tile')
def _tile(xp, x, reps):
    """numpy.tile(x, reps) with reps a tuple of ints."""
    return xp.tile(x, reps)


class Tile(function_node.FunctionNode):
    """Repeat an array as a whole along each axis."""

    def __init__(self, reps):
        self.reps = _util.check_axes(reps, 'tile', 'reps')
        if any(r < 0 for r in self.reps):
            raise ValueError('tile: reps must not be negative, got {}'.format(
                reps))

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('tile', x)(x, self.reps),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.math.sum import sum
        gy, = grad_outputs
        x_shape = self.inputs[0].shape
        ndim = max(len(x_shape), len(self.reps))
        reps = (1,) * (ndim - len(self.reps)) + self.reps
        shape = (1,) * (ndim - len(x_shape)) + tuple(x_shape)
        # Output axis i is reps[i] blocks of shape[i]: split it into
        # (reps[i], shape[i]) and sum over the blocks.
        split = []
        for r, s in zip(reps, shape):
            split.extend((r, s))
        gx = sum(reshape(gy, tuple(split)), axis=tuple(range(0, 2 * ndim, 2)))
        return reshape(gx, x_shape),


def tile(x, reps):
    """Repeat ``x`` as a whole ``reps[i]`` times along each axis ``i``.

    As ``numpy.tile``: with more reps than axes, ``x`` gains leading axes of
    size 1; with fewer, ``reps`` is padded with leading ones.

    Args:
        x (Variable or array): input.
        reps (int or tuple of int): the numbers of repetitions.

    Returns:
        Variable: output with ``y.shape[i] == x.shape[i] * reps[i]`` (after
        the padding above).
    """
    return Tile(reps).apply((x,))[0]
