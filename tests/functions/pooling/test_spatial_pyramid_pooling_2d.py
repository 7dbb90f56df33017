"""spatial_pyramid_pooling_2d: levels of 1, 2x2, 4x4, ... max pooled
cells, flattened and concatenated; only 'max' pooling."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _distinct(dtype, shape, seed):
    values = numpy.random.RandomState(seed).permutation(
        int(numpy.prod(shape)))
    return (values.reshape(shape) / 8).astype(dtype)


@dtype_param
class TestSpatialPyramidPooling2D:

    def test_levels(self, dtype):
        x = _distinct(dtype, (2, 3, 8, 8), 0)
        y = F.spatial_pyramid_pooling_2d(x, 3, pooling='max')
        assert y.shape == (2, 3 * (1 + 4 + 16), 1, 1) and y.dtype == dtype
        xd = x.astype(numpy.float64)
        assert_close(y[:, :3, 0, 0], xd.max(axis=(2, 3)), dtype)
        level1 = xd.reshape(2, 3, 2, 4, 2, 4).max(axis=(3, 5))
        assert_close(y[:, 3:15, 0, 0], level1.reshape(2, 12), dtype)
        level2 = xd.reshape(2, 3, 4, 2, 4, 2).max(axis=(3, 5))
        assert_close(y[:, 15:, 0, 0], level2.reshape(2, 48), dtype)

    def test_odd_sizes_are_padded(self, dtype):
        x = _distinct(dtype, (1, 2, 7, 6), 0)
        y = F.spatial_pyramid_pooling_2d(x, 2, pooling='max')
        assert y.shape == (1, 10, 1, 1)
        # Level 1: windows of 4 rows (padded by none: rows 0-3, 4-6) and 3
        # columns.
        xd = x.astype(numpy.float64)
        assert_close(y[0, 2, 0, 0], xd[0, 0, :4, :3].max(), dtype)
        assert_close(y[0, 5, 0, 0], xd[0, 0, 4:, 3:].max(), dtype)

    def test_pooling_must_be_max(self, dtype):
        x = numpy.zeros((1, 1, 4, 4), dtype)
        for pooling in (None, 'average'):
            with pytest.raises(ValueError, match='pooling'):
                F.spatial_pyramid_pooling_2d(x, 2, pooling=pooling)

    def test_gradient_counts_each_level(self, dtype):
        x = chainer.Variable(_distinct(dtype, (1, 1, 4, 4), 0))
        gx, = grads(F.spatial_pyramid_pooling_2d(x, 2, pooling='max'), (x,))
        # The global maximum is also the maximum of its quadrant.
        assert gx.sum() == 5
        assert gx.ravel()[x.array.argmax()] == 2
