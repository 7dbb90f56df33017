"""MS COCO: bounding boxes and instance segmentation, read from the
``instances_*.json`` annotation files with the standard library."""
import collections
import os

import numpy

from chainer_cv.chainer_experimental.datasets.sliceable import GetterDataset
from chainer_cv.datasets import _download
from chainer_cv.datasets import _io
from chainer_cv.datasets import _masks

coco_bbox_label_names = (
    'person', 'bicycle', 'car', 'motorcycle', 'airplane', 'bus', 'train',
    'truck', 'boat', 'traffic light', 'fire hydrant', 'stop sign',
    'parking meter', 'bench', 'bird', 'cat', 'dog', 'horse', 'sheep', 'cow',
    'elephant', 'bear', 'zebra', 'giraffe', 'backpack', 'umbrella',
    'handbag', 'tie', 'suitcase', 'frisbee', 'skis', 'snowboard',
    'sports ball', 'kite', 'baseball bat', 'baseball glove', 'skateboard',
    'surfboard', 'tennis racket', 'bottle', 'wine glass', 'cup', 'fork',
    'knife', 'spoon', 'bowl', 'banana', 'apple', 'sandwich', 'orange',
    'broccoli', 'carrot', 'hot dog', 'pizza', 'donut', 'cake', 'chair',
    'couch', 'potted plant', 'bed', 'dining table', 'toilet', 'tv',
    'laptop', 'mouse', 'remote', 'keyboard', 'cell phone', 'microwave',
    'oven', 'toaster', 'sink', 'refrigerator', 'book', 'clock', 'vase',
    'scissors', 'teddy bear', 'hair drier', 'toothbrush')
coco_instance_segmentation_label_names = coco_bbox_label_names

_ROOT = 'pfnet/chainercv/coco'
_IMAGE_URLS = {
    '2014': {'train': 'http://images.cocodataset.org/zips/train2014.zip',
             'val': 'http://images.cocodataset.org/zips/val2014.zip'},
    '2017': {'train': 'http://images.cocodataset.org/zips/train2017.zip',
             'val': 'http://images.cocodataset.org/zips/val2017.zip'},
}
_ANNOTATION_URLS = {
    '2014': {
        'train': 'http://images.cocodataset.org/annotations/'
                 'annotations_trainval2014.zip',
        'val': 'http://images.cocodataset.org/annotations/'
               'annotations_trainval2014.zip',
        'minival': 'https://dl.dropboxusercontent.com/s/o43o90bna78omob/'
                   'instances_minival2014.json.zip',
        'valminusminival': 'https://dl.dropboxusercontent.com/s/'
                           's3tw5zcg7395368/'
                           'instances_valminusminival2014.json.zip'},
    '2017': {
        'train': 'http://images.cocodataset.org/annotations/'
                 'annotations_trainval2017.zip',
        'val': 'http://images.cocodataset.org/annotations/'
               'annotations_trainval2017.zip'},
}


def get_coco(split, image_split, year):
    """Download and unpack the images and instance annotations of a COCO
    split if needed; return ``pfnet/chainercv/coco`` under the dataset
    root."""
    _download.get_dataset(
        os.path.join(_ROOT, 'images'), [_IMAGE_URLS[year][image_split]],
        image_split + year)
    annotation = 'instances_{}{}.json'.format(split, year)
    if split in ('minival', 'valminusminival'):
        # These archives hold the bare JSON file.
        _download.get_dataset(os.path.join(_ROOT, 'annotations'),
                              [_ANNOTATION_URLS[year][split]], annotation)
    return _download.get_dataset(
        _ROOT, [_ANNOTATION_URLS[year][split]],
        os.path.join('annotations', annotation))


