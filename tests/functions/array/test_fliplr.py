"""fliplr: reverse the second axis (inputs of at least 2 axes)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestFlipLR:

    def test_values(self, dtype):
        x = numpy.arange(24).reshape(2, 3, 4).astype(dtype)
        assert_close(F.fliplr(x), x[:, ::-1], dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(numpy.zeros((2, 3), dtype=dtype))
        gy = numpy.arange(6).reshape(2, 3).astype(dtype)
        gx, = grads(F.fliplr(x), (x,), gy)
        assert_close(gx, gy[:, ::-1], dtype)

    def test_1d_is_rejected(self, dtype):
        with pytest.raises(TypeError, match='FlipLR'):
            F.fliplr(numpy.zeros(3, dtype=dtype))
