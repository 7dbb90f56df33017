"""binary_accuracy: Chainer v7's example values, predictions y >= 0
(0 counts as positive), -1 labels left out, 0 when all are ignored, and a
0-dim result of y's dtype."""
import numpy
import pytest

import chainer_core.functions as F

from .. import DTYPES, assert_close, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)

Y = [[-2.0, 0.0], [3.0, -5.0]]     # predictions [[0, 1], [1, 0]]


def _t(values):
    return numpy.array(values, dtype=numpy.int32)


@dtype_param
class TestBinaryAccuracy:

    def test_all_correct(self, dtype):
        acc = F.binary_accuracy(typed(Y, dtype), _t([[0, 1], [1, 0]]))
        assert acc.shape == () and acc.dtype == dtype
        assert_close(acc, 1, dtype)

    def test_half_correct(self, dtype):
        assert_close(F.binary_accuracy(typed(Y, dtype), _t([[0, 0], [1, 1]])),
                     0.5, dtype)

    def test_ignored_labels(self, dtype):
        acc = F.binary_accuracy(typed(Y, dtype), _t([[0, -1], [1, -1]]))
        assert_close(acc, 1, dtype)
        acc = F.binary_accuracy(typed(Y, dtype), _t([[1, -1], [1, -1]]))
        assert_close(acc, 0.5, dtype)

    def test_all_ignored_gives_zero(self, dtype):
        acc = F.binary_accuracy(typed(Y, dtype), _t([[-1, -1], [-1, -1]]))
        assert_close(acc, 0, dtype)

    def test_1d(self, dtype):
        acc = F.binary_accuracy(typed([1, -1, 2], dtype), _t([1, 1, 1]))
        assert_close(acc, 2 / 3, dtype)
