"""cast: the output dtype, gradients cast back to the input's dtype, no
gradient for integer inputs, and Chainer's shortcut without backprop."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestCast:

    @pytest.mark.parametrize('typ', [numpy.float16, numpy.float32,
                                     numpy.float64, numpy.int32, 'f', 'i8'])
    def test_output_dtype(self, dtype, typ):
        x = numpy.array([1.0, -2.0, 3.0], dtype=dtype)
        y = F.cast(x, typ)
        assert y.dtype == numpy.dtype(typ)
        assert_close(y, [1, -2, 3], numpy.float16)

    def test_gradient_has_the_input_dtype(self, dtype):
        x = chainer.Variable(numpy.array([1.0, 2.0], dtype=dtype))
        gx, = grads(F.cast(x, numpy.float64), (x,),
                    numpy.array([0.5, 4.0]))
        assert gx.dtype == dtype
        assert_close(gx, [0.5, 4.0], dtype)

    def test_integer_input_has_no_gradient(self, dtype):
        x = chainer.Variable(numpy.array([1, 2], dtype=numpy.int32))
        y = F.cast(x, dtype)
        gx, = chainer.grad([y], [x], [numpy.ones(2, dtype=dtype)])
        assert gx is None

    def test_same_dtype_without_backprop(self, dtype):
        x = chainer.Variable(numpy.ones(2, dtype=dtype))
        with chainer.no_backprop_mode():
            assert F.cast(x, dtype) is x
        y = F.cast(x, dtype)
        assert y is not x
        assert y.creator is not None
