import numpy
import pytest

import chainer_cv as chainercv
from chainer_cv.utils import (non_maximum_suppression,
                              non_maximum_suppression_batched)
from chainer_cv.utils._checks import to_host


def _brute_force_nms(bbox, thresh, score, limit, label=None):
    order = sorted(range(len(bbox)), key=lambda i: (-score[i], i))
    iou = chainercv.utils.bbox_iou(bbox, bbox)
    keep = []
    for i in order:
        if all(iou[i, j] < thresh or
               (label is not None and label[i] != label[j]) for j in keep):
            keep.append(i)
    return keep[:limit]


def _random_set(seed, n):
    numpy.random.seed(seed)
    bbox = chainercv.utils.generate_random_bbox(n, (64, 64), 8, 32)
    score = numpy.random.uniform(size=n).astype(numpy.float32)
    return bbox, score


class TestNonMaximumSuppression:

    @pytest.mark.parametrize('seed', range(4))
    @pytest.mark.parametrize('n', [0, 1, 30, 100])
    @pytest.mark.parametrize('thresh', [0.1, 0.5, 0.9])
    @pytest.mark.parametrize('limit', [None, 5])
    def test_against_brute_force(self, seed, n, thresh, limit):
        bbox, score = _random_set(seed, n)
        keep = non_maximum_suppression(bbox, thresh, score, limit)
        assert keep.dtype == numpy.int32
        assert keep.tolist() == _brute_force_nms(bbox, thresh, score, limit)

    def test_kept_sorted_by_score_and_disjoint(self):
        bbox, score = _random_set(7, 80)
        keep = non_maximum_suppression(bbox, 0.3, score)
        assert (numpy.diff(score[keep]) <= 0).all()
        iou = chainercv.utils.bbox_iou(bbox[keep], bbox[keep])
        assert (iou[~numpy.eye(len(keep), dtype=bool)] < 0.3).all()

    def test_suppresses_at_threshold(self):
        # Two boxes with IoU exactly 1/2: the second is suppressed at 0.5.
        bbox = numpy.array([[0, 0, 10, 10], [0, 0, 10, 5]], numpy.float32)
        assert non_maximum_suppression(bbox, 0.5).tolist() == [0]
        assert non_maximum_suppression(bbox, 0.51).tolist() == [0, 1]

    def test_without_score_uses_given_order(self):
        bbox = numpy.array([[0, 0, 10, 10], [1, 1, 10, 10]], numpy.float32)
        assert non_maximum_suppression(bbox, 0.5).tolist() == [0]

    def test_on_device(self, device):
        bbox, score = _random_set(3, 40)
        keep = non_maximum_suppression(device.send(bbox), 0.4,
                                       device.send(score), 10)
        assert to_host(keep).tolist() == \
            non_maximum_suppression(bbox, 0.4, score, 10).tolist()

    def test_bad_input(self):
        with pytest.raises(ValueError, match='non_maximum_suppression: bbox'):
            non_maximum_suppression(numpy.zeros((3, 5), numpy.float32), 0.5)
        with pytest.raises(ValueError, match='y_min <= y_max'):
            non_maximum_suppression(
                numpy.array([[3, 0, 1, 1]], numpy.float32), 0.5)
        with pytest.raises(ValueError, match=r'score must have shape \(2,\)'):
            non_maximum_suppression(numpy.zeros((2, 4), numpy.float32), 0.5,
                                    numpy.zeros(3, numpy.float32))


class TestNonMaximumSuppressionBatched:

    @pytest.mark.parametrize('seed', range(4))
    @pytest.mark.parametrize('n_class', [1, 3])
    @pytest.mark.parametrize('limit', [None, 7])
    def test_against_brute_force(self, seed, n_class, limit):
        bbox, score = _random_set(seed, 60)
        label = numpy.random.randint(0, n_class, size=60)
        keep = non_maximum_suppression_batched(bbox, 0.4, label, score, limit)
        assert keep.tolist() == _brute_force_nms(bbox, 0.4, score, limit,
                                                 label)

    def test_same_as_per_class(self):
        bbox, score = _random_set(5, 50)
        label = numpy.random.randint(0, 4, size=50)
        keep = set(non_maximum_suppression_batched(bbox, 0.5, label, score)
                   .tolist())
        expected = set()
        for lb in range(4):
            index = numpy.flatnonzero(label == lb)
            expected.update(index[non_maximum_suppression(
                bbox[index], 0.5, score[index])].tolist())
        assert keep == expected

    def test_on_device(self, device):
        bbox, score = _random_set(2, 30)
        label = numpy.random.randint(0, 3, size=30).astype(numpy.int32)
        keep = non_maximum_suppression_batched(
            device.send(bbox), 0.4, device.send(label), device.send(score))
        assert to_host(keep).tolist() == \
            non_maximum_suppression_batched(bbox, 0.4, label, score).tolist()

    def test_label_shape(self):
        with pytest.raises(ValueError, match='label must have shape'):
            non_maximum_suppression_batched(
                numpy.zeros((2, 4), numpy.float32), 0.5, numpy.zeros(3))
