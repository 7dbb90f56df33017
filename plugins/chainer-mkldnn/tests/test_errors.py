"""oneDNN's failures become Python exceptions naming the op, never a
crash."""
import numpy
import pytest

import chainer_mkldnn


@pytest.fixture
def lib(device):
    return chainer_mkldnn._native.lib()


def test_inconsistent_shapes_raise_naming_the_op(lib):
    x = numpy.zeros((2, 3, 8, 8), numpy.float32)
    W = numpy.zeros((4, 3, 3, 3), numpy.float32)
    y = numpy.zeros((2, 4, 5, 5), numpy.float32)   # should be 6 x 6
    with pytest.raises(chainer_mkldnn.MkldnnError) as info:
        lib.conv_forward('convolution_2d', x, W, None, y, [1, 1], [0, 0],
                         [0, 0], [0, 0], 1)
    assert str(info.value).startswith('convolution_2d: ')
    assert 'oneDNN' in str(info.value)
    assert isinstance(info.value, RuntimeError)


def test_bad_pooling_raises_naming_the_op(lib):
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    y = numpy.zeros((1, 1, 9, 9), numpy.float32)
    with pytest.raises(chainer_mkldnn.MkldnnError, match='^max_pooling_2d: '):
        lib.pool_forward('max_pooling_2d', 0, x, y, None, [2, 2], [2, 2],
                         [0, 0], [0, 0])


def test_wrong_arrays_are_type_errors(lib):
    x = numpy.zeros((2, 3), numpy.float64)
    y = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(TypeError, match='^relu: x must be float32'):
        lib.eltwise_forward('relu', 0, x, y, 0.0, 0.0)
    with pytest.raises(TypeError, match='^relu: x must be a NumPy array'):
        lib.eltwise_forward('relu', 0, [1.0], y, 0.0, 0.0)
    with pytest.raises(ValueError, match='^relu: x must be C-contiguous'):
        lib.eltwise_forward('relu', 0, numpy.zeros((3, 2), numpy.float32).T,
                            y, 0.0, 0.0)
    y.flags.writeable = False
    with pytest.raises(ValueError, match='^relu: y must be writeable'):
        lib.eltwise_forward('relu', 0, y, y, 0.0, 0.0)


def test_process_survives_and_kernels_still_work(lib, device):
    test_inconsistent_shapes_raise_naming_the_op(lib)
    x = numpy.ones((2, 3), numpy.float32)
    y = numpy.empty_like(x)
    lib.eltwise_forward('relu', 0, x, y, 0.0, 0.0)
    numpy.testing.assert_array_equal(y, x)
