"""chainer_core.utils.conv: output sizes, and im2col/col2im as adjoint
patch extraction and summation."""
import numpy
import pytest

from chainer_core.utils import conv
from chainer_core.utils import conv_nd


class TestConvUtils:

    @pytest.mark.parametrize('size, k, s, p, d', [
        (5, 3, 1, 0, 1), (7, 3, 2, 1, 1), (8, 2, 3, 0, 2), (6, 4, 2, 2, 1)])
    def test_deconv_outsize_inverts_conv_outsize(self, size, k, s, p, d):
        out = conv.get_deconv_outsize(size, k, s, p, d=d)
        assert conv.get_conv_outsize(out, k, s, p, d=d) == size
        out = conv.get_deconv_outsize(size, k, s, p, cover_all=True, d=d)
        assert conv.get_conv_outsize(out, k, s, p, cover_all=True,
                                     d=d) == size

    def test_outsize_values(self):
        assert conv.get_conv_outsize(5, 2, 2, 0) == 2
        assert conv.get_conv_outsize(5, 2, 2, 0, cover_all=True) == 3
        assert conv.get_conv_outsize(7, 3, 1, 0, d=2) == 3
        assert conv.get_deconv_outsize(3, 3, 2, 1) == 5

    def test_im2col_layout(self):
        img = numpy.arange(16.0).reshape(1, 1, 4, 4)
        col = conv.im2col(img, 2, 3, 2, 1, 1, 0, pval=-1)
        assert col.shape == (1, 1, 2, 3, 3, 2)
        # Tap (ky, kx) at output (i, j) reads pixel (2 i + ky - 1, j + kx).
        assert col[0, 0, 0, 2, 0, 1] == -1
        assert col[0, 0, 1, 2, 1, 0] == img[0, 0, 2, 2]
        assert col[0, 0, 0, 0, 2, 1] == img[0, 0, 3, 1]

    def test_im2col_cover_all_and_dilation(self):
        img = numpy.ones((1, 1, 5, 5))
        assert conv.im2col(img, 2, 2, 2, 2, 0, 0).shape[4:] == (2, 2)
        assert conv.im2col(img, 2, 2, 2, 2, 0, 0,
                           cover_all=True).shape[4:] == (3, 3)
        assert conv.im2col(img, 2, 2, 1, 1, 0, 0, dy=3,
                           dx=2).shape[4:] == (2, 3)

    @pytest.mark.parametrize('ksize, stride, pad, dilate', [
        ((3, 3), (1, 1), (1, 1), (1, 1)), ((2, 3), (2, 1), (0, 2), (2, 1)),
        ((3, 2, 2), (2, 1, 3), (1, 0, 1), (1, 2, 1))])
    def test_col2im_is_the_adjoint(self, ksize, stride, pad, dilate):
        rng = numpy.random.RandomState(0)
        dims = (6, 7, 5)[:len(ksize)]
        img = rng.randn(2, 3, *dims)
        col = conv_nd.im2col_nd(img, ksize, stride, pad, dilate=dilate)
        other = rng.randn(*col.shape)
        back = conv_nd.col2im_nd(other, stride, pad, dims, dilate=dilate)
        assert back.shape == img.shape
        numpy.testing.assert_allclose((col * other).sum(),
                                      (img * back).sum(), rtol=1e-12)

    def test_window_parameters_must_be_ints(self):
        with pytest.raises(TypeError, match='stride'):
            conv_nd.im2col_nd(numpy.ones((1, 1, 3)), 2, 1.5, 0)
