"""separate: slices without the axis, and gradients where some outputs are
unused (zeros)."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(24).reshape(2, 3, 4).astype(dtype)


@dtype_param
class TestSeparate:

    @pytest.mark.parametrize('axis', [0, 1, 2, -1])
    def test_slices(self, dtype, axis):
        ys = F.separate(_x(dtype), axis)
        assert isinstance(ys, tuple)
        assert len(ys) == _x(dtype).shape[axis]
        for i, y in enumerate(ys):
            assert_close(y, numpy.take(_x(dtype), i, axis=axis), dtype)

    def test_default_axis_is_0(self, dtype):
        assert [y.shape for y in F.separate(_x(dtype))] == [(3, 4)] * 2

    def test_unused_outputs_have_zero_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        ys = F.separate(x, 1)
        gy = numpy.arange(8).reshape(2, 4).astype(dtype)
        gx, = grads(ys[2], (x,), gy)
        expected = numpy.zeros((2, 3, 4))
        expected[:, 2] = gy
        assert_close(gx, expected, dtype)

    def test_1d_gives_0dim_outputs(self, dtype):
        ys = F.separate(numpy.arange(3).astype(dtype))
        assert [y.shape for y in ys] == [(), (), ()]
