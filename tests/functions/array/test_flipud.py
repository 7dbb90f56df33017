"""flipud: reverse the first axis (inputs of at least 1 axis)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestFlipUD:

    def test_values(self, dtype):
        x = numpy.arange(6).reshape(3, 2).astype(dtype)
        assert_close(F.flipud(x), x[::-1], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(numpy.zeros(3, dtype=dtype))
        gx, = grads(F.flipud(x), (x,), numpy.array([1, 2, 3], dtype=dtype))
        assert_close(gx, [3, 2, 1], dtype)

    def test_0dim_is_rejected(self, dtype):
        with pytest.raises(TypeError, match='FlipUD'):
            F.flipud(numpy.zeros((), dtype=dtype))
