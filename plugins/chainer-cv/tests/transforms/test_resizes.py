import numpy
import PIL.Image
import pytest

from chainer_cv import transforms

from ._helpers import random_image

_FILTERS = [PIL.Image.NEAREST, PIL.Image.BILINEAR, PIL.Image.BICUBIC,
            PIL.Image.LANCZOS]


class TestResize:

    @pytest.mark.parametrize('interpolation', _FILTERS)
    @pytest.mark.parametrize('size', [(12, 16), (48, 64), (24, 32), (7, 50)])
    @pytest.mark.parametrize('dtype', [numpy.float32, numpy.uint8])
    def test_shape_and_dtype(self, interpolation, size, dtype):
        img = random_image().astype(dtype)
        out = transforms.resize(img, size, interpolation)
        assert out.shape == (3,) + size and out.dtype == dtype

    def test_constant_image_stays(self):
        img = numpy.full((2, 5, 7), 42, numpy.float32)
        numpy.testing.assert_allclose(transforms.resize(img, (11, 13)), 42,
                                      rtol=1e-5)

    def test_same_size_is_identity(self):
        img = random_image()
        numpy.testing.assert_allclose(transforms.resize(img, (24, 32)), img,
                                      rtol=1e-5)

    def test_nearest_upscale_repeats(self):
        img = random_image((1, 3, 4))
        out = transforms.resize(img, (6, 8), PIL.Image.NEAREST)
        numpy.testing.assert_array_equal(out, img.repeat(2, 1).repeat(2, 2))

    def test_masks(self):
        mask = numpy.zeros((2, 4, 4), bool)
        mask[0, :2] = True
        out = transforms.resize(mask, (8, 8), PIL.Image.NEAREST)
        assert out.dtype == numpy.bool_ and out[0, :4].all()
        assert not out[0, 4:].any()

    def test_bad_interpolation(self):
        with pytest.raises(ValueError, match='resize: interpolation'):
            transforms.resize(random_image(), (4, 4), 'bilinear')


class TestScale:

    @pytest.mark.parametrize('shape,size,fit_short,expected', [
        ((3, 20, 40), 10, True, (10, 20)), ((3, 40, 20), 10, True, (20, 10)),
        ((3, 20, 40), 10, False, (5, 10)), ((3, 40, 20), 10, False, (10, 5)),
        ((3, 30, 30), 15, True, (15, 15)), ((3, 21, 40), 10, True, (10, 19))])
    def test_size(self, shape, size, fit_short, expected):
        out = transforms.scale(random_image(shape), size, fit_short)
        assert out.shape[1:] == expected

    def test_already_scaled(self):
        img = random_image((3, 10, 20))
        assert transforms.scale(img, 10) is img


class TestResizeContain:

    @pytest.mark.parametrize('shape,size,y,x,scaled', [
        ((3, 20, 40), (32, 32), 8, 0, (16, 32)),
        ((3, 10, 10), (32, 40), 11, 15, (10, 10)),
        ((3, 40, 20), (20, 20), 0, 5, (20, 10)),
        ((3, 16, 16), (16, 16), 0, 0, (16, 16))])
    def test_param(self, shape, size, y, x, scaled):
        img = random_image(shape)
        out, param = transforms.resize_contain(img, size, fill=-1,
                                               return_param=True)
        assert out.shape == (3,) + size
        assert param == {'y_offset': y, 'x_offset': x, 'scaled_size': scaled}
        placed = out[:, y:y + scaled[0], x:x + scaled[1]]
        if scaled == shape[1:]:
            numpy.testing.assert_array_equal(placed, img)
        else:
            numpy.testing.assert_allclose(
                placed, transforms.resize(img, scaled), rtol=1e-5)
        assert (out == -1).sum() == out.size - placed.size

    def test_per_channel_fill(self):
        out = transforms.resize_contain(numpy.zeros((3, 2, 2), numpy.float32),
                                        (4, 4), fill=(1, 2, 3))
        assert out[:, 0, 0].tolist() == [1, 2, 3]
