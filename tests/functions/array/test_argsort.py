"""argsort: int64 indices that are not differentiable, and a stable order
of equal elements in both directions."""
import numpy
import pytest

import chainer_core.functions as F

from .. import DTYPES

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestArgsort:

    def test_indices(self, dtype):
        x = numpy.array([[3, 1, 2], [0, 5, 4]], dtype=dtype)
        i = F.argsort(x)
        assert i.dtype == numpy.int64
        assert not i.requires_grad
        numpy.testing.assert_array_equal(i.array, [[1, 2, 0], [0, 2, 1]])

    @pytest.mark.parametrize('descending, expected', [
        (False, [1, 3, 4, 0, 2]),
        (True, [0, 2, 1, 3, 4]),
    ])
    def test_stable_for_ties(self, dtype, descending, expected):
        x = numpy.array([2, 1, 2, 1, 1], dtype=dtype)
        i = F.argsort(x, descending=descending)
        numpy.testing.assert_array_equal(i.array, expected)

    def test_axis(self, dtype):
        x = numpy.array([[3, 1], [0, 5]], dtype=dtype)
        numpy.testing.assert_array_equal(F.argsort(x, 0).array,
                                         [[1, 0], [0, 1]])

    def test_axis_out_of_range(self, dtype):
        with pytest.raises(ValueError, match='argsort: axis'):
            F.argsort(numpy.zeros((2, 3), dtype=dtype), -3)
