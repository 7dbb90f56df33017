"""InstanceSegmentationVOCEvaluator and InstanceSegmentationCOCOEvaluator
in a trainer, with a predictor whose masks are known."""
import numpy
import pytest

from chainer_cv.extensions import InstanceSegmentationCOCOEvaluator
from chainer_cv.extensions import InstanceSegmentationVOCEvaluator

from ._fakes import FakePredictor, image, iterator, make_trainer, run_and_log


def _mask(y_min, x_min, y_max, x_max):
    mask = numpy.zeros((8, 8), dtype=bool)
    mask[y_min:y_max, x_min:x_max] = True
    return mask


def _setup():
    """Ground truths: two 4x4 squares of class 0. Predictions: the top half
    of the first (0.9, IoU 0.5), the first itself (0.8) and a stray one
    (0.7)."""
    gt_mask = numpy.stack([_mask(0, 0, 4, 4), _mask(4, 4, 8, 8)])
    predictor = FakePredictor(
        [numpy.stack([_mask(0, 0, 2, 4), _mask(0, 0, 4, 4),
                      _mask(0, 5, 3, 8)])],
        [numpy.zeros(3, numpy.int32)], [numpy.array([0.9, 0.8, 0.7])])
    examples = [(image(0, (8, 8)), gt_mask, numpy.zeros(2, numpy.int32))]
    return examples, predictor


@pytest.mark.parametrize('iou_thresh, use_07_metric, expected', [
    (0.5, False, 0.5), (0.5, True, 6 / 11), (0.6, False, 0.25),
])
class TestInstanceSegmentationVOCEvaluator:

    def test_in_a_trainer(self, iou_thresh, use_07_metric, expected,
                          tmp_path):
        examples, predictor = _setup()
        evaluator = InstanceSegmentationVOCEvaluator(
            iterator(examples), predictor, iou_thresh=iou_thresh,
            use_07_metric=use_07_metric, label_names=('cell',))
        entry = run_and_log(make_trainer(tmp_path), evaluator)
        assert entry['validation/main/map'] == pytest.approx(expected)
        assert entry['validation/main/ap/cell'] == pytest.approx(expected)


@pytest.mark.parametrize('with_areas', [False, True])
class TestInstanceSegmentationCOCOEvaluator:

    def test_in_a_trainer(self, with_areas, tmp_path):
        examples, predictor = _setup()
        if with_areas:
            examples = [example + (numpy.array([16., 16.]),
                                   numpy.array([False, False]))
                        for example in examples]
        evaluator = InstanceSegmentationCOCOEvaluator(
            iterator(examples), predictor, label_names=('cell',))
        entry = run_and_log(make_trainer(tmp_path), evaluator)
        key = 'validation/main/map/iou=0.50/area=all/max_dets=100'
        # At IoU 0.5 the half mask finds the first square: precision 1 up
        # to recall 0.5, at the 51 recalls 0 ... 0.5.
        assert entry[key] == pytest.approx(51 / 101)
        assert entry['validation/main/ap/iou=0.50/area=all/max_dets=100/'
                     'cell'] == pytest.approx(51 / 101)
        assert ('validation/main/map/iou=0.50:0.95/area=small/max_dets=100'
                in entry) == with_areas
