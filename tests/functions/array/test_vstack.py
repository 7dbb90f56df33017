"""vstack: NumPy's rule (axis 0, 1-D and 0-D inputs become rows) and
gradients cut back to each input's shape."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestVstack:

    @pytest.mark.parametrize('shapes, shape', [
        (((1, 3), (2, 3)), (3, 3)),
        (((3,), (3,)), (2, 3)),
        (((), ()), (2, 1)),
        (((1, 2, 2), (3, 2, 2)), (4, 2, 2)),
    ])
    def test_shapes(self, dtype, shapes, shape):
        xs = [numpy.full(s, i + 1, dtype=dtype) for i, s in enumerate(shapes)]
        y = F.vstack(xs)
        assert y.shape == shape
        assert_close(y, numpy.vstack(xs), dtype)

    def test_gradients_of_rows(self, dtype):
        xs = [chainer.Variable(numpy.zeros(3, dtype=dtype)) for _ in range(2)]
        gy = numpy.arange(6).reshape(2, 3).astype(dtype)
        g0, g1 = grads(F.vstack(xs), xs, gy)
        assert g0.shape == (3,)
        assert_close(g0, gy[0], dtype)
        assert_close(g1, gy[1], dtype)

    def test_1d_inputs_need_one_length(self, dtype):
        with pytest.raises(TypeError, match='Vstack'):
            F.vstack([numpy.zeros(3, dtype=dtype),
                      numpy.zeros(2, dtype=dtype)])
