"""spatial_pyramid_pooling_2d: max pooling at several grid resolutions,
flattened and concatenated into one fixed-length vector per sample."""
import math

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.pooling.max_pooling_2d import MaxPooling2D
from chainer_core.functions.pooling.max_pooling_nd import (
    MaxPoolingNDGrad, max_pool)
from chainer_core.utils import type_check


def _levels(height, width, pyramid_height):
    """(ksize, pad) of the max pooling of each level: level l splits each
    axis into 2**l bins of ceil(size / 2**l) pixels, padded evenly."""
    out = []
    for level in range(pyramid_height):
        bins = 2 ** level
        kh = int(math.ceil(height / bins))
        kw = int(math.ceil(width / bins))
        out.append(((kh, kw), ((kh * bins - height) // 2,
                               (kw * bins - width) // 2)))
    return out


@kernels.declare('spatial_pyramid_pooling_2d')
def _spatial_pyramid_pooling_2d(xp, x, levels):
    """(y, indexes): x (N, C, H, W) max pooled (cover_all) with each
    (ksize, pad) of levels, stride ksize, flattened per sample and
    concatenated into y (N, total, 1, 1); indexes holds the taps chosen at
    each level (as max_pooling_2d returns them)."""
    n = x.shape[0]
    ys, indexes = [], []
    for ksize, pad in levels:
        y, idx = max_pool(xp, x, ksize, ksize, pad, True)
        ys.append(y.reshape(n, -1))
        indexes.append(idx)
    y = xp.concatenate(ys, axis=1)
    return y.reshape(y.shape + (1, 1)), tuple(indexes)


class SpatialPyramidPooling2D(function_node.FunctionNode):
    """Max pooling over a pyramid of grids, concatenated."""

    def __init__(self, pyramid_height):
        self.pyramid_height = pyramid_height

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
        )

    def forward(self, inputs):
        x, = inputs
        levels = _levels(x.shape[2], x.shape[3], self.pyramid_height)
        y, level_indexes = kernels.lookup('spatial_pyramid_pooling_2d', x)(
            x, tuple(levels))
        self._pools = []
        for (ksize, pad), idx in zip(levels, level_indexes):
            pool = MaxPooling2D(ksize, None, pad, cover_all=True)
            pool._in_dims = x.shape[2:]
            pool.indexes = idx
            self._pools.append((pool, idx.shape))
        return y,

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.get_item import get_item
        from chainer_core.functions.array.reshape import reshape
        gy, = grad_outputs
        gx = None
        start = 0
        for pool, shape in self._pools:
            size = shape[1] * shape[2] * shape[3]
            g = get_item(gy, (slice(None), slice(start, start + size)))
            g = MaxPoolingNDGrad(pool).apply((reshape(g, shape),))[0]
            gx = g if gx is None else gx + g
            start += size
        return gx,


def spatial_pyramid_pooling_2d(x, pyramid_height, pooling=None):
    """Spatial pyramid pooling.

    At level ``l = 0, ..., pyramid_height - 1`` the input is max pooled
    (with ``cover_all``) with the window and stride
    ``k = ceil(b / 2**l)`` and the padding ``(2**l k - b) // 2`` per axis
    (``b`` the height or width of ``x``); each result is flattened per
    sample, and the levels are concatenated. The output length does not
    depend on the input size (for inputs of at least ``2**(L-1)`` pixels
    per axis): ``C * sum(4**l)``.

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)``.
        pyramid_height (int): the number of levels (>= 1).
        pooling (str): the pooling of each level; only ``'max'`` is
            supported (and it must be given).

    Returns:
        Variable of shape ``(N, C * sum_l n_l, 1, 1)``, ``n_l`` the number of
        pooled cells of level ``l``.
    """
    if pooling != 'max':
        raise ValueError("spatial_pyramid_pooling_2d: pooling must be 'max' "
                         '(the only pooling supported), got {!r}'.format(
                             pooling))
    if not isinstance(pyramid_height, int) or isinstance(
            pyramid_height, bool) or pyramid_height < 1:
        raise ValueError('spatial_pyramid_pooling_2d: pyramid_height must be '
                         'an int >= 1, got {!r}'.format(pyramid_height))
    return SpatialPyramidPooling2D(pyramid_height).apply((x,))[0]
