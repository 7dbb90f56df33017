"""MS COCO metrics of boxes: cases worked out by hand, and agreement with
pycocotools where it is installed."""
import numpy
import pytest

from chainer_cv.evaluations import eval_detection_coco

from .coco_reference import random_detections, reference_stats

ALL = 'iou=0.50:0.95/area=all/max_dets=100'
KEYS = ['iou=0.50:0.95/area=all/max_dets=100',
        'iou=0.50/area=all/max_dets=100',
        'iou=0.75/area=all/max_dets=100',
        'iou=0.50:0.95/area=small/max_dets=100',
        'iou=0.50:0.95/area=medium/max_dets=100',
        'iou=0.50:0.95/area=large/max_dets=100']
AR_KEYS = ['iou=0.50:0.95/area=all/max_dets=1',
           'iou=0.50:0.95/area=all/max_dets=10',
           'iou=0.50:0.95/area=all/max_dets=100',
           'iou=0.50:0.95/area=small/max_dets=100',
           'iou=0.50:0.95/area=medium/max_dets=100',
           'iou=0.50:0.95/area=large/max_dets=100']


def _one_image(pred_bbox, pred_label, pred_score, gt_bbox, gt_label,
               gt_crowded=None):
    gt_bbox = numpy.array(gt_bbox, numpy.float32).reshape(-1, 4)
    area = (gt_bbox[:, 2] - gt_bbox[:, 0]) * (gt_bbox[:, 3] - gt_bbox[:, 1])
    return dict(
        pred_bboxes=[numpy.array(pred_bbox, numpy.float32).reshape(-1, 4)],
        pred_labels=[numpy.array(pred_label, numpy.int32)],
        pred_scores=[numpy.array(pred_score, numpy.float32)],
        gt_bboxes=[gt_bbox], gt_labels=[numpy.array(gt_label, numpy.int32)],
        gt_areas=[area],
        gt_crowdeds=None if gt_crowded is None else [numpy.array(gt_crowded)])


# (case, expected 'map/...' and 'mar/...'), NaN where there is nothing of
# that size to find.
_CASES = {
    # A perfect hit on a 10x10 (small) object.
    'perfect': (
        _one_image([[0, 0, 10, 10]], [0], [1.], [[0, 0, 10, 10]], [0]),
        {'map/' + ALL: 1, 'map/iou=0.50/area=all/max_dets=100': 1,
         'map/iou=0.75/area=all/max_dets=100': 1,
         'map/iou=0.50:0.95/area=small/max_dets=100': 1,
         'map/iou=0.50:0.95/area=medium/max_dets=100': numpy.nan,
         'mar/iou=0.50:0.95/area=all/max_dets=1': 1}),
    # IoU 0.72: a hit at the thresholds 0.50 ... 0.70 (5 of 10), a miss at
    # 0.75 ... 0.95.
    'iou_0.72': (
        _one_image([[0, 0, 10, 7.2]], [0], [1.], [[0, 0, 10, 10]], [0]),
        {'map/' + ALL: 0.5, 'map/iou=0.50/area=all/max_dets=100': 1,
         'map/iou=0.75/area=all/max_dets=100': 0, 'mar/' + ALL: 0.5}),
    # One of two found: precision 1 at the 51 recalls 0, 0.01 ... 0.50.
    'half_found': (
        _one_image([[0, 0, 10, 10]], [0], [1.],
                   [[0, 0, 10, 10], [50, 50, 60, 60]], [0, 0]),
        {'map/' + ALL: 51 / 101, 'mar/' + ALL: 0.5}),
    # Two objects, two hits: one prediction per image finds half.
    'max_dets': (
        _one_image([[0, 0, 10, 10], [50, 50, 60, 60]], [0, 0], [1., 0.9],
                   [[0, 0, 10, 10], [50, 50, 60, 60]], [0, 0]),
        {'mar/iou=0.50:0.95/area=all/max_dets=1': 0.5,
         'mar/iou=0.50:0.95/area=all/max_dets=10': 1, 'map/' + ALL: 1}),
    # The most confident prediction lies in a crowd region: it counts
    # neither way, and the other finds the only object.
    'crowd': (
        _one_image([[10, 10, 20, 20], [200, 200, 210, 210]], [0, 0],
                   [1., 0.5], [[0, 0, 100, 100], [200, 200, 210, 210]],
                   [0, 0], gt_crowded=[True, False]),
        {'map/' + ALL: 1, 'mar/' + ALL: 1,
         'map/iou=0.50:0.95/area=large/max_dets=100': numpy.nan}),
    # Without the crowd flag, the region is an object (missed) and the
    # prediction in it a false positive ranked first.
    'not_crowd': (
        _one_image([[10, 10, 20, 20], [200, 200, 210, 210]], [0, 0],
                   [1., 0.5], [[0, 0, 100, 100], [200, 200, 210, 210]],
                   [0, 0]),
        # Precision 1/2 at the recalls 0 ... 0.5.
        {'map/' + ALL: 51 * 0.5 / 101, 'mar/' + ALL: 0.5,
         'map/iou=0.50:0.95/area=large/max_dets=100': 0,
         # p1, a small false positive, ranks first among small objects.
         'map/iou=0.50:0.95/area=small/max_dets=100': 0.5}),
}


