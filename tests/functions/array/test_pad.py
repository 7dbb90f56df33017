"""pad: NumPy's pad_width forms, constant values, the copying modes, and
gradients that sum over every copy of an element."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.arange(1, 7).reshape(2, 3).astype(dtype)


@dtype_param
class TestPad:

    @pytest.mark.parametrize('width', [1, (1,), (1, 2), ((1, 2),),
                                       ((0, 1), (2, 0)),
                                       numpy.array([[1, 0], [0, 2]])])
    def test_width_forms(self, dtype, width):
        y = F.pad(_x(dtype), width, 'constant')
        assert_close(y, numpy.pad(_x(numpy.float64), width, 'constant'),
                     dtype)

    def test_constant_values(self, dtype):
        y = F.pad(_x(dtype), ((1, 0), (0, 1)), 'constant',
                  constant_values=((-1, -2), (-3, -4)))
        assert_close(y, [[-1, -1, -1, -4], [1, 2, 3, -4], [4, 5, 6, -4]],
                     dtype)

    @pytest.mark.parametrize('mode', ['edge', 'reflect', 'symmetric', 'wrap'])
    def test_copying_modes(self, dtype, mode):
        y = F.pad(_x(dtype), ((1, 2), (3, 1)), mode)
        assert_close(y, numpy.pad(_x(numpy.float64), ((1, 2), (3, 1)), mode),
                     dtype)

    def test_constant_gradient_is_the_inner_part(self, dtype):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(20).reshape(4, 5).astype(dtype)
        gx, = grads(F.pad(x, 1, 'constant', constant_values=9), (x,), gy)
        assert_close(gx, gy[1:3, 1:4], dtype)

    def test_edge_gradient_sums_the_copies(self, dtype):
        x = chainer.Variable(numpy.array([1, 2, 3], dtype=dtype))
        gy = numpy.array([1, 2, 4, 8, 16, 32], dtype=dtype)
        # The padded array is [1, 1, 1, 2, 3, 3].
        gx, = grads(F.pad(x, (2, 1), 'edge'), (x,), gy)
        assert_close(gx, [7, 8, 48], dtype)

    def test_reflect_gradient(self, dtype):
        x = chainer.Variable(numpy.array([1, 2, 3], dtype=dtype))
        gy = numpy.array([1, 2, 4, 8, 16], dtype=dtype)
        # The padded array is [2, 1, 2, 3, 2].
        gx, = grads(F.pad(x, 1, 'reflect'), (x,), gy)
        assert_close(gx, [2, 1 + 4 + 16, 8], dtype)

    def test_double_backprop_of_a_copying_mode(self, dtype):
        x = chainer.Variable(numpy.array([1, 2, 3], dtype=dtype))
        gy = chainer.Variable(numpy.ones(6, dtype=dtype))
        gx, = chainer.grad([F.pad(x, (2, 1), 'wrap')], [x], [gy],
                           enable_double_backprop=True)
        ggx = numpy.array([1, 10, 100], dtype=dtype)
        ggy, = grads(gx, (gy,), ggx)
        # wrap pads [2, 3 | 1, 2, 3 | 1]: each gy position reads ggx there.
        assert_close(ggy, [10, 100, 1, 10, 100, 1], dtype)

    def test_only_constant_takes_constant_values(self, dtype):
        with pytest.raises(ValueError, match='constant_values'):
            F.pad(_x(dtype), 1, 'edge', constant_values=0)

    def test_unknown_keyword(self, dtype):
        with pytest.raises(TypeError, match='reflect_type'):
            F.pad(_x(dtype), 1, 'reflect', reflect_type='odd')
