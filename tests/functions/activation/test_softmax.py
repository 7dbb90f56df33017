"""softmax: normalised along axis 1 by default, shift invariant, finite
for large inputs."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


def _x(dtype):
    return numpy.random.RandomState(0).uniform(-2, 2, (2, 3, 4)).astype(
        dtype)


@dtype_param
class TestSoftmax:

    def test_default_axis_is_1(self, dtype):
        y = F.softmax(_x(dtype))
        assert y.shape == (2, 3, 4)
        assert y.dtype == dtype
        assert_close(y.array.astype('f8').sum(axis=1), numpy.ones((2, 4)),
                     dtype)

    @pytest.mark.parametrize('axis', [0, 2, -1])
    def test_axis(self, dtype, axis):
        y = F.softmax(_x(dtype), axis=axis)
        shape = list(y.shape)
        del shape[axis]
        assert_close(y.array.astype('f8').sum(axis=axis), numpy.ones(shape),
                     dtype)

    def test_shift_invariant_and_finite(self, dtype):
        # The shift overflows exp in every dtype but keeps x's steps exact.
        x = typed([[1, 2, 3]], dtype)
        big = x + typed(1e4 if dtype != numpy.float16 else 1024, dtype)
        with numpy.errstate(over='raise', invalid='raise'):
            assert_close(F.softmax(big), F.softmax(x).array, dtype)

    def test_gradient_of_the_sum_is_zero(self, dtype):
        x = chainer.Variable(_x(dtype))
        gx, = grads(F.softmax(x), (x,))
        assert_close(gx, numpy.zeros(x.shape), dtype)
