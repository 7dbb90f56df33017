"""dstack: NumPy's rule (axis 2 after making inputs 3-D) and gradients cut
back to each input's shape."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestDstack:

    @pytest.mark.parametrize('shapes, shape', [
        (((2, 3, 1), (2, 3, 2)), (2, 3, 3)),
        (((2, 3), (2, 3)), (2, 3, 2)),
        (((3,), (3,)), (1, 3, 2)),
        (((), ()), (1, 1, 2)),
        (((2, 1, 1, 3), (2, 1, 2, 3)), (2, 1, 3, 3)),
    ])
    def test_shapes(self, dtype, shapes, shape):
        xs = [numpy.full(s, i + 1, dtype=dtype) for i, s in enumerate(shapes)]
        y = F.dstack(xs)
        assert y.shape == shape
        assert_close(y, numpy.dstack(xs), dtype)

    def test_gradients_of_1d_inputs(self, dtype):
        xs = [chainer.Variable(numpy.zeros(3, dtype=dtype)) for _ in range(2)]
        gy = numpy.arange(6).reshape(1, 3, 2).astype(dtype)
        g0, g1 = grads(F.dstack(xs), xs, gy)
        assert g0.shape == (3,)
        assert_close(g0, gy[0, :, 0], dtype)
        assert_close(g1, gy[0, :, 1], dtype)

    def test_2d_inputs_need_one_shape(self, dtype):
        with pytest.raises(TypeError, match='Dstack'):
            F.dstack([numpy.zeros((2, 3), dtype=dtype),
                      numpy.zeros((2, 2), dtype=dtype)])
