"""cumsum: values along an axis or the flattened input, and the gradient
(a cumulative sum from the end)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestCumsum:

    def test_values(self, dtype):
        x = typed([[1, 2, 3], [4, 5, 6]], dtype)
        assert_close(F.cumsum(x, axis=1), [[1, 3, 6], [4, 9, 15]], dtype)
        assert_close(F.cumsum(x, axis=0), [[1, 2, 3], [5, 7, 9]], dtype)
        assert_close(F.cumsum(x, axis=-1), [[1, 3, 6], [4, 9, 15]], dtype)

    def test_axis_none_flattens(self, dtype):
        y = F.cumsum(typed([[1, 2], [3, 4]], dtype))
        assert y.shape == (4,)
        assert_close(y, [1, 3, 6, 10], dtype)

    def test_gradient_sums_from_the_end(self, dtype):
        x = chainer.Variable(typed([1, 2, 3], dtype))
        gx, = grads(F.cumsum(x, axis=0), (x,), typed([1, 10, 100], dtype))
        assert_close(gx, [111, 110, 100], dtype)

    def test_gradient_of_flattened_keeps_the_shape(self, dtype):
        x = chainer.Variable(typed([[1, 2], [3, 4]], dtype))
        gx, = grads(F.cumsum(x), (x,))
        assert gx.shape == (2, 2)
        assert_close(gx, [[4, 3], [2, 1]], dtype)


def test_axis_must_be_an_int():
    with pytest.raises(TypeError, match='cumsum'):
        F.cumsum(numpy.ones(3), axis=0.0)
