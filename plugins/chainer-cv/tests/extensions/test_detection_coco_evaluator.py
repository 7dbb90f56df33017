"""DetectionCOCOEvaluator in a trainer, with a predictor whose boxes are
known."""
import numpy
import pytest

from chainer_cv.extensions import DetectionCOCOEvaluator

from ._fakes import FakePredictor, image, iterator, make_trainer, run_and_log

ALL = 'iou=0.50:0.95/area=all/max_dets=100'
SMALL = 'iou=0.50:0.95/area=small/max_dets=100'


def _setup(with_areas):
    """Image 0: one small object, found exactly. Image 1: one found with
    IoU 0.72, a hit at 5 of the 10 IoU thresholds (class 1)."""
    gt_bbox = [numpy.array([[0, 0, 10, 10]], numpy.float32),
               numpy.array([[0, 0, 10, 10]], numpy.float32)]
    gt_label = [numpy.array([0], numpy.int32), numpy.array([1], numpy.int32)]
    predictor = FakePredictor(
        [numpy.array([[0, 0, 10, 10]], numpy.float32),
         numpy.array([[0, 0, 10, 7.2]], numpy.float32)],
        gt_label, [numpy.array([1.]), numpy.array([1.])])
    examples = []
    for i in range(2):
        extra = (numpy.array([100.]), numpy.array([False])) \
            if with_areas else ()
        examples.append((image(i), gt_bbox[i], gt_label[i]) + extra)
    return examples, predictor


@pytest.mark.parametrize('with_areas', [False, True])
class TestDetectionCOCOEvaluator:

    def test_in_a_trainer(self, with_areas, tmp_path):
        examples, predictor = _setup(with_areas)
        evaluator = DetectionCOCOEvaluator(iterator(examples), predictor,
                                           label_names=('cat', 'dog'))
        entry = run_and_log(make_trainer(tmp_path), evaluator)
        assert entry['validation/main/map/' + ALL] == pytest.approx(0.75)
        assert entry['validation/main/ap/{}/cat'.format(ALL)] == 1
        assert entry['validation/main/ap/{}/dog'.format(ALL)] == \
            pytest.approx(0.5)
        assert entry['validation/main/mar/' + ALL] == pytest.approx(0.75)
        assert entry['validation/main/ar/{}/dog'.format(ALL)] == \
            pytest.approx(0.5)
        # The summaries by object size need the areas of the examples.
        assert ('validation/main/map/' + SMALL in entry) == with_areas

    def test_bad_examples(self, with_areas):
        examples, predictor = _setup(with_areas)
        examples = [example[:2] for example in examples]
        with pytest.raises(ValueError, match=r'DetectionCOCOEvaluator: '
                                             r'examples must be \(img, '
                                             r'bbox, label\) or .*got 2 '
                                             r'values'):
            DetectionCOCOEvaluator(iterator(examples), predictor)()
