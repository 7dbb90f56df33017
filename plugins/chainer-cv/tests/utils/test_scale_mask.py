import numpy
import PIL.Image
import pytest

from chainer_cv.transforms import resize
from chainer_cv.utils import mask_to_bbox, scale_mask


class TestScaleMask:

    @pytest.mark.parametrize('shape,size,out_shape', [
        ((8, 16), 16, (16, 32)), ((16, 8), 4, (8, 4)), ((10, 10), 5, (5, 5))])
    def test_matches_full_resize(self, shape, size, out_shape):
        mask = numpy.zeros((3,) + shape, bool)
        mask[0, 2:6, 2:6] = True
        mask[1, :, :4] = True
        out = scale_mask(mask, mask_to_bbox(mask), size)
        assert out.shape == (3,) + out_shape and out.dtype == numpy.bool_
        expected = resize(mask.astype(numpy.float32), out_shape,
                          PIL.Image.NEAREST) > 0.5
        numpy.testing.assert_array_equal(out, expected)
        assert not out[2].any()
