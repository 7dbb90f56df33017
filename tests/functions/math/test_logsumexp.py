"""logsumexp: values, no overflow for large inputs, -inf entries, and a
gradient that is the softmax over the reduced axes."""
import math

import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed


@pytest.mark.parametrize('dtype', DTYPES)
class TestLogSumExp:

    def test_values(self, dtype):
        y = F.logsumexp(typed([[0, 0], [1, 2]], dtype), axis=1)
        assert y.dtype == dtype
        assert_close(y, [math.log(2), 2 + math.log(1 + math.exp(-1))],
                     dtype)

    def test_all_axes(self, dtype):
        y = F.logsumexp(typed([[0, 0], [0, 0]], dtype))
        assert y.shape == ()
        assert_close(y, math.log(4), dtype)

    def test_large_inputs_do_not_overflow(self, dtype):
        big = 60000 if dtype == numpy.float16 else 1e30
        y = F.logsumexp(typed([big, big], dtype))
        assert_close(y, big, dtype)

    def test_minus_infinity_entries(self, dtype):
        with numpy.errstate(divide='ignore'):
            y = F.logsumexp(typed([[-numpy.inf, 0],
                                   [-numpy.inf, -numpy.inf]], dtype), axis=1)
        assert_close(y[0:1], [0], dtype)
        assert y.array[1] == -numpy.inf

    def test_gradient_is_the_softmax(self, dtype):
        x = chainer.Variable(typed([[0, 0], [1, 2]], dtype))
        gx, = grads(F.logsumexp(x, axis=1), (x,))
        e = 1 / (1 + math.e)
        assert_close(gx, [[0.5, 0.5], [e, 1 - e]], dtype)
