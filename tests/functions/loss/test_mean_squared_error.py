"""mean_squared_error: a 0-dim mean over all elements, gradients
+-2 (x0 - x1) / size."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestMeanSquaredError:

    def test_known_value_is_0dim(self, dtype):
        loss = F.mean_squared_error(typed([[1, 2], [3, 4]], dtype),
                                    typed([[1, 0], [0, 4]], dtype))
        assert loss.shape == ()
        assert loss.dtype == dtype
        assert_close(loss, (4 + 9) / 4, dtype)

    def test_equal_inputs_give_zero(self, dtype):
        x = numpy.arange(6).reshape(2, 3).astype(dtype)
        assert_close(F.mean_squared_error(x, x), 0, dtype)

    def test_gradients(self, dtype):
        x0 = chainer.Variable(typed([[1, 2], [3, 4]], dtype))
        x1 = chainer.Variable(typed([[1, 0], [0, 4]], dtype))
        g0, g1 = grads(F.mean_squared_error(x0, x1), (x0, x1))
        assert_close(g0, [[0, 1], [1.5, 0]], dtype)
        assert_close(g1, [[0, -1], [-1.5, 0]], dtype)
