"""split_axis: sections and indices as numpy.split does, force_tuple, and
gradients where some pieces are unused (zeros) or all are."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(12).reshape(2, 6).astype(dtype)


@dtype_param
class TestSplitAxis:

    @pytest.mark.parametrize('spec, widths', [
        (3, [2, 2, 2]),
        ([1, 4], [1, 3, 2]),
        ([0, 6], [0, 6, 0]),
        ([2, 2], [2, 0, 4]),
        ([-2], [4, 2]),
        ([3, 100], [3, 3, 0]),
        ([], [6]),
    ])
    def test_pieces_as_numpy_split(self, dtype, spec, widths):
        ys = F.split_axis(_x(dtype), spec, 1)
        assert isinstance(ys, tuple)
        assert [y.shape[1] for y in ys] == widths
        for y, ref in zip(ys, numpy.split(_x(dtype), spec, 1)):
            assert_close(y, ref, dtype)

    def test_numpy_array_of_indices(self, dtype):
        ys = F.split_axis(_x(dtype), numpy.array([2, 5]), 1)
        assert [y.shape[1] for y in ys] == [2, 3, 1]

    def test_force_tuple(self, dtype):
        y = F.split_axis(_x(dtype), 1, 0, force_tuple=False)
        assert isinstance(y, chainer.Variable)
        assert isinstance(F.split_axis(_x(dtype), 1, 0), tuple)
        assert isinstance(F.split_axis(_x(dtype), 2, 0, force_tuple=False),
                          tuple)

    def test_unused_pieces_have_zero_gradient(self, dtype):
        x = chainer.Variable(_x(dtype))
        ys = F.split_axis(x, [1, 4], 1)
        gy = numpy.arange(6).reshape(2, 3).astype(dtype)
        gx, = grads(ys[1], (x,), gy)
        expected = numpy.zeros((2, 6))
        expected[:, 1:4] = gy
        assert_close(gx, expected, dtype)

    def test_gradients_of_all_pieces(self, dtype):
        x = chainer.Variable(_x(dtype))
        a, b = F.split_axis(x, 2, 0)
        ga = numpy.full((1, 6), 2, dtype=dtype)
        gb = numpy.full((1, 6), 3, dtype=dtype)
        gx, = chainer.grad([a, b], [x], [ga, gb])
        assert_close(gx.array, [[2] * 6, [3] * 6], dtype)

    def test_double_backprop_with_unused_piece(self, dtype):
        x = chainer.Variable(_x(dtype))
        _, b = F.split_axis(x, [2], 1)
        gy = chainer.Variable(numpy.ones(b.shape, dtype=dtype))
        gx, = chainer.grad([b], [x], [gy], enable_double_backprop=True)
        ggx = numpy.arange(12).reshape(2, 6).astype(dtype)
        ggy, = grads(gx, (gy,), ggx)
        assert_close(ggy, ggx[:, 2:], dtype)

    def test_sections_must_divide(self, dtype):
        with pytest.raises(TypeError, match='sections'):
            F.split_axis(_x(dtype), 4, 1)
