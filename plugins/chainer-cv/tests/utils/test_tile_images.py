import numpy
import pytest

from chainer_cv.utils import tile_images


class TestTileImages:

    @pytest.mark.parametrize('B,n_col,pad,shape', [
        (5, 2, 2, (3, 36, 44)), (5, 10, 0, (3, 10, 100)),
        (4, 2, (1, 3), (3, 22, 46)), (1, 3, 2, (3, 12, 22))])
    def test_shape_and_placement(self, B, n_col, pad, shape):
        imgs = numpy.arange(1, B + 1, dtype=numpy.float32)[:, None, None,
                                                          None] * \
            numpy.ones((B, 3, 10, 20), numpy.float32)
        tile = tile_images(imgs, n_col, pad=pad, fill=-1)
        assert tile.shape == shape
        y_pad, x_pad = (pad, pad) if numpy.isscalar(pad) else pad
        n_col = min(n_col, B)
        for i in range(B):
            r, c = divmod(i, n_col)
            y = r * (10 + y_pad) + y_pad // 2
            x = c * (20 + x_pad) + x_pad // 2
            assert (tile[:, y:y + 10, x:x + 20] == i + 1).all()
        assert (tile == -1).sum() == tile.size - B * 3 * 10 * 20

    def test_per_channel_fill(self):
        tile = tile_images(numpy.zeros((1, 3, 2, 2), numpy.float32), 1, pad=2,
                           fill=(1, 2, 3))
        assert tile[:, 0, 0].tolist() == [1, 2, 3]

    def test_bad_input(self):
        with pytest.raises(ValueError, match=r'tile_images: imgs\[0\] .*HWC'):
            tile_images(numpy.zeros((2, 8, 8, 3), numpy.float32), 2)
        with pytest.raises(ValueError, match='at least one image'):
            tile_images(numpy.zeros((0, 3, 8, 8), numpy.float32), 2)
