"""as_strided: strides and offset in elements over the C-order elements,
overlapping reads whose gradients add up, and a result that does not
alias the input."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestAsStrided:

    def test_sliding_windows(self, dtype):
        x = numpy.arange(4).astype(dtype)
        y = F.as_strided(x, (3, 2), (1, 1), 0)
        assert_close(y, [[0, 1], [1, 2], [2, 3]], dtype)

    def test_offset_and_c_order_of_a_transposed_input(self, dtype):
        x = numpy.arange(6).reshape(2, 3).astype(dtype).T
        # x in C order is [0, 3, 1, 4, 2, 5].
        y = F.as_strided(x, (2,), (2,), 1)
        assert_close(y, [3, 4], dtype)

    def test_overlapping_reads_sum_gradients(self, dtype):
        x = chainer.Variable(numpy.arange(4).astype(dtype))
        gx, = grads(F.as_strided(x, (3, 2), (1, 1)), (x,))
        assert_close(gx, [1, 2, 2, 1], dtype)

    def test_zero_stride_broadcasts(self, dtype):
        x = chainer.Variable(numpy.arange(3).astype(dtype))
        y = F.as_strided(x, (4, 3), (0, 1))
        assert_close(y, numpy.tile(numpy.arange(3), (4, 1)), dtype)
        gx, = grads(y, (x,))
        assert_close(gx, [4, 4, 4], dtype)

    def test_output_does_not_alias(self, dtype):
        x = numpy.arange(4).astype(dtype)
        y = F.as_strided(x, (2,), (1,))
        y.array[0] = 7
        assert x[0] == 0

    def test_double_backprop(self, dtype):
        x = chainer.Variable(numpy.arange(4).astype(dtype))
        gy = chainer.Variable(numpy.ones((3, 2), dtype=dtype))
        gx, = chainer.grad([F.as_strided(x, (3, 2), (1, 1))], [x], [gy],
                           enable_double_backprop=True)
        ggy, = grads(gx, (gy,), numpy.array([1, 10, 100, 1000],
                                            dtype=dtype))
        assert_close(ggy, [[1, 10], [10, 100], [100, 1000]], dtype)

    def test_read_past_the_end(self, dtype):
        with pytest.raises(TypeError, match='strides'):
            F.as_strided(numpy.arange(4).astype(dtype), (3,), (2,))
