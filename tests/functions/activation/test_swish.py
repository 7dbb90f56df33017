"""swish: x sigmoid(beta x) with beta broadcast along the batch axis and the
trailing axes it does not cover; gradients for x and beta."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _sigmoid(t):
    return 1 / (1 + numpy.exp(-t))


@dtype_param
class TestSwish:

    def test_beta_zero_halves(self, dtype):
        x = typed([[-2, 0.5, 3]], dtype)
        y = F.swish(x, typed([0, 0, 0], dtype))
        assert y.dtype == dtype
        assert_close(y, x.astype('f8') / 2, dtype)

    def test_large_beta_tends_to_relu(self, dtype):
        y = F.swish(typed([[-2, 3]], dtype), typed([30, 30], dtype))
        assert_close(y, [[0, 3]], dtype)

    def test_beta_per_channel(self, dtype):
        rng = numpy.random.RandomState(0)
        x = rng.uniform(-2, 2, (2, 3, 4)).astype(dtype)
        beta = typed([0.5, 1, 2], dtype)
        y = F.swish(x, beta)
        xf = x.astype('f8')
        b = beta.astype('f8').reshape(1, 3, 1)
        assert_close(y, xf * _sigmoid(b * xf), dtype)

    def test_gradients(self, dtype):
        xs = numpy.array([[-1.0, 0.5], [2.0, -0.25]])
        bs = numpy.array([0.5, 2.0])
        x = chainer.Variable(xs.astype(dtype))
        beta = chainer.Variable(bs.astype(dtype))
        gx, gbeta = grads(F.swish(x, beta), (x, beta))
        s = _sigmoid(bs * xs)
        y = xs * s
        assert_close(gx, s + bs * y * (1 - s), dtype)
        assert_close(gbeta, (xs * y * (1 - s)).sum(axis=0), dtype)
