"""permutate: the permutation and its inverse along any axis, indices as
a Variable, and the gradient through the inverse."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

_I = numpy.array([2, 0, 3, 1], dtype=numpy.int32)


def _x(dtype):
    return numpy.arange(8).reshape(4, 2).astype(dtype)


@dtype_param
class TestPermutate:

    def test_permutation(self, dtype):
        assert_close(F.permutate(_x(dtype), _I), _x(dtype)[_I], dtype)

    def test_inverse(self, dtype):
        y = F.permutate(_x(dtype), _I, inv=True)
        assert_close(y.array[_I], _x(dtype), dtype)

    def test_axis_and_variable_indices(self, dtype):
        x = _x(dtype).T
        y = F.permutate(x, chainer.Variable(_I), axis=1)
        assert_close(y, x[:, _I], dtype)

    @pytest.mark.parametrize('inv', [False, True])
    def test_gradient(self, dtype, inv):
        x = chainer.Variable(_x(dtype))
        gy = numpy.arange(8).reshape(4, 2).astype(dtype) * 3
        gx, = grads(F.permutate(x, _I, inv=inv), (x,), gy)
        expected = numpy.empty((4, 2))
        if inv:
            expected = gy[_I]
        else:
            expected[_I] = gy
        assert_close(gx, expected, dtype)

    def test_not_a_permutation(self, dtype):
        with pytest.raises(ValueError, match='permutate: indices'):
            F.permutate(_x(dtype), numpy.array([0, 1, 1, 3], numpy.int32))

    def test_empty(self, dtype):
        y = F.permutate(numpy.zeros((0, 2), dtype=dtype),
                        numpy.zeros(0, dtype=numpy.int32))
        assert y.shape == (0, 2)
