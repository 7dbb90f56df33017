"""DetectionVOCEvaluator in a trainer, with a predictor whose boxes are
known: the APs are those worked out by hand for eval_detection_voc."""
import numpy
import pytest

from chainer_core.training import extensions

from chainer_cv.extensions import DetectionVOCEvaluator

from ._fakes import FakePredictor, image, iterator, make_trainer, run_and_log

A = [0, 0, 10, 10]
B = [20, 20, 30, 30]
C = [40, 40, 50, 50]


def _setup(with_difficult):
    """Image 0: ground truths A and B (class 0), found with a duplicate
    (TP, FP, TP); with ``with_difficult`` a difficult C, found first.
    Image 1: a class 1 object missed, a class 2 false positive."""
    gt_bbox = [numpy.array([A, B] + [C] * with_difficult, numpy.float32),
               numpy.array([[80, 80, 90, 90]], numpy.float32)]
    gt_label = [numpy.zeros(2 + with_difficult, numpy.int32),
                numpy.array([1], numpy.int32)]
    difficult = [numpy.array([False, False] + [True] * with_difficult),
                 numpy.array([False])]
    predictor = FakePredictor(
        [numpy.array([C] * with_difficult + [A, A, B], numpy.float32),
         numpy.array([[60, 60, 70, 70]], numpy.float32)],
        [numpy.zeros(3 + with_difficult, numpy.int32),
         numpy.array([2], numpy.int32)],
        [numpy.array([0.95] * with_difficult + [0.9, 0.8, 0.7]),
         numpy.array([0.5])])
    if with_difficult:
        examples = [(image(i), gt_bbox[i], gt_label[i], difficult[i])
                    for i in range(2)]
    else:
        examples = [(image(i), gt_bbox[i], gt_label[i]) for i in range(2)]
    return examples, predictor


_AP = {False: 0.5 + 0.5 * 2 / 3, True: (6 + 5 * 2 / 3) / 11}


@pytest.mark.parametrize('use_07_metric', [False, True])
@pytest.mark.parametrize('with_difficult', [False, True])
class TestDetectionVOCEvaluator:

    def test_in_a_trainer(self, use_07_metric, with_difficult, tmp_path):
        examples, predictor = _setup(with_difficult)
        evaluator = DetectionVOCEvaluator(
            iterator(examples), predictor, use_07_metric=use_07_metric,
            label_names=('a', 'b', 'c'))
        assert isinstance(evaluator, extensions.Evaluator)
        entry = run_and_log(make_trainer(tmp_path), evaluator)
        ap = _AP[use_07_metric]
        assert entry['validation/main/map'] == pytest.approx(ap / 2)
        assert entry['validation/main/ap/a'] == pytest.approx(ap)
        assert entry['validation/main/ap/b'] == 0
        assert numpy.isnan(entry['validation/main/ap/c'])
        # Two evaluations of one batch of two images each.
        assert predictor.batches == [2, 2]

    def test_called_alone(self, use_07_metric, with_difficult):
        examples, predictor = _setup(with_difficult)
        result = DetectionVOCEvaluator(
            iterator(examples, batch_size=1), predictor,
            use_07_metric=use_07_metric)()
        assert result == {'main/map': pytest.approx(_AP[use_07_metric] / 2)}

    def test_label_names_must_name_every_label(self, use_07_metric,
                                               with_difficult):
        examples, predictor = _setup(with_difficult)
        evaluator = DetectionVOCEvaluator(
            iterator(examples), predictor, use_07_metric=use_07_metric,
            label_names=('a', 'b'))
        with pytest.raises(ValueError, match=r'DetectionVOCEvaluator: '
                                             r'label_names names 2 classes, '
                                             r'but labels up to 2'):
            evaluator()
