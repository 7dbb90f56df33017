"""floor: the largest integer not above each element; the dtype is kept
(integers too), and the output is outside the graph, as in Chainer."""
import numpy
import pytest

import chainer_core.functions as F

from . import check_outside_graph
from .. import DTYPES, assert_close, typed

dtype_param = pytest.mark.parametrize('dtype', DTYPES)
VALUES = [-2.5, -1.0, -0.25, 0.0, 0.75, 2.0, 3.5]


@dtype_param
class TestFloor:

    def test_values(self, dtype):
        y = F.floor(typed(VALUES, dtype))
        assert y.dtype == dtype
        assert_close(y, [-3, -1, -1, 0, 0, 2, 3], dtype)

    def test_outside_the_graph(self, dtype):
        check_outside_graph(F.floor, VALUES, dtype)


def test_integer_input_keeps_its_dtype():
    x = numpy.array([-2, 0, 3], dtype=numpy.int32)
    y = F.floor(x)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, x)


def test_0dim_input_gives_an_array():
    y = F.floor(numpy.array(1.5))
    assert type(y.array) is numpy.ndarray and y.shape == ()
