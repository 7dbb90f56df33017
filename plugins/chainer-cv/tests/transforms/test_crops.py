import numpy
import pytest

from chainer_cv import transforms

from ._helpers import random_image


def _crop(img, param):
    return img[:, param['y_slice'], param['x_slice']]


class TestCenterCrop:

    @pytest.mark.parametrize('size,y,x', [((24, 32), 0, 0), ((10, 10), 7, 11),
                                          ((23, 31), 0, 0), ((1, 1), 11, 15)])
    def test_crop(self, size, y, x):
        img = random_image()
        out, param = transforms.center_crop(img, size, return_param=True)
        assert out.shape == (3,) + size
        assert param == {'y_slice': slice(y, y + size[0]),
                         'x_slice': slice(x, x + size[1])}
        numpy.testing.assert_array_equal(out, _crop(img, param))

    @pytest.mark.parametrize('copy', [False, True])
    def test_copy(self, copy):
        img = random_image()
        out = transforms.center_crop(img, (4, 4), copy=copy)
        assert numpy.shares_memory(out, img) == (not copy)

    @pytest.mark.parametrize('size', [(25, 4), (4, 33), (0, 3), (3,)])
    def test_bad_size(self, size):
        with pytest.raises(ValueError, match='center_crop: size'):
            transforms.center_crop(random_image(), size)


class TestRandomCrop:

    @pytest.mark.parametrize('size', [(24, 32), (10, 5), (1, 1)])
    def test_param_reproduces(self, size):
        img = random_image()
        starts = set()
        for _ in range(20):
            out, param = transforms.random_crop(img, size, return_param=True)
            assert out.shape == (3,) + size
            numpy.testing.assert_array_equal(out, _crop(img, param))
            starts.add((param['y_slice'].start, param['x_slice'].start))
        assert (len(starts) > 1) == (size != (24, 32))

    def test_bad_size(self):
        with pytest.raises(ValueError, match=r'random_crop: size must be '
                           r'positive and fit in the image \(24, 32\); got '
                           r'\(30, 30\)'):
            transforms.random_crop(random_image(), (30, 30))


class TestRandomSizedCrop:

    @pytest.mark.parametrize('scale_ratio_range,aspect_ratio_range', [
        ((0.08, 1), (3 / 4, 4 / 3)), ((0.5, 0.5), (1, 1)),
        ((1, 1), (2, 2)), ((0.9, 1), (0.1, 10))])
    def test_param(self, scale_ratio_range, aspect_ratio_range):
        img = random_image((3, 40, 50))
        for _ in range(20):
            out, param = transforms.random_sized_crop(
                img, scale_ratio_range, aspect_ratio_range,
                return_param=True)
            assert set(param) == {'y_slice', 'x_slice', 'scale_ratio',
                                  'aspect_ratio'}
            numpy.testing.assert_array_equal(out, _crop(img, param))
            assert out.shape[1] > 0 and out.shape[2] > 0
            s, a = param['scale_ratio'], param['aspect_ratio']
            assert scale_ratio_range[0] <= s <= scale_ratio_range[1]
            assert min(aspect_ratio_range[0], 1 / aspect_ratio_range[1]) \
                <= a <= max(aspect_ratio_range[1], 1 / aspect_ratio_range[0])
            H_crop = int(numpy.floor(numpy.sqrt(s * 40 * 50 * a)))
            if H_crop <= 40 and int(numpy.sqrt(s * 40 * 50 / a)) <= 50:
                assert out.shape[1:] == (
                    H_crop, int(numpy.floor(numpy.sqrt(s * 40 * 50 / a))))


class TestTenCrop:

    def test_crops(self):
        img = random_image((3, 10, 12))
        crops = transforms.ten_crop(img, (6, 8))
        assert crops.shape == (10, 3, 6, 8)
        expected = [img[:, 2:8, 2:10], img[:, :6, :8], img[:, 4:, :8],
                    img[:, :6, 4:], img[:, 4:, 4:]]
        for i, crop in enumerate(expected):
            numpy.testing.assert_array_equal(crops[i], crop)
            numpy.testing.assert_array_equal(crops[i + 5], crop[:, :, ::-1])

    def test_too_large(self):
        with pytest.raises(ValueError, match='ten_crop: size'):
            transforms.ten_crop(random_image((3, 10, 12)), (11, 4))