@pytest.mark.parametrize('name', sorted(_CASES))
class TestEvalDetectionCOCO:

    def test_hand_computed(self, name):
        case, expected = _CASES[name]
        result = eval_detection_coco(**case)
        for key, value in expected.items():
            numpy.testing.assert_allclose(result[key], value, err_msg=key)

    def test_keys(self, name):
        case, _ = _CASES[name]
        result = eval_detection_coco(**case)
        expected = {prefix + key
                    for prefix, keys in (('ap/', KEYS), ('map/', KEYS),
                                         ('ar/', AR_KEYS), ('mar/', AR_KEYS))
                    for key in keys}
        assert set(result) == expected | {'existent_labels'}
        # Without areas the summaries by object size are left out.
        case = dict(case, gt_areas=None)
        result = eval_detection_coco(**case)
        assert not any('small' in key or 'large' in key for key in result)
        assert 'map/' + ALL in result

    def test_agrees_with_pycocotools(self, name):
        pytest.importorskip('pycocotools')
        case, _ = _CASES[name]
        _check_against_reference(case, 'bbox')


class TestEvalDetectionCOCOLabels:

    @pytest.mark.parametrize('seed', range(4))
    def test_agrees_with_pycocotools_on_random_cases(self, seed):
        pytest.importorskip('pycocotools')
        _check_against_reference(random_detections(seed, 'bbox'), 'bbox')

    def test_labels_absent_everywhere_are_nan(self):
        case = _one_image([[0, 0, 10, 10]], [2], [1.], [[0, 0, 10, 10]],
                          [0])
        result = eval_detection_coco(**case)
        numpy.testing.assert_array_equal(result['existent_labels'], [0, 2])
        # Label 0 is missed, label 2 has no ground truth, 1 is unknown.
        numpy.testing.assert_allclose(result['ap/' + ALL],
                                      [0, numpy.nan, numpy.nan])

    def test_bad_input(self):
        case = _one_image([[0, 0, 10, 10]], [0], [1.], [[0, 0, 10, 10]],
                          [0])
        with pytest.raises(ValueError, match=r'eval_detection_coco: '
                                             r'gt_areas\[0\] must have the '
                                             r'shape \(1,\)'):
            eval_detection_coco(**dict(case, gt_areas=[numpy.ones(2)]))
        with pytest.raises(ValueError, match=r'len\(pred_bboxes\)=1.*'
                                             r'len\(gt_crowdeds\)=0'):
            eval_detection_coco(**dict(case, gt_crowdeds=[]))
        with pytest.raises(ValueError, match=r'gt_bboxes\[0\] must be '
                                             r'bounding boxes of shape '
                                             r'\(R, 4\)'):
            eval_detection_coco(**dict(case, gt_bboxes=[numpy.ones((1, 5))]))


def _check_against_reference(case, kind):
    stats = reference_stats(case, kind)
    result = eval_detection_coco(**case)
    ours = [result.get('map/' + key, numpy.nan) for key in KEYS] + \
        [result.get('mar/' + key, numpy.nan) for key in AR_KEYS]
    # pycocotools writes -1 where there is nothing to evaluate.
    ours = numpy.nan_to_num(ours, nan=-1)
    numpy.testing.assert_allclose(ours, stats, atol=1e-12)
