import numpy
import PIL.Image
import pytest

from chainer_cv import transforms

from ._helpers import (assert_inside, box_of_pixels, pixel_box, random_bbox,
                       random_image)


class TestRotate:

    @pytest.mark.parametrize('k', [0, 1, 2, 3, -1, 5])
    @pytest.mark.parametrize('interpolation', [PIL.Image.NEAREST,
                                               PIL.Image.BILINEAR,
                                               PIL.Image.BICUBIC])
    def test_right_angles_equal_rot90(self, k, interpolation):
        img = random_image((2, 6, 9))
        numpy.testing.assert_allclose(
            transforms.rotate(img, 90 * k, interpolation=interpolation),
            numpy.rot90(img, k, axes=(1, 2)), atol=1e-3)

    @pytest.mark.parametrize('angle,expand,shape', [
        (30, True, (3, 33, 36)), (30, False, (3, 20, 30)),
        (45, True, (3, 36, 36)), (-120, True, (3, 36, 33))])
    def test_shape(self, angle, expand, shape):
        assert transforms.rotate(random_image((3, 20, 30)), angle,
                                 expand=expand).shape == shape

    def test_fill(self):
        out = transforms.rotate(numpy.zeros((3, 10, 10), numpy.float32), 45,
                                fill=(1, 2, 3))
        assert out[:, 0, 0].tolist() == [1, 2, 3]

    def test_rotate_back(self):
        img = numpy.zeros((1, 21, 21), numpy.float32)
        img[0, 8:13, 8:13] = 100
        out = transforms.rotate(transforms.rotate(img, 30, expand=False), -30,
                                expand=False)
        assert abs(out[0, 10, 10] - 100) < 1

    def test_bad_interpolation(self):
        with pytest.raises(ValueError, match='rotate: interpolation'):
            transforms.rotate(random_image(), 10,
                              interpolation=PIL.Image.LANCZOS)


class TestRandomRotate:

    def test_param_reproduces(self):
        img = random_image((3, 5, 7))
        ks = set()
        for _ in range(30):
            out, param = transforms.random_rotate(img, return_param=True)
            assert set(param) == {'k'}
            ks.add(param['k'])
            numpy.testing.assert_allclose(
                out, transforms.rotate(img, 90 * param['k']), atol=1e-3)
        assert ks == {0, 1, 2, 3}


class TestRotateBBox:

    @pytest.mark.parametrize('angle', [0, 90, 180, 270, -90, 450])
    @pytest.mark.parametrize('y,x', [(0, 0), (3, 7), (5, 8)])
    def test_follows_the_image(self, angle, y, x):
        img, bbox = pixel_box((6, 9), y, x)
        out = transforms.rotate(img, angle, interpolation=PIL.Image.NEAREST)
        numpy.testing.assert_allclose(
            transforms.rotate_bbox(bbox, angle, (6, 9)), box_of_pixels(out),
            atol=1e-4)

    @pytest.mark.parametrize('angle', [10, 30, 45, 100, -70])
    @pytest.mark.parametrize('expand', [True, False])
    def test_inside_and_encloses(self, angle, expand):
        bbox = random_bbox((20, 30))
        out = transforms.rotate_bbox(bbox, angle, (20, 30), expand)
        size = transforms.rotate(random_image((1, 20, 30)), angle,
                                 expand=expand).shape[1:]
        assert_inside(out, size)
        if expand:
            # Every pixel of a box, rotated, lies in the rotated box.
            for box, rotated in zip(bbox, out):
                img = numpy.zeros((1, 20, 30), numpy.float32)
                img[0, int(numpy.ceil(box[0])):int(box[2]),
                    int(numpy.ceil(box[1])):int(box[3])] = 1
                hit = numpy.argwhere(transforms.rotate(
                    img, angle, interpolation=PIL.Image.NEAREST)[0] > 0.5)
                if len(hit):
                    assert (hit >= numpy.floor(rotated[:2]) - 1).all()
                    assert (hit < numpy.ceil(rotated[2:]) + 1).all()

    def test_round_trip(self):
        bbox = random_bbox((20, 30))
        there = transforms.rotate_bbox(bbox, 90, (20, 30))
        numpy.testing.assert_allclose(
            transforms.rotate_bbox(there, -90, (30, 20)), bbox, atol=1e-4)


class TestPCALighting:

    def test_shift_is_per_channel(self):
        numpy.random.seed(0)
        img = random_image()
        out = transforms.pca_lighting(img, 25.5)
        shift = out - img
        assert out.dtype == img.dtype
        numpy.testing.assert_allclose(
            shift, numpy.broadcast_to(shift[:, :1, :1], shift.shape),
            atol=1e-3)
        assert numpy.abs(shift).max() > 0

    def test_custom_components(self):
        numpy.random.seed(0)
        out = transforms.pca_lighting(numpy.zeros((3, 2, 2), numpy.float32),
                                      1, numpy.array([1., 0, 0]),
                                      numpy.eye(3))
        assert out[1:].max() == 0 and out[0, 0, 0] != 0

    def test_zero_sigma(self):
        img = random_image()
        numpy.testing.assert_array_equal(transforms.pca_lighting(img, 0), img)

    def test_not_rgb(self):
        with pytest.raises(ValueError, match='pca_lighting: img must be RGB'):
            transforms.pca_lighting(random_image((1, 4, 4)), 1)
