import numpy
import pytest

import chainer_cv as chainercv
from chainer_cv.utils import bbox_iou


def _brute_force_iou(a, b):
    out = numpy.zeros((len(a), len(b)))
    for i, p in enumerate(a):
        for j, q in enumerate(b):
            h = max(0., min(p[2], q[2]) - max(p[0], q[0]))
            w = max(0., min(p[3], q[3]) - max(p[1], q[1]))
            inter = h * w
            union = ((p[2] - p[0]) * (p[3] - p[1]) +
                     (q[2] - q[0]) * (q[3] - q[1]) - inter)
            out[i, j] = inter / union if union > 0 else 0
    return out


class TestBBoxIoU:

    @pytest.mark.parametrize('n_a,n_b', [(1, 1), (5, 7), (0, 3), (20, 20)])
    @pytest.mark.parametrize('seed', [0, 1])
    def test_against_brute_force(self, n_a, n_b, seed):
        numpy.random.seed(seed)
        a = chainercv.utils.generate_random_bbox(n_a, (64, 64), 4, 32)
        b = chainercv.utils.generate_random_bbox(n_b, (64, 64), 4, 32)
        iou = bbox_iou(a, b)
        assert iou.shape == (n_a, n_b)
        numpy.testing.assert_allclose(iou, _brute_force_iou(a, b),
                                      rtol=1e-5, atol=1e-6)

    def test_known_values(self):
        a = numpy.array([[0, 0, 10, 10]], numpy.float32)
        b = numpy.array([[0, 0, 10, 10], [5, 5, 15, 15], [10, 10, 20, 20],
                         [3, 3, 3, 3]], numpy.float32)
        numpy.testing.assert_allclose(bbox_iou(a, b),
                                      [[1, 25 / 175, 0, 0]], rtol=1e-6)

    def test_empty_union_is_zero(self):
        point = numpy.array([[1, 1, 1, 1]], numpy.float32)
        assert bbox_iou(point, point)[0, 0] == 0

    def test_on_device(self, device):
        numpy.random.seed(0)
        a = chainercv.utils.generate_random_bbox(6, (32, 32), 2, 16)
        b = chainercv.utils.generate_random_bbox(4, (32, 32), 2, 16)
        iou = bbox_iou(device.send(a), device.send(b))
        assert chainercv.utils._checks.to_host(iou).shape == (6, 4)
        numpy.testing.assert_allclose(chainercv.utils._checks.to_host(iou),
                                      bbox_iou(a, b), rtol=1e-5)

    @pytest.mark.parametrize('shape', [(3, 5), (3,), (2, 3)])
    def test_last_axis_not_4(self, shape):
        good = numpy.zeros((1, 4), numpy.float32)
        with pytest.raises(IndexError, match=r'bbox_iou: bbox_a .*\(R, 4\)'):
            bbox_iou(numpy.zeros(shape, numpy.float32), good)
        with pytest.raises(ValueError, match=r'bbox_b'):
            bbox_iou(good, numpy.zeros(shape, numpy.float32))

    def test_inverted_box(self):
        good = numpy.zeros((1, 4), numpy.float32)
        bad = numpy.array([[0, 0, 1, 1], [5, 0, 2, 1]], numpy.float32)
        with pytest.raises(ValueError, match=r'bbox_iou: bbox_a .*y_min <= '
                           r'y_max.*boxes \[1\]'):
            bbox_iou(bad, good)
