"""flatten: C order whatever the layout, 0-dim and empty inputs, and the
gradient reshaped back."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestFlatten:

    def test_c_order(self, dtype):
        x = numpy.arange(24).reshape(2, 3, 4).astype(dtype)
        y = F.flatten(x)
        assert y.shape == (24,)
        assert_close(y, numpy.arange(24), dtype)

    def test_c_order_of_a_transposed_input(self, dtype):
        x = numpy.arange(6).reshape(2, 3).astype(dtype).T
        assert_close(F.flatten(x), [0, 3, 1, 4, 2, 5], dtype)

    def test_0dim_and_empty(self, dtype):
        assert F.flatten(numpy.array(3, dtype=dtype)).shape == (1,)
        assert F.flatten(numpy.zeros((2, 0, 3), dtype=dtype)).shape == (0,)

    def test_gradient(self, dtype):
        x = chainer.Variable(numpy.zeros((2, 3), dtype=dtype))
        gy = numpy.arange(6).astype(dtype)
        gx, = grads(F.flatten(x), (x,), gy)
        assert_close(gx, gy.reshape(2, 3), dtype)