class _COCOInstancesDataset(GetterDataset):
    """Images and instance annotations of COCO, shared by the bounding box
    and the instance segmentation data sets."""

    def __init__(self, data_dir, split, year, use_crowded):
        super().__init__()
        owner = type(self).__name__
        _io.check_choice(owner, 'year', year, ('2014', '2017'))
        splits = (('train', 'val', 'minival', 'valminusminival')
                  if year == '2014' else ('train', 'val'))
        _io.check_choice(owner, 'split', split, splits)
        image_split = 'train' if split == 'train' else 'val'
        if data_dir == 'auto':
            data_dir = get_coco(split, image_split, year)
        self.data_dir = data_dir
        self.image_dir = os.path.join(data_dir, 'images',
                                      image_split + year)
        path = _io.require(os.path.join(
            data_dir, 'annotations', 'instances_{}{}.json'.format(
                split, year)), owner, data_dir)
        self._read_annotations(_io.load_json(path, owner), path)
        self.use_crowded = use_crowded
        self.add_getter('img', self._get_image)

    def _read_annotations(self, data, path):
        owner = type(self).__name__
        try:
            self.images = [
                {'id': image['id'], 'file_name': str(image['file_name']),
                 'height': int(image['height']),
                 'width': int(image['width'])}
                for image in data['images']]
            category_ids = sorted(c['id'] for c in data['categories'])
            self.annotations = collections.defaultdict(list)
            for annotation in data['annotations']:
                self.annotations[annotation['image_id']].append(annotation)
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(
                '{}: the annotation file {} lacks the expected COCO fields '
                '(images with id, file_name, height, width; categories with '
                'id; annotations with image_id): {!r}'
                .format(owner, path, e)) from e
        self._labels = {c: label for label, c in enumerate(category_ids)}
        self._path = path

    def __len__(self):
        return len(self.images)

    def _get_image(self, i):
        return _io.read_image(_io.join_inside(
            self.image_dir, self.images[i]['file_name'],
            type(self).__name__))

    def _get_instances(self, i, with_masks):
        """The kept instances of an image: bbox, label, area, crowded and,
        if asked, masks, boxes clipped to the image and empty ones
        dropped."""
        image = self.images[i]
        height, width = image['height'], image['width']
        annotations = self.annotations.get(image['id'], [])
        try:
            if not self.use_crowded:
                annotations = [a for a in annotations
                               if not a.get('iscrowd', 0)]
            label = numpy.array(
                [self._labels[a['category_id']] for a in annotations],
                dtype=numpy.int32)
            bbox = numpy.array([a['bbox'] for a in annotations],
                               dtype=numpy.float32).reshape(-1, 4)
            area = numpy.array([a.get('area', 0) for a in annotations],
                               dtype=numpy.float32)
            crowded = numpy.array([bool(a.get('iscrowd', 0))
                                   for a in annotations], dtype=bool)
            masks = None
            if with_masks:
                masks = numpy.array(
                    [self._decode(a['segmentation'], height, width)
                     for a in annotations],
                    dtype=bool).reshape(-1, height, width)
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(
                '{}: the annotation file {} has an invalid annotation for '
                'image {}: {!r}'.format(type(self).__name__, self._path,
                                        image['id'], e)) from e
        # (x, y, w, h) -> (y_min, x_min, y_max, x_max), inside the image.
        bbox = numpy.stack([
            bbox[:, 1], bbox[:, 0],
            bbox[:, 1] + bbox[:, 3], bbox[:, 0] + bbox[:, 2]], axis=1)
        bbox = numpy.clip(bbox, 0, [height, width, height, width])
        bbox = bbox.astype(numpy.float32)
        keep = (bbox[:, 2] > bbox[:, 0]) & (bbox[:, 3] > bbox[:, 1])
        if masks is not None:
            masks = masks[keep]
        return bbox[keep], label[keep], area[keep], crowded[keep], masks

    @staticmethod
    def _decode(segmentation, height, width):
        if isinstance(segmentation, dict):
            return _masks.rle_to_mask(segmentation, height, width)
        mask = numpy.zeros((height, width), dtype=bool)
        for polygon in segmentation:
            mask |= _masks.polygon_to_mask(
                numpy.reshape(polygon, (-1, 2)), height, width)
        return mask


class COCOBboxDataset(_COCOInstancesDataset):
    """Bounding boxes of `MS COCO`_.

    .. _`MS COCO`: https://cocodataset.org/

    Args:
        data_dir (str): a directory with ``annotations/instances_<split>
            <year>.json`` and ``images/<train|val><year>/``; ``'auto'``
            downloads them under
            ``$CHAINER_DATASET_ROOT/pfnet/chainercv/coco``.
        split ({'train', 'val', 'minival', 'valminusminival'}): the split
            (``'minival'`` and ``'valminusminival'`` for 2014 only).
        year ({'2017', '2014'}): the edition.
        use_crowded (bool): keep the crowd annotations.
        return_area (bool): add the key ``'area'`` (float32 ``(R,)``, the
            area of each mask).
        return_crowded (bool): add the key ``'crowded'`` (bool ``(R,)``).

    The keys are ``'img'`` (float32 ``(3, H, W)``), ``'bbox'`` (float32
    ``(R, 4)``, clipped to the image, empty boxes dropped) and ``'label'``
    (int32 ``(R,)``, indices in :obj:`coco_bbox_label_names`, in the order
    of the category ids), then the optional keys.
    """

    def __init__(self, data_dir='auto', split='train', year='2017',
                 use_crowded=False, return_area=False, return_crowded=False):
        super().__init__(data_dir, split, year, use_crowded)
        self.add_getter(('bbox', 'label', 'area', 'crowded'),
                        self._get_annotations)
        keys = ('img', 'bbox', 'label')
        if return_area:
            keys += ('area',)
        if return_crowded:
            keys += ('crowded',)
        self.keys = keys

    def _get_annotations(self, i):
        return self._get_instances(i, False)[:4]


class COCOInstanceSegmentationDataset(_COCOInstancesDataset):
    """Instance segmentation of `MS COCO`_.

    .. _`MS COCO`: https://cocodataset.org/

    Polygons and run-length encodings (compressed or not) are decoded here;
    pycocotools is not needed.

    Args:
        data_dir (str): as for :class:`COCOBboxDataset`.
        split (str): as for :class:`COCOBboxDataset`.
        year ({'2017', '2014'}): the edition.
        use_crowded (bool): keep the crowd annotations.
        return_crowded (bool): add the key ``'crowded'`` (bool ``(R,)``).
        return_area (bool): add the key ``'area'`` (float32 ``(R,)``).
        return_bbox (bool): add the key ``'bbox'`` (float32 ``(R, 4)``).

    The keys are ``'img'`` (float32 ``(3, H, W)``), ``'mask'`` (bool
    ``(R, H, W)``) and ``'label'`` (int32 ``(R,)``, indices in
    :obj:`coco_instance_segmentation_label_names`), then ``'area'``,
    ``'crowded'`` and ``'bbox'`` as asked.
    """

    def __init__(self, data_dir='auto', split='train', year='2017',
                 use_crowded=False, return_crowded=False, return_area=False,
                 return_bbox=False):
        super().__init__(data_dir, split, year, use_crowded)
        self.add_getter(('mask', 'label', 'area', 'crowded', 'bbox'),
                        self._get_annotations)
        keys = ('img', 'mask', 'label')
        if return_area:
            keys += ('area',)
        if return_crowded:
            keys += ('crowded',)
        if return_bbox:
            keys += ('bbox',)
        self.keys = keys

    def _get_annotations(self, i):
        bbox, label, area, crowded, masks = self._get_instances(i, True)
        return masks, label, area, crowded, bbox
