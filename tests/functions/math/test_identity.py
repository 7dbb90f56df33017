import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F
from chainer_core import gradient_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
class TestIdentity:

    def test_forward_keeps_the_arrays(self, dtype):
        a = numpy.arange(6, dtype=dtype).reshape(2, 3)
        b = numpy.ones(4, dtype=dtype)
        x = chainer.Variable(a)
        y = F.identity(x)
        assert y is not x and y.array is a
        ya, yb = F.identity(a, b)
        assert ya.array is a and yb.array is b

    def test_gradients(self, dtype):
        rng = numpy.random.RandomState(0)
        xs = (rng.uniform(-1, 1, (2, 3)).astype(dtype),
              rng.uniform(-1, 1, (4,)).astype(dtype))
        gys = tuple(rng.uniform(-1, 1, x.shape).astype(dtype) for x in xs)
        gradient_check.check_backward(F.identity, xs, gys,
                                      dtype=numpy.float64)
        gradient_check.check_double_backward(F.identity, xs, gys, gys,
                                             dtype=numpy.float64)
