"""unpooling_nd: unpooling along any number of spatial axes; agrees with
unpooling_2d on 2-D input."""
import numpy
import pytest

import chainer_core as chainer
import chainer_core.functions as F

from .. import DTYPES, assert_close, grads

dtype_param = pytest.mark.parametrize('dtype', DTYPES)


@dtype_param
class TestUnpoolingND:

    def test_1d(self, dtype):
        x = numpy.array([[[1, 2, 3]]], dtype)
        assert_close(F.unpooling_nd(x, 2, cover_all=False),
                     [[[1, 1, 2, 2, 3, 3]]], dtype)
        assert_close(F.unpooling_nd(x, 2), [[[1, 1, 2, 2, 3]]], dtype)

    def test_2d_agrees_with_unpooling_2d(self, dtype):
        x = numpy.random.RandomState(0).uniform(
            -1, 1, (2, 3, 3, 2)).astype(dtype)
        kw = dict(ksize=(3, 2), stride=(2, 1), pad=(1, 0))
        assert_close(F.unpooling_nd(x, **kw), F.unpooling_2d(x, **kw).array,
                     dtype)

    def test_3d_shape(self, dtype):
        y = F.unpooling_nd(numpy.zeros((1, 1, 2, 3, 4), dtype), (2, 3, 1),
                           cover_all=False)
        assert y.shape == (1, 1, 4, 9, 4)

    def test_gradient(self, dtype):
        x = chainer.Variable(numpy.ones((1, 1, 2, 2, 2), dtype))
        gx, = grads(F.unpooling_nd(x, 2, cover_all=False), (x,))
        assert_close(gx, numpy.full((1, 1, 2, 2, 2), 8), dtype)
