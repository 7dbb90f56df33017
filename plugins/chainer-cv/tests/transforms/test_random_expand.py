import numpy
import pytest

from chainer_cv import transforms

from ._helpers import assert_inside, random_bbox, random_image


class TestRandomExpand:

    @pytest.mark.parametrize('max_ratio', [1, 1.5, 4])
    @pytest.mark.parametrize('fill', [0, (10, 20, 30)])
    def test_param_reproduces(self, max_ratio, fill):
        img = random_image()
        bbox = random_bbox()
        for _ in range(10):
            out, param = transforms.random_expand(img, max_ratio, fill,
                                                  return_param=True)
            assert set(param) == {'ratio', 'y_offset', 'x_offset'}
            assert 1 <= param['ratio'] <= max(max_ratio, 1)
            assert out.shape == (3, int(24 * param['ratio']),
                                 int(32 * param['ratio']))
            y, x = param['y_offset'], param['x_offset']
            numpy.testing.assert_array_equal(out[:, y:y + 24, x:x + 32], img)
            background = numpy.ones(out.shape[1:], bool)
            background[y:y + 24, x:x + 32] = False
            numpy.testing.assert_array_equal(
                out[:, background],
                numpy.broadcast_to(numpy.reshape(fill, (-1, 1)),
                                   (3, background.sum())))
            assert_inside(transforms.translate_bbox(bbox, y, x),
                          out.shape[1:])
