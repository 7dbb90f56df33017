"""PASCAL VOC: bounding boxes, semantic and instance segmentation."""
import os

import numpy

from chainer_cv.chainer_experimental.datasets.sliceable import GetterDataset
from chainer_cv.datasets import _download
from chainer_cv.datasets import _io

voc_bbox_label_names = (
    'aeroplane', 'bicycle', 'bird', 'boat', 'bottle', 'bus', 'car', 'cat',
    'chair', 'cow', 'diningtable', 'dog', 'horse', 'motorbike', 'person',
    'pottedplant', 'sheep', 'sofa', 'train', 'tvmonitor')
voc_instance_segmentation_label_names = voc_bbox_label_names
voc_semantic_segmentation_label_names = ('background',) + voc_bbox_label_names


def _voc_palette(n):
    # VOC's palette spreads the bits of the class index over the high bits
    # of the three channels.
    colors = []
    for index in range(n):
        rgb = [0, 0, 0]
        value = index
        for bit in range(7, -1, -1):
            for channel in range(3):
                rgb[channel] |= ((value >> channel) & 1) << bit
            value >>= 3
        colors.append(tuple(rgb))
    return tuple(colors)


voc_semantic_segmentation_label_colors = _voc_palette(
    len(voc_semantic_segmentation_label_names))

_ROOT = 'pfnet/chainercv/voc'
_URLS = {
    '2012': 'http://host.robots.ox.ac.uk/pascal/VOC/voc2012/'
            'VOCtrainval_11-May-2012.tar',
    '2007': 'http://host.robots.ox.ac.uk/pascal/VOC/voc2007/'
            'VOCtrainval_06-Nov-2007.tar',
    '2007_test': 'http://host.robots.ox.ac.uk/pascal/VOC/voc2007/'
                 'VOCtest_06-Nov-2007.tar',
}


def get_voc(year, split):
    """Download and unpack VOC ``year`` if needed, for ``split``; return
    ``VOCdevkit/VOC<year>`` under the dataset root."""
    key = '2007_test' if (year, split) == ('2007', 'test') else year
    base = os.path.join('VOCdevkit', 'VOC' + year)
    root = _download.get_dataset(
        _ROOT, [_URLS[key]],
        os.path.join(base, 'ImageSets', 'Main', split + '.txt'))
    return os.path.join(root, base)


class _VOCDataset(GetterDataset):
    """The ids of a split and the images of VOC."""

    def __init__(self, data_dir, split, year, splits, image_set):
        super().__init__()
        owner = type(self).__name__
        _io.check_choice(owner, 'year', year, ('2007', '2012'))
        if year == '2007' and image_set == 'Main':
            splits = splits + ('test',)
        _io.check_choice(owner, 'split', split, splits)
        if data_dir == 'auto':
            data_dir = get_voc(year, split)
        self.data_dir = data_dir
        self.ids = _io.read_lines(
            os.path.join(data_dir, 'ImageSets', image_set, split + '.txt'),
            owner, data_dir)
        self.add_getter('img', self._get_image)

    def __len__(self):
        return len(self.ids)

    def _path(self, directory, i, extension):
        return _io.join_inside(self.data_dir, '{}/{}{}'.format(
            directory, self.ids[i], extension), type(self).__name__)

    def _get_image(self, i):
        return _io.read_image(self._path('JPEGImages', i, '.jpg'))

    def _read_label(self, directory, i):
        label = _io.read_label(self._path(directory, i, '.png'))
        # 255 marks object borders and regions left unlabelled.
        label[label == 255] = -1
        return label


def parse_voc_annotation(path, owner, use_difficult=False):
    """Read the objects of a VOC annotation file.

    Returns:
        tuple: ``bbox`` float32 ``(R, 4)`` as ``(y_min, x_min, y_max,
        x_max)`` from 0, ``label`` int32 ``(R,)`` and ``difficult`` bool
        ``(R,)``; difficult objects are left out unless ``use_difficult``.
    """
    bbox, label, difficult = [], [], []
    for obj in _io.parse_xml(path, owner).iter('object'):
        try:
            is_difficult = int((obj.findtext('difficult') or '0').strip())
            if is_difficult and not use_difficult:
                continue
            name = obj.findtext('name').strip().lower()
            box = obj.find('bndbox')
            # VOC counts pixels from 1.
            coordinates = [float(box.findtext(tag)) - 1
                           for tag in ('ymin', 'xmin', 'ymax', 'xmax')]
            label.append(voc_bbox_label_names.index(name))
        except (AttributeError, TypeError, ValueError) as e:
            raise ValueError(
                '{}: the annotation file {} has an invalid object: expected '
                'a name among voc_bbox_label_names and a bndbox with xmin, '
                'ymin, xmax, ymax ({})'.format(owner, path, e)) from e
        bbox.append(coordinates)
        difficult.append(bool(is_difficult))
    return (numpy.array(bbox, dtype=numpy.float32).reshape(-1, 4),
            numpy.array(label, dtype=numpy.int32),
            numpy.array(difficult, dtype=bool))


