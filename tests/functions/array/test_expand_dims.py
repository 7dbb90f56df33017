"""expand_dims: Chainer's axis range [-ndim - 1, ndim] and the gradient
reshaped back."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestExpandDims:

    @pytest.mark.parametrize('axis, shape', [
        (0, (1, 2, 3)), (1, (2, 1, 3)), (2, (2, 3, 1)),
        (-1, (2, 3, 1)), (-2, (2, 1, 3)), (-3, (1, 2, 3)),
    ])
    def test_shapes(self, dtype, axis, shape):
        x = numpy.arange(6).reshape(2, 3).astype(dtype)
        y = F.expand_dims(x, axis)
        assert y.shape == shape
        assert y.dtype == dtype
        assert_close(y, x.reshape(shape), dtype)

    @pytest.mark.parametrize('axis', [3, -4])
    def test_axis_out_of_range(self, dtype, axis):
        with pytest.raises(TypeError, match='ExpandDims'):
            F.expand_dims(numpy.zeros((2, 3), dtype=dtype), axis)

    def test_gradient(self, dtype):
        x = chainer.Variable(numpy.zeros((2, 3), dtype=dtype))
        gy = numpy.arange(6).reshape(2, 1, 3).astype(dtype)
        gx, = grads(F.expand_dims(x, 1), (x,), gy)
        assert gx.shape == (2, 3)
        assert_close(gx, gy[:, 0], dtype)
