"""SemanticSegmentationEvaluator in a trainer, with a predictor whose
label maps are known: the values worked out by hand for
eval_semantic_segmentation."""
import numpy
import pytest

from chainer_cv.extensions import SemanticSegmentationEvaluator

from ._fakes import FakePredictor, image, iterator, make_trainer, run_and_log

PRED = [numpy.array([[0, 0, 1], [1, 2, 2]], numpy.int32)]
GT = [numpy.array([[0, 1, 1], [1, 2, -1]], numpy.int32)]


@pytest.mark.parametrize('label_names', [None, ('sky', 'road', 'car')])
class TestSemanticSegmentationEvaluator:

    def test_in_a_trainer(self, label_names, tmp_path):
        predictor = FakePredictor(PRED, single=True)
        evaluator = SemanticSegmentationEvaluator(
            iterator([(image(0, (2, 3)), GT[0])]), predictor,
            label_names=label_names)
        entry = run_and_log(make_trainer(tmp_path), evaluator)
        iou = [1 / 2, 2 / 3, 1]
        assert entry['validation/main/miou'] == pytest.approx(numpy.mean(iou))
        assert entry['validation/main/pixel_accuracy'] == pytest.approx(0.8)
        assert entry['validation/main/mean_class_accuracy'] == \
            pytest.approx(8 / 9)
        per_label = {key for key in entry
                     if key.startswith('validation/main/iou/')}
        if label_names is None:
            assert not per_label
        else:
            for name, value in zip(label_names, iou):
                assert entry['validation/main/iou/' + name] == \
                    pytest.approx(value)
            assert entry['validation/main/class_accuracy/road'] == \
                pytest.approx(2 / 3)
