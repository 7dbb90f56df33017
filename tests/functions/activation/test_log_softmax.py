"""log_softmax: consistent with softmax, and finite where log(softmax(x))
underflows to -inf."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestLogSoftmax:

    def test_exp_sums_to_one_along_axis_1(self, dtype):
        x = numpy.random.RandomState(0).uniform(-2, 2, (2, 3, 4)).astype(
            dtype)
        y = F.log_softmax(x)
        assert y.dtype == dtype
        assert_close(numpy.exp(y.array.astype('f8')).sum(axis=1),
                     numpy.ones((2, 4)), dtype)

    def test_finite_where_softmax_underflows(self, dtype):
        gap = 1000 if dtype != numpy.float16 else 300
        y = F.log_softmax(typed([[0, -gap]], dtype))
        assert_close(y, [[0, -gap]], dtype)

    def test_gradient(self, dtype):
        # d/dx sum_i w_i y_i = w - softmax(x) * sum(w)
        x = chainer.Variable(typed([[0, 0, 0, 0]], dtype))
        w = typed([[1, 0, 0, 1]], dtype)
        gx, = grads(F.log_softmax(x), (x,), w)
        assert_close(gx, [[0.5, -0.5, -0.5, 0.5]], dtype)
