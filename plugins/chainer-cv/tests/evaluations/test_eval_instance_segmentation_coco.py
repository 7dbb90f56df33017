"""MS COCO metrics of instance masks: cases worked out by hand, and
agreement with pycocotools where it is installed."""
import numpy
import pytest

from chainer_cv.evaluations import eval_instance_segmentation_coco

from .coco_reference import random_detections, reference_stats

ALL = 'iou=0.50:0.95/area=all/max_dets=100'


def _mask(y_min, x_min, y_max, x_max):
    mask = numpy.zeros((40, 40), dtype=bool)
    mask[y_min:y_max, x_min:x_max] = True
    return mask


def _case(pred_masks, gt_masks, gt_crowded=None):
    gt_masks = numpy.stack(gt_masks)
    n_pred = len(pred_masks)
    return dict(
        pred_masks=[numpy.stack(pred_masks)],
        pred_labels=[numpy.zeros(n_pred, numpy.int32)],
        # The first prediction is the most confident.
        pred_scores=[numpy.linspace(1, 0.5, n_pred)],
        gt_masks=[gt_masks], gt_labels=[numpy.zeros(len(gt_masks),
                                                    numpy.int32)],
        gt_areas=[gt_masks.sum(axis=(1, 2)).astype(numpy.float64)],
        gt_crowdeds=None if gt_crowded is None else [numpy.array(gt_crowded)])


_CASES = {
    # 10x10 ground truth; the prediction covers 8x9 = 72 of its pixels and
    # nothing else: IoU 0.72, a hit at 5 of the 10 thresholds.
    'iou_0.72': (_case([_mask(0, 0, 8, 9)],
                       [_mask(0, 0, 10, 10)]),
                 {'map/' + ALL: 0.5, 'mar/' + ALL: 0.5,
                  'map/iou=0.50/area=all/max_dets=100': 1,
                  'map/iou=0.75/area=all/max_dets=100': 0}),
    # The first prediction lies inside a crowd region, which is ignored.
    'crowd': (_case([_mask(0, 0, 5, 5), _mask(30, 30, 40, 40)],
                    [_mask(0, 0, 20, 20), _mask(30, 30, 40, 40)],
                    gt_crowded=[True, False]),
              {'map/' + ALL: 1, 'mar/' + ALL: 1}),
    # One of two found.
    'half_found': (_case([_mask(0, 0, 10, 10)],
                         [_mask(0, 0, 10, 10), _mask(20, 20, 30, 30)]),
                   {'map/' + ALL: 51 / 101, 'mar/' + ALL: 0.5}),
}


@pytest.mark.parametrize('name', sorted(_CASES))
class TestEvalInstanceSegmentationCOCO:

    def test_hand_computed(self, name):
        case, expected = _CASES[name]
        result = eval_instance_segmentation_coco(**case)
        for key, value in expected.items():
            numpy.testing.assert_allclose(result[key], value, err_msg=key)

    def test_agrees_with_pycocotools(self, name):
        pytest.importorskip('pycocotools')
        _check_against_reference(_CASES[name][0])

    def test_masks_must_be_bool(self, name):
        case, _ = _CASES[name]
        case = dict(case, pred_masks=[case['pred_masks'][0].astype(int)])
        with pytest.raises(TypeError, match=r'eval_instance_segmentation_coco'
                                            r': pred_masks\[0\] must be bool'
                                            r' masks, got dtype int64'):
            eval_instance_segmentation_coco(**case)


@pytest.mark.parametrize('seed', range(3))
def test_agrees_with_pycocotools_on_random_cases(seed):
    pytest.importorskip('pycocotools')
    _check_against_reference(random_detections(seed, 'mask'))


def _check_against_reference(case):
    stats = reference_stats(case, 'mask')
    result = eval_instance_segmentation_coco(**case)
    ours = [value for key, value in result.items()
            if key.startswith(('map/', 'mar/'))]
    numpy.testing.assert_allclose(numpy.nan_to_num(ours, nan=-1), stats,
                                  atol=1e-12)
