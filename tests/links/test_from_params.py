"""from_params of Linear, EmbedID, Convolution2D and ConvolutionND: the
link holds the given arrays and computes with them."""
import numpy
import pytest

import chainer_core.functions as F
import chainer_core.links as L

from ._util import rand


def test_linear():
    W, b = rand((4, 3), 0, dtype=numpy.float32), rand(4, 1,
                                                      dtype=numpy.float32)
    link = L.Linear.from_params(W, b)
    assert (link.in_size, link.out_size) == (3, 4)
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, b)
    assert L.Linear.from_params(W, b, nobias=True).b is None
    with pytest.raises(ValueError, match='Linear.from_params: b must have 4'):
        L.Linear.from_params(W, numpy.zeros(5, numpy.float32))


def test_embed_id():
    W = rand((5, 3), 2, dtype=numpy.float32)
    link = L.EmbedID.from_params(W, ignore_label=-1)
    y = link(numpy.array([4, -1], numpy.int32)).array
    numpy.testing.assert_array_equal(y, [W[4], numpy.zeros(3)])


def test_convolution_2d():
    W = rand((4, 1, 2, 3), 3, dtype=numpy.float32)
    link = L.Convolution2D.from_params(W, stride=2, groups=2, dilate=1)
    assert link.W.shape == (4, 1, 2, 3) and link.groups == 2
    x = rand((1, 2, 5, 6), 4, dtype=numpy.float32)
    numpy.testing.assert_allclose(
        link(x).array,
        F.convolution_2d(x, W, numpy.zeros(4, numpy.float32), stride=2,
                         groups=2).array, rtol=1e-6)
    with pytest.raises(ValueError, match='Convolution2D.from_params'):
        L.Convolution2D.from_params(W, numpy.zeros(3, numpy.float32))


def test_convolution_nd():
    W = rand((4, 3, 2, 2, 2), 5, dtype=numpy.float32)
    link = L.ConvolutionND.from_params(W, nobias=True, cover_all=True)
    assert link.ndim == 3 and link.ksize == (2, 2, 2) and link.cover_all
    assert link.b is None
    numpy.testing.assert_array_equal(link.W.array, W)
