"""stack: the new axis anywhere in [-ndim - 1, ndim], and gradients
separated back to each input."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _xs(dtype, n=3):
    return [numpy.arange(6).reshape(2, 3).astype(dtype) + 10 * i
            for i in range(n)]


@dtype_param
class TestStack:

    @pytest.mark.parametrize('axis, shape', [
        (0, (3, 2, 3)), (1, (2, 3, 3)), (2, (2, 3, 3)), (-1, (2, 3, 3)),
        (-3, (3, 2, 3)),
    ])
    def test_shapes(self, dtype, axis, shape):
        y = F.stack(_xs(dtype), axis)
        assert y.shape == shape
        assert_close(y, numpy.stack(_xs(numpy.float64), axis), dtype)

    def test_0dim_inputs(self, dtype):
        y = F.stack([numpy.array(1, dtype=dtype), numpy.array(2, dtype=dtype)])
        assert_close(y, [1, 2], dtype)

    def test_gradients(self, dtype):
        xs = [chainer.Variable(x) for x in _xs(dtype)]
        gy = numpy.arange(18).reshape(2, 3, 3).astype(dtype)
        gxs = grads(F.stack(xs, axis=-1), xs, gy)
        for i, gx in enumerate(gxs):
            assert_close(gx, gy[..., i], dtype)

    def test_shape_mismatch(self, dtype):
        with pytest.raises(TypeError, match='Stack'):
            F.stack([numpy.zeros((2, 3), dtype=dtype),
                     numpy.zeros((3, 2), dtype=dtype)])