class VOCBboxDataset(_VOCDataset):
    """Bounding boxes of `PASCAL VOC`_ 2007 and 2012.

    .. _`PASCAL VOC`: http://host.robots.ox.ac.uk/pascal/VOC/

    Args:
        data_dir (str): the ``VOCdevkit/VOC<year>`` directory; ``'auto'``
            downloads VOC under
            ``$CHAINER_DATASET_ROOT/pfnet/chainercv/voc``.
        split ({'train', 'val', 'trainval', 'test'}): the image set
            (``'test'`` for 2007 only).
        year ({'2012', '2007'}): the edition.
        use_difficult (bool): keep the objects marked difficult.
        return_difficult (bool): add the key ``'difficult'``.

    The keys are ``'img'`` (float32 ``(3, H, W)``, RGB), ``'bbox'``
    (float32 ``(R, 4)``), ``'label'`` (int32 ``(R,)``, indices in
    :obj:`voc_bbox_label_names`) and, with ``return_difficult``,
    ``'difficult'`` (bool ``(R,)``).
    """

    def __init__(self, data_dir='auto', split='train', year='2012',
                 use_difficult=False, return_difficult=False):
        super().__init__(data_dir, split, year, ('train', 'val', 'trainval'),
                         'Main')
        self.use_difficult = use_difficult
        self.add_getter(('bbox', 'label', 'difficult'),
                        self._get_annotations)
        if not return_difficult:
            self.keys = ('img', 'bbox', 'label')

    def _get_annotations(self, i):
        owner = type(self).__name__
        path = _io.require(self._path('Annotations', i, '.xml'), owner,
                           self.data_dir)
        return parse_voc_annotation(path, owner, self.use_difficult)


class VOCSemanticSegmentationDataset(_VOCDataset):
    """Semantic segmentation of `PASCAL VOC`_ 2012.

    .. _`PASCAL VOC`: http://host.robots.ox.ac.uk/pascal/VOC/

    Args:
        data_dir (str): the ``VOCdevkit/VOC2012`` directory; ``'auto'``
            downloads it.
        split ({'train', 'val', 'trainval'}): the image set.

    The keys are ``'img'`` (float32 ``(3, H, W)``) and ``'label'`` (int32
    ``(H, W)``, indices in :obj:`voc_semantic_segmentation_label_names`,
    -1 on borders and unlabelled pixels).
    """

    def __init__(self, data_dir='auto', split='train'):
        super().__init__(data_dir, split, '2012', ('train', 'val', 'trainval'),
                         'Segmentation')
        self.add_getter('label', self._get_label)

    def _get_label(self, i):
        return self._read_label('SegmentationClass', i)


class VOCInstanceSegmentationDataset(_VOCDataset):
    """Instance segmentation of `PASCAL VOC`_ 2012.

    .. _`PASCAL VOC`: http://host.robots.ox.ac.uk/pascal/VOC/

    Args:
        data_dir (str): the ``VOCdevkit/VOC2012`` directory; ``'auto'``
            downloads it.
        split ({'train', 'val', 'trainval'}): the image set.

    The keys are ``'img'`` (float32 ``(3, H, W)``), ``'mask'`` (bool
    ``(R, H, W)``, one per object of ``SegmentationObject``) and
    ``'label'`` (int32 ``(R,)``, indices in
    :obj:`voc_instance_segmentation_label_names`).
    """

    def __init__(self, data_dir='auto', split='train'):
        super().__init__(data_dir, split, '2012', ('train', 'val', 'trainval'),
                         'Segmentation')
        self.add_getter(('mask', 'label'), self._get_annotations)

    def _get_annotations(self, i):
        classes = self._read_label('SegmentationClass', i)
        objects = self._read_label('SegmentationObject', i)
        objects[classes <= 0] = -1
        masks, labels = [], []
        for instance in numpy.unique(objects):
            if instance <= 0:
                continue
            mask = objects == instance
            found = numpy.unique(classes[mask])
            if len(found) != 1:
                raise ValueError(
                    '{}: object {} of image {} spans the classes {} in '
                    'SegmentationClass; expected one'.format(
                        type(self).__name__, instance, self.ids[i],
                        found.tolist()))
            masks.append(mask)
            # Class 0 is the background, which no object has.
            labels.append(found[0] - 1)
        height, width = classes.shape
        return (numpy.array(masks, dtype=bool).reshape(-1, height, width),
                numpy.array(labels, dtype=numpy.int32))
