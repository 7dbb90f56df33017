"""hstack: NumPy's rule (axis 1, but axis 0 for 1-D and 0-D inputs) and
gradients cut back to each input's shape."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestHstack:

    @pytest.mark.parametrize('shapes, shape', [
        (((2, 1), (2, 3)), (2, 4)),
        (((2,), (3,)), (5,)),
        (((), ()), (2,)),
        (((2, 1, 4), (2, 2, 4)), (2, 3, 4)),
    ])
    def test_shapes(self, dtype, shapes, shape):
        xs = [numpy.full(s, i + 1, dtype=dtype) for i, s in enumerate(shapes)]
        y = F.hstack(xs)
        assert y.shape == shape
        assert_close(y, numpy.hstack(xs), dtype)

    def test_gradients_keep_input_shapes(self, dtype):
        xs = [chainer.Variable(numpy.zeros((), dtype=dtype)),
              chainer.Variable(numpy.zeros((), dtype=dtype))]
        gxs = grads(F.hstack(xs), xs, numpy.array([3, 5], dtype=dtype))
        assert gxs[0].shape == ()
        assert_close(gxs[0], 3, dtype)
        assert_close(gxs[1], 5, dtype)

    def test_2d_mismatch_on_first_axis(self, dtype):
        with pytest.raises(TypeError, match='Hstack'):
            F.hstack([numpy.zeros((2, 1), dtype=dtype),
                      numpy.zeros((3, 1), dtype=dtype)])
