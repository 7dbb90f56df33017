"""spatial_transformer_grid and spatial_transformer_sampler: the identity
transform samples the image back, bilinear values and zeros outside
(checked against Chainer 7.8.1), and the gradients."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads


@pytest.mark.parametrize('dtype', DTYPES)
class TestSpatialTransformer:

    def test_identity_reproduces_the_image(self, dtype):
        x = numpy.random.RandomState(0).rand(2, 3, 4, 5).astype(dtype)
        theta = numpy.tile(numpy.array([[1, 0, 0], [0, 1, 0]], dtype),
                           (2, 1, 1))
        grid = F.spatial_transformer_grid(theta, (4, 5))
        assert grid.shape == (2, 2, 4, 5) and grid.dtype == dtype
        assert_close(F.spatial_transformer_sampler(x, grid), x, dtype)

    def test_bilinear_and_outside(self, dtype):
        x = numpy.arange(24, dtype=dtype).reshape(1, 2, 3, 4)
        grid = numpy.array([[-1, 0, 1, 1.5], [-1, -0.5, 0.3, 1]],
                           dtype).reshape(1, 2, 1, 4)
        y = F.spatial_transformer_sampler(x, grid)
        tol = dict(rtol=1e-2, atol=1e-2) if dtype == numpy.float16 else \
            dict(rtol=1e-6)
        numpy.testing.assert_allclose(
            y.array.astype(float).ravel(),
            [0, 3.5, 8.2, 2.75, 12, 15.5, 20.2, 5.75], **tol)

    def test_gradients(self, dtype):
        x = chainer.Variable(numpy.arange(4, dtype=dtype).reshape(
            1, 1, 2, 2))
        grid = chainer.Variable(numpy.array([0.2, -0.4], dtype).reshape(
            1, 2, 1, 1))
        gx, gg = grads(F.spatial_transformer_sampler(x, grid), (x, grid))
        # u = 0.6, v = 0.3: the weights of the four pixels, and
        # dy/du = ((1 - v)(x01 - x00) + v (x11 - x10)) (W - 1) / 2.
        assert_close(gx[0, 0], [[0.7 * 0.4, 0.7 * 0.6], [0.3 * 0.4,
                                                         0.3 * 0.6]], dtype)
        tol = 1e-2 if dtype == numpy.float16 else 1e-6
        numpy.testing.assert_allclose(gg.ravel().astype(float), [0.5, 1.0],
                                      rtol=tol)


def test_grid_gradient_is_matmul():
    theta = chainer.Variable(numpy.random.rand(1, 2, 3))
    g, = grads(F.spatial_transformer_grid(theta, (2, 2)), (theta,))
    # Each row of theta meets x_t, y_t and 1 summed over the 2x2 grid.
    numpy.testing.assert_allclose(g[0], [[0, 0, 4], [0, 0, 4]], atol=1e-12)


def test_use_cudnn_is_refused():
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_sampler(numpy.zeros((1, 1, 2, 2)),
                                      numpy.zeros((1, 2, 1, 1)),
                                      use_cudnn=False)
