"""normalize: x / (|x| + eps) along axis 1 by default (eps outside the
root, as Chainer), tuples of axes, a zero vector."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestNormalize:

    def test_rows_have_unit_norm(self, dtype):
        x = numpy.random.RandomState(0).uniform(-1, 1, (3, 4)).astype(dtype)
        y = F.normalize(x, eps=0)
        assert y.shape == (3, 4) and y.dtype == dtype
        assert_close((y.array.astype('f8') ** 2).sum(axis=1), numpy.ones(3),
                     dtype)

    def test_eps_is_added_to_the_norm(self, dtype):
        y = F.normalize(typed([[3, 4]], dtype), eps=5)
        assert_close(y, [[0.3, 0.4]], dtype)

    def test_axis(self, dtype):
        x = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 4)).astype(
            dtype)
        y = F.normalize(x, axis=(0, 2), eps=0)
        assert_close((y.array.astype('f8') ** 2).sum(axis=(0, 2)),
                     numpy.ones(3), dtype)
        assert_close(F.normalize(x, axis=-1), F.normalize(x, axis=2).array,
                     dtype)

    def test_zero_vector(self, dtype):
        x = chainer.Variable(typed([[0, 0], [3, 4]], dtype))
        y = F.normalize(x, eps=0.5)
        assert_close(y, [[0, 0], [3 / 5.5, 4 / 5.5]], dtype)
        gx, = grads(y, (x,), typed([[1, 2], [0, 0]], dtype))
        # The limit at 0: the output grows as x / eps.
        assert_close(gx, [[2, 4], [0, 0]], dtype)

    def test_gradient_is_orthogonal_to_x_without_eps(self, dtype):
        x = chainer.Variable(typed([[1, 2, 2]], dtype))
        gx, = grads(F.normalize(x, eps=0), (x,), typed([[1, 0, 0]], dtype))
        # d(x/|x|) projects out x: gx = (e1 - y y1) / |x|.
        y = numpy.array([1, 2, 2]) / 3.0
        assert_close(gx, [(numpy.array([1, 0, 0]) - y * y[0]) / 3], dtype)
