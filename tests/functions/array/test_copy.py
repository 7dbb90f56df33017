"""copy: a new array on the destination device (never a view of the
input), and the gradient copied back."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestCopy:

    @pytest.mark.parametrize('dst', ['@numpy', -1])
    def test_copies(self, dtype, dst):
        x = numpy.arange(6).reshape(2, 3).astype(dtype)
        y = F.copy(x, dst)
        assert type(y.array) is numpy.ndarray
        assert not numpy.shares_memory(y.array, x)
        assert_close(y, x, dtype)

    def test_device_object(self, dtype):
        x = numpy.ones(3, dtype=dtype)
        assert_close(F.copy(x, chainer.get_device('@numpy')), x, dtype)

    def test_gradient(self, dtype):
        x = chainer.Variable(numpy.ones(3, dtype=dtype))
        gx, = grads(F.copy(x, '@numpy'), (x,),
                    numpy.array([1, 2, 3], dtype=dtype))
        assert_close(gx, [1, 2, 3], dtype)

    def test_unknown_device(self, dtype):
        with pytest.raises(ValueError, match='copy: dst'):
            F.copy(numpy.ones(3, dtype=dtype), '@nowhere')
