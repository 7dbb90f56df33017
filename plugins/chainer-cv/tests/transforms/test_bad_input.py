"""Every transform rejects a wrongly laid out argument with a message naming
the function, the argument, what was expected and what was given."""
import numpy
import pytest

from chainer_cv import transforms

_IMAGE_TRANSFORMS = [
    ('center_crop', lambda img: transforms.center_crop(img, (2, 2))),
    ('flip', lambda img: transforms.flip(img, x_flip=True)),
    ('pca_lighting', lambda img: transforms.pca_lighting(img, 1)),
    ('random_crop', lambda img: transforms.random_crop(img, (2, 2))),
    ('random_expand', lambda img: transforms.random_expand(img)),
    ('random_flip', lambda img: transforms.random_flip(img, x_random=True)),
    ('random_rotate', lambda img: transforms.random_rotate(img)),
    ('random_sized_crop', lambda img: transforms.random_sized_crop(img)),
    ('resize', lambda img: transforms.resize(img, (4, 4))),
    ('resize_contain', lambda img: transforms.resize_contain(img, (4, 4))),
    ('rotate', lambda img: transforms.rotate(img, 30)),
    ('scale', lambda img: transforms.scale(img, 4)),
    ('ten_crop', lambda img: transforms.ten_crop(img, (2, 2))),
    ('random_transform', lambda img: transforms.random_transform(img)),
]

_BBOX_TRANSFORMS = [
    ('crop_bbox', lambda b: transforms.crop_bbox(b, slice(0, 4))),
    ('flip_bbox', lambda b: transforms.flip_bbox(b, (8, 8), x_flip=True)),
    ('resize_bbox', lambda b: transforms.resize_bbox(b, (8, 8), (4, 4))),
    ('rotate_bbox', lambda b: transforms.rotate_bbox(b, 90, (8, 8))),
    ('translate_bbox', lambda b: transforms.translate_bbox(b, 1, 1)),
]


class TestImageLayout:

    @pytest.mark.parametrize('name,call', _IMAGE_TRANSFORMS)
    @pytest.mark.parametrize('shape', [(8, 10, 3), (8, 10, 4), (16, 16, 3)])
    def test_hwc(self, name, call, shape):
        with pytest.raises(ValueError, match=r'{}: img must be CHW .*got '
                           r'shape \({}, {}, {}\).*looks HWC'.format(
                               name, *shape)):
            call(numpy.zeros(shape, numpy.float32))

    @pytest.mark.parametrize('name,call', _IMAGE_TRANSFORMS)
    def test_grayscale_without_channel_axis(self, name, call):
        with pytest.raises(ValueError, match=r'{}: img must be a CHW array; '
                           r'got a 2-D array of shape \(8, 10\).*\(1, H, W\)'
                           .format(name)):
            call(numpy.zeros((8, 10), numpy.float32))

    @pytest.mark.parametrize('name,call', _IMAGE_TRANSFORMS)
    @pytest.mark.parametrize('C', [1, 3])
    def test_chw_accepted(self, name, call, C):
        if name == 'pca_lighting' and C == 1:
            return
        call(numpy.zeros((C, 8, 3), numpy.float32))


class TestBBoxLayout:

    @pytest.mark.parametrize('name,call', _BBOX_TRANSFORMS)
    @pytest.mark.parametrize('shape', [(3, 5), (4,), (2, 2, 4)])
    def test_last_axis(self, name, call, shape):
        with pytest.raises(ValueError, match=r'{}: bbox must have shape '
                           r'\(R, 4\).*got shape'.format(name)):
            call(numpy.zeros(shape, numpy.float32))

    @pytest.mark.parametrize('name,call', _BBOX_TRANSFORMS)
    @pytest.mark.parametrize('box', [[5, 0, 2, 4], [0, 5, 4, 2]])
    def test_inverted(self, name, call, box):
        bbox = numpy.array([[0, 0, 1, 1], box], numpy.float32)
        with pytest.raises(ValueError, match=r'{}: bbox must satisfy y_min '
                           r'<= y_max and x_min <= x_max; boxes \[1\]'
                           .format(name)):
            call(bbox)

    @pytest.mark.parametrize('name,call', _BBOX_TRANSFORMS)
    def test_empty_accepted(self, name, call):
        assert call(numpy.zeros((0, 4), numpy.float32)).shape == (0, 4)
