import numpy
import pytest

from chainer_cv.utils import assert_is_bbox, generate_random_bbox


class TestGenerateRandomBBox:

    @pytest.mark.parametrize('n,size,lo,hi', [(0, (10, 10), 1, 5),
                                              (50, (64, 48), 4, 16),
                                              (10, (300, 200), 10, 100)])
    def test_boxes(self, n, size, lo, hi):
        numpy.random.seed(0)
        bbox = generate_random_bbox(n, size, lo, hi)
        assert bbox.shape == (n, 4)
        assert_is_bbox(bbox, size)
        extent = bbox[:, 2:] - bbox[:, :2]
        assert ((extent >= lo - 1e-4) & (extent <= hi + 1e-4)).all()
