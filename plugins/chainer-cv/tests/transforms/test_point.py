import numpy
import pytest

from chainer_cv import transforms

from ._helpers import box_of_pixels, pixel_box


def _points(shape, seed=0):
    return numpy.random.RandomState(seed).uniform(
        0, 10, size=shape).astype(numpy.float32)


_SHAPES = [(5, 2), (3, 4, 2)]


class TestFlipPoint:

    @pytest.mark.parametrize('shape', _SHAPES)
    @pytest.mark.parametrize('y_flip', [False, True])
    @pytest.mark.parametrize('x_flip', [False, True])
    def test_twice_is_identity(self, shape, y_flip, x_flip):
        point = _points(shape)
        out = transforms.flip_point(point, (10, 12), y_flip, x_flip)
        assert out.shape == shape
        numpy.testing.assert_allclose(
            transforms.flip_point(out, (10, 12), y_flip, x_flip), point,
            atol=1e-5)

    def test_follows_bbox(self):
        img, bbox = pixel_box((6, 9), 2, 3)
        corners = bbox.reshape(2, 2)
        out = transforms.flip_point(corners, (6, 9), True, True)
        flipped = box_of_pixels(transforms.flip(img, True, True))[0]
        assert sorted(out[:, 0].tolist()) == [flipped[0], flipped[2]]
        assert sorted(out[:, 1].tolist()) == [flipped[1], flipped[3]]

    def test_list_of_arrays(self):
        points = [_points((2, 2)), _points((3, 2), 1)]
        out = transforms.flip_point(points, (10, 12), x_flip=True)
        assert isinstance(out, list) and [p.shape for p in out] == \
            [(2, 2), (3, 2)]
        numpy.testing.assert_allclose(out[1][:, 1], 12 - points[1][:, 1])

    def test_bad_shape(self):
        with pytest.raises(ValueError, match=r'flip_point: point must have '
                           r'shape \(\.\.\., 2\)'):
            transforms.flip_point(numpy.zeros((3, 3)), (4, 4))


class TestResizePoint:

    @pytest.mark.parametrize('shape', _SHAPES)
    def test_round_trip(self, shape):
        point = _points(shape)
        out = transforms.resize_point(point, (10, 12), (20, 6))
        numpy.testing.assert_allclose(out[..., 0], point[..., 0] * 2)
        numpy.testing.assert_allclose(out[..., 1], point[..., 1] / 2)
        numpy.testing.assert_allclose(
            transforms.resize_point(out, (20, 6), (10, 12)), point, rtol=1e-5)


class TestTranslatePoint:

    @pytest.mark.parametrize('shape', _SHAPES)
    def test_shift(self, shape):
        point = _points(shape)
        out = transforms.translate_point(point, 2, -3)
        assert out.dtype == numpy.float32
        numpy.testing.assert_allclose(out - point, numpy.broadcast_to(
            [2, -3], shape), atol=1e-5)

    def test_list_of_arrays(self):
        out = transforms.translate_point([_points((2, 2))], y_offset=1)
        assert isinstance(out, list) and len(out) == 1
