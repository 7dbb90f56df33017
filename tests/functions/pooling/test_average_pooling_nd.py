"""average_pooling_nd: pad_value 0 (padding averaged in as zeros) or None
(padding left out of each mean), any number of spatial axes."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestAveragePoolingND:

    def test_pad_value_none_averages_the_inside_only(self, dtype):
        x = numpy.ones((1, 1, 3, 3), dtype)
        y = F.average_pooling_nd(x, 3, 1, 1, pad_value=None)
        assert_close(y, numpy.ones((1, 1, 3, 3)), dtype)
        y0 = F.average_pooling_nd(x, 3, 1, 1)
        assert_close(y0[0, 0, 0, 0], 4 / 9, dtype)

    def test_1d(self, dtype):
        x = numpy.array([[[1, 2, 3, 4, 5]]], dtype)
        assert_close(F.average_pooling_nd(x, 2, 2, 1, pad_value=None),
                     [[[1, 2.5, 4.5]]], dtype)
        assert_close(F.average_pooling_nd(x, 2, 2, 1), [[[0.5, 2.5, 4.5]]],
                     dtype)

    def test_2d_agrees_with_average_pooling_2d(self, dtype):
        x = numpy.random.RandomState(0).uniform(
            -1, 1, (2, 3, 5, 6)).astype(dtype)
        assert_close(F.average_pooling_nd(x, (3, 2), (2, 1), (1, 1)),
                     F.average_pooling_2d(x, (3, 2), (2, 1), (1, 1)).array,
                     dtype)

    def test_3d(self, dtype):
        x = numpy.arange(8, dtype=dtype).reshape(1, 1, 2, 2, 2)
        assert_close(F.average_pooling_nd(x, 2), [[[[[3.5]]]]], dtype)

    def test_pad_value_must_be_0_or_none(self, dtype):
        with pytest.raises(ValueError, match='pad_value'):
            F.average_pooling_nd(numpy.ones((1, 1, 3), dtype), 2,
                                 pad_value=1)

    def test_gradient_with_pad_value_none(self, dtype):
        x = chainer.Variable(numpy.ones((1, 1, 3), dtype))
        gx, = grads(F.average_pooling_nd(x, 2, 2, 1, pad_value=None), (x,))
        # Windows: [pad, x0] (1 pixel inside), [x1, x2] (2 pixels).
        assert_close(gx[0, 0], [1, 0.5, 0.5], dtype)

    def test_double_backprop_with_pad_value_none(self, dtype):
        x = chainer.Variable(numpy.ones((1, 1, 3), dtype))
        gy = chainer.Variable(numpy.ones((1, 1, 2), dtype))
        gx, = chainer.grad(
            [F.average_pooling_nd(x, 2, 2, 1, pad_value=None)], [x], [gy],
            enable_double_backprop=True)
        ggy, = chainer.grad([gx], [gy],
                            [numpy.array([[[2, 4, 6]]], dtype)])
        assert_close(ggy, [[[2, 5]]], dtype)
