"""repeat: one count or one per element, along an axis or over the
flattened input, and gradients summed over the copies."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(6).reshape(2, 3).astype(dtype)


@dtype_param
class TestRepeat:

    @pytest.mark.parametrize('repeats, axis', [
        (2, None), (2, 0), (3, -1), ((1, 0, 2), 1), ([2, 1], 0),
        ((1, 2, 0, 0, 1, 3), None), (0, 1), ((2,), 1),
    ])
    def test_values(self, dtype, repeats, axis):
        assert_close(F.repeat(_x(dtype), repeats, axis),
                     numpy.repeat(_x(numpy.float64), repeats, axis), dtype)

    def test_uniform_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(12).reshape(2, 6).astype(dtype)
        gx, = grads(F.repeat(x, 2, 1), (x,), gy)
        assert_close(gx, gy[:, ::2] + gy[:, 1::2], dtype)

    def test_per_element_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(8).reshape(2, 4).astype(dtype)
        gx, = grads(F.repeat(x, (3, 0, 1), 1), (x,), gy)
        assert_close(gx, numpy.stack([gy[:, :3].sum(axis=1),
                                      numpy.zeros(2), gy[:, 3]], axis=1),
                     dtype)

    def test_flat_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(12).astype(dtype)
        gx, = grads(F.repeat(x, 2), (x,), gy)
        assert_close(gx, (gy[::2] + gy[1::2]).reshape(2, 3), dtype)

    def test_double_backprop(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = chainer.Variable(numpy.ones((2, 4), dtype=dtype))
        gx, = chainer.grad([F.repeat(x, (2, 1, 1), 1)], [x], [gy],
                           enable_double_backprop=True)
        ggx = numpy.arange(6).reshape(2, 3).astype(dtype)
        ggy, = grads(gx, (gy,), ggx)
        assert_close(ggy, numpy.repeat(ggx, (2, 1, 1), 1), dtype)

    def test_repeats_type(self, dtype):
        with pytest.raises(TypeError, match='repeat: repeats'):
            F.repeat(_x(dtype), 1.5)
