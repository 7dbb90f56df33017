import numpy
import pytest

from chainer_cv import transforms

from ._helpers import (assert_inside, box_of_pixels, pixel_box, random_bbox,
                       random_image)


class TestCropBBox:

    @pytest.mark.parametrize('y_slice,x_slice', [
        (slice(0, 24), slice(0, 32)), (slice(5, 15), slice(3, 30)),
        (None, slice(10, 20)), (slice(12, None), None)])
    @pytest.mark.parametrize('allow_outside_center', [True, False])
    def test_inside_crop(self, y_slice, x_slice, allow_outside_center):
        bbox = random_bbox(n=30)
        img = random_image()
        crop = img[:, y_slice or slice(None), x_slice or slice(None)]
        out, param = transforms.crop_bbox(bbox, y_slice, x_slice,
                                          allow_outside_center,
                                          return_param=True)
        assert set(param) == {'index'}
        assert len(out) == len(param['index'])
        assert_inside(out, crop.shape[1:])
        assert (out[:, :2] < out[:, 2:]).all()
        y0 = 0 if y_slice is None else y_slice.start
        x0 = 0 if x_slice is None else x_slice.start
        for box, i in zip(out, param['index']):
            original = bbox[i] - (y0, x0, y0, x0)
            assert (box[:2] >= original[:2] - 1e-5).all()
            assert (box[2:] <= original[2:] + 1e-5).all()

    def test_known_values(self):
        bbox = numpy.array([[0, 0, 10, 10], [20, 20, 30, 30], [0, 0, 4, 30],
                            [2, 12, 9, 30]], numpy.float32)
        out, param = transforms.crop_bbox(bbox, slice(5, 15), slice(0, 15),
                                          return_param=True)
        numpy.testing.assert_array_equal(out, [[0, 0, 5, 10], [0, 12, 4, 15]])
        assert param['index'].tolist() == [0, 3]
        out, param = transforms.crop_bbox(bbox, slice(5, 15), slice(0, 15),
                                          allow_outside_center=False,
                                          return_param=True)
        assert param['index'].tolist() == [0]

    def test_keeps_labels_aligned(self):
        bbox = random_bbox(n=20)
        label = numpy.arange(20)
        out, param = transforms.crop_bbox(bbox, slice(4, 14), slice(6, 20),
                                          return_param=True)
        assert label[param['index']].tolist() == param['index'].tolist()


class TestFlipBBox:

    @pytest.mark.parametrize('y_flip', [False, True])
    @pytest.mark.parametrize('x_flip', [False, True])
    @pytest.mark.parametrize('y,x', [(0, 0), (4, 9), (5, 10)])
    def test_follows_the_image(self, y_flip, x_flip, y, x):
        img, bbox = pixel_box((6, 11), y, x)
        out = transforms.flip_bbox(bbox, (6, 11), y_flip, x_flip)
        numpy.testing.assert_array_equal(
            out, box_of_pixels(transforms.flip(img, y_flip, x_flip)))

    @pytest.mark.parametrize('y_flip', [False, True])
    @pytest.mark.parametrize('x_flip', [False, True])
    def test_twice_is_identity(self, y_flip, x_flip):
        bbox = random_bbox()
        out = transforms.flip_bbox(bbox, (24, 32), y_flip, x_flip)
        assert_inside(out, (24, 32))
        numpy.testing.assert_allclose(
            transforms.flip_bbox(out, (24, 32), y_flip, x_flip), bbox,
            atol=1e-5)


class TestResizeBBox:

    @pytest.mark.parametrize('out_size', [(12, 16), (48, 64), (24, 8)])
    def test_inside_and_round_trip(self, out_size):
        bbox = random_bbox()
        out = transforms.resize_bbox(bbox, (24, 32), out_size)
        assert out.dtype == numpy.float32
        assert_inside(out, out_size)
        numpy.testing.assert_allclose(
            transforms.resize_bbox(out, out_size, (24, 32)), bbox, rtol=1e-5)

    def test_known_values(self):
        bbox = numpy.array([[1, 2, 3, 4]], numpy.float32)
        numpy.testing.assert_array_equal(
            transforms.resize_bbox(bbox, (10, 10), (20, 5)), [[2, 1, 6, 2]])


class TestTranslateBBox:

    @pytest.mark.parametrize('y_offset,x_offset', [(0, 0), (3, -2),
                                                   (-1.5, 4)])
    def test_shift(self, y_offset, x_offset):
        bbox = random_bbox()
        out = transforms.translate_bbox(bbox, y_offset, x_offset)
        numpy.testing.assert_allclose(
            out - bbox, numpy.broadcast_to([y_offset, x_offset] * 2,
                                           bbox.shape), atol=1e-5)
