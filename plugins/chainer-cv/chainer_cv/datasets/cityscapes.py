"""Cityscapes: semantic segmentation of street scenes (19 evaluated
classes)."""
import glob
import os

import numpy

from chainer_core.dataset import download

from chainer_cv.datasets import _io
from chainer_cv.datasets._segmentation import PairedSegmentationDataset

cityscapes_semantic_segmentation_label_names = (
    'road', 'sidewalk', 'building', 'wall', 'fence', 'pole',
    'traffic light', 'traffic sign', 'vegetation', 'terrain', 'sky',
    'person', 'rider', 'car', 'truck', 'bus', 'train', 'motorcycle',
    'bicycle')
cityscapes_semantic_segmentation_label_colors = (
    (128, 64, 128), (244, 35, 232), (70, 70, 70), (102, 102, 156),
    (190, 153, 153), (153, 153, 153), (250, 170, 30), (220, 220, 0),
    (107, 142, 35), (152, 251, 152), (70, 130, 180), (220, 20, 60),
    (255, 0, 0), (0, 0, 142), (0, 0, 70), (0, 60, 100), (0, 80, 100),
    (0, 0, 230), (119, 11, 32))

# The labelIds of the evaluated classes, in the order of their trainIds.
_EVALUATED_LABEL_IDS = (7, 8, 11, 12, 13, 17, 19, 20, 21, 22, 23, 24, 25,
                        26, 27, 28, 31, 32, 33)
_TRAIN_IDS = numpy.full(256, -1, dtype=numpy.int32)
_TRAIN_IDS[list(_EVALUATED_LABEL_IDS)] = numpy.arange(
    len(_EVALUATED_LABEL_IDS))

_ROOT = 'pfnet/chainercv/cityscapes'
_SPLITS = {'fine': ('train', 'val', 'test'),
           'coarse': ('train', 'train_extra', 'val')}


class CityscapesSemanticSegmentationDataset(PairedSegmentationDataset):
    """Semantic segmentation of `Cityscapes`_.

    .. _`Cityscapes`: https://www.cityscapes-dataset.com/

    Cityscapes needs a login to download, so it is never downloaded here:
    put ``leftImg8bit`` and ``gtFine`` (or ``gtCoarse``) in ``data_dir``.

    Args:
        data_dir (str): the directory with ``leftImg8bit`` and the ground
            truth; ``'auto'`` means
            ``$CHAINER_DATASET_ROOT/pfnet/chainercv/cityscapes``.
        label_resolution ({'fine', 'coarse'}): which annotations to read.
        split ({'train', 'val', 'test', 'train_extra'}): the split
            (``'test'`` with fine labels, ``'train_extra'`` with coarse).
        ignore_labels (bool): map the ``labelIds`` to the indices of the 19
            evaluated classes (the ``trainIds``), other pixels to -1; if
            false, return the ``labelIds`` as they are.

    The keys are ``'img'`` (float32 ``(3, H, W)``) and ``'label'`` (int32
    ``(H, W)``).
    """

    def __init__(self, data_dir='auto', label_resolution=None,
                 split='train', ignore_labels=True):
        super().__init__()
        owner = type(self).__name__
        _io.check_choice(owner, 'label_resolution', label_resolution,
                         ('fine', 'coarse'))
        _io.check_choice(owner, 'split', split, _SPLITS[label_resolution])
        if data_dir == 'auto':
            data_dir = download.get_dataset_directory(_ROOT)
        self.data_dir = data_dir
        self.ignore_labels = ignore_labels
        ground_truth = 'gtFine' if label_resolution == 'fine' else 'gtCoarse'
        img_dir = _io.require(os.path.join(data_dir, 'leftImg8bit', split),
                              owner, data_dir)
        label_dir = _io.require(os.path.join(data_dir, ground_truth, split),
                                owner, data_dir)
        suffix = '_{}_labelIds.png'.format(ground_truth)
        for label in sorted(glob.glob(
                os.path.join(label_dir, '*', '*' + suffix))):
            city = os.path.basename(os.path.dirname(label))
            name = os.path.basename(label)[:-len(suffix)] + '_leftImg8bit.png'
            self.label_paths.append(label)
            self.img_paths.append(_io.require(
                os.path.join(img_dir, city, name), owner, data_dir))

    def _convert_label(self, label):
        if self.ignore_labels:
            return _TRAIN_IDS[label]
        return label
