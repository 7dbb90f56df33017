"""Random COCO cases, and their summaries by pycocotools (the reference
implementation) for the tests that compare with it."""
import contextlib
import io

import numpy

SIZE = 64


def random_detections(seed, kind):
    """Keyword arguments of eval_detection_coco (``kind='bbox'``) or
    eval_instance_segmentation_coco (``'mask'``): six images, noisy copies
    of the ground truths and stray predictions, three classes, some crowd
    regions, objects of all sizes for boxes."""
    rng = numpy.random.RandomState(seed)
    scale = 150 if kind == 'bbox' else SIZE - 8
    case = {key: [] for key in ('pred_regions', 'pred_labels', 'pred_scores',
                                'gt_regions', 'gt_labels', 'gt_areas',
                                'gt_crowdeds')}
    for _ in range(6):
        n_gt, n_stray = rng.randint(0, 5), rng.randint(0, 6)
        gt_bbox = _boxes(rng, n_gt, scale)
        pred_bbox = numpy.concatenate([
            _valid(gt_bbox + rng.normal(0, scale / 20, gt_bbox.shape)),
            _boxes(rng, n_stray, scale)])
        gt_label = rng.randint(0, 3, n_gt)
        pred_label = numpy.concatenate([gt_label, rng.randint(0, 4, n_stray)])
        if kind == 'mask':
            gt_region, pred_region = _masks(gt_bbox), _masks(pred_bbox)
            gt_area = gt_region.sum(axis=(1, 2)).astype(numpy.float64)
        else:
            gt_region, pred_region = gt_bbox, pred_bbox
            gt_area = (gt_bbox[:, 2] - gt_bbox[:, 0]) * \
                (gt_bbox[:, 3] - gt_bbox[:, 1])
        case['gt_regions'].append(gt_region)
        case['gt_labels'].append(gt_label.astype(numpy.int32))
        case['gt_areas'].append(gt_area)
        case['gt_crowdeds'].append(rng.rand(n_gt) < 0.15)
        case['pred_regions'].append(pred_region)
        case['pred_labels'].append(pred_label.astype(numpy.int32))
        # Distinct scores: ties would be ordered by an implementation
        # detail.
        case['pred_scores'].append(rng.permutation(len(pred_label)) / 10
                                   + rng.rand())
    regions = 'bboxes' if kind == 'bbox' else 'masks'
    return {key.replace('regions', regions): value
            for key, value in case.items()}


def _boxes(rng, n, scale):
    y_x = rng.uniform(0, scale, (n, 2))
    return numpy.concatenate([y_x, y_x + rng.uniform(2, scale, (n, 2))],
                             axis=1)


def _valid(bbox):
    return numpy.concatenate([numpy.minimum(bbox[:, :2], bbox[:, 2:]),
                              numpy.maximum(bbox[:, :2], bbox[:, 2:])],
                             axis=1)


def _masks(bbox):
    masks = numpy.zeros((len(bbox), SIZE, SIZE), dtype=bool)
    corners = numpy.clip(bbox, 0, SIZE - 1).astype(int)
    for mask, (y_min, x_min, y_max, x_max) in zip(masks, corners):
        mask[y_min:y_max + 1, x_min:x_max + 1] = True
    return masks


def reference_stats(case, kind):
    """The twelve summaries of pycocotools' COCOeval (-1 where there is
    nothing to evaluate)."""
    from pycocotools import mask as mask_utils
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    def region(value):
        if kind == 'bbox':
            y_min, x_min, y_max, x_max = (float(v) for v in value)
            return {'bbox': [x_min, y_min, x_max - x_min, y_max - y_min]}
        return {'segmentation': mask_utils.encode(
            numpy.asfortranarray(value.astype(numpy.uint8)))}

    regions = 'bboxes' if kind == 'bbox' else 'masks'
    n_image = len(case['gt_labels'])
    areas = case['gt_areas']
    crowdeds = case['gt_crowdeds'] or [
        numpy.zeros(len(label), bool) for label in case['gt_labels']]
    images, annotations, results = [], [], []
    for i in range(n_image):
        images.append({'id': i + 1, 'height': SIZE, 'width': SIZE})
        for k, label in enumerate(case['gt_labels'][i]):
            annotations.append(dict(
                region(case['gt_' + regions][i][k]), id=len(annotations) + 1,
                image_id=i + 1, category_id=int(label) + 1,
                area=float(areas[i][k]), iscrowd=int(crowdeds[i][k])))
        for k, label in enumerate(case['pred_labels'][i]):
            results.append(dict(
                region(case['pred_' + regions][i][k]), image_id=i + 1,
                category_id=int(label) + 1,
                score=float(case['pred_scores'][i][k])))
    labels = numpy.unique(numpy.concatenate(
        list(case['gt_labels']) + list(case['pred_labels'])))
    gt = COCO()
    gt.dataset = {'images': images, 'annotations': annotations,
                  'categories': [{'id': int(label) + 1} for label in labels]}
    with contextlib.redirect_stdout(io.StringIO()):
        gt.createIndex()
        evaluation = COCOeval(gt, gt.loadRes(results),
                              'bbox' if kind == 'bbox' else 'segm')
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()
    return evaluation.stats
