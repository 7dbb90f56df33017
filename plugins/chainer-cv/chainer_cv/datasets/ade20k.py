"""ADE20K, as the MIT Scene Parsing Benchmark (150 classes)."""
import glob
import os

from chainer_cv.datasets import _download
from chainer_cv.datasets import _io
from chainer_cv.datasets._segmentation import PairedSegmentationDataset

# As the benchmark names them (a few names keep a trailing space).
ade20k_semantic_segmentation_label_names = (
    'wall', 'edifice', 'sky', 'flooring', 'tree', 'ceiling', 'route',
    'bed ', 'window ', 'grass', 'cabinet', 'pavement', 'soul', 'ground',
    'door', 'table', 'mount', 'life', 'pall', 'chair', 'motorcar', 'water',
    'picture', 'lounge', 'shelf', 'house', 'sea', 'mirror', 'carpeting',
    'field', 'armchair', 'seat', 'fencing', 'desk', 'stone', 'press',
    'lamp', 'tub', 'rail', 'cushion', 'stand', 'box', 'pillar', 'sign',
    'dresser', 'counter', 'sand', 'sink', 'skyscraper', 'fireplace',
    'icebox', 'stand', 'path', 'steps', 'runway', 'vitrine', 'table',
    'pillow', 'screen', 'staircase', 'river', 'span', 'bookcase', 'screen',
    'table', 'throne', 'flower', 'book', 'hill', 'bench', 'countertop',
    'stove', 'tree', 'island', 'system', 'chair', 'boat', 'bar', 'machine',
    'shanty', 'vehicle', 'towel', 'source', 'motortruck', 'tower',
    'pendent', 'sunblind', 'lamp', 'kiosk', 'box', 'plane', 'track',
    'clothes', 'pole', 'soil', 'handrail', 'stairway', 'hassock', 'bottle',
    'sideboard', 'card', 'stage', 'van', 'ship', 'fountain', 'transporter',
    'canopy', 'machine', 'toy', 'natatorium', 'stool', 'cask',
    'handbasket', 'falls', 'shelter', 'bag', 'motorbike', 'cradle', 'oven',
    'ball', 'food', 'stair', 'tank', 'marque', 'oven', 'flowerpot', 'fauna',
    'cycle ', 'lake', 'machine', 'screen', 'cover', 'sculpture', 'hood',
    'sconce', 'vase', 'stoplight', 'tray', 'bin', 'fan', 'dock', 'screen',
    'plate', 'device', 'board', 'shower', 'radiator', 'glass', 'clock',
    'flag')

_ROOT = 'pfnet/chainercv/ade20k'
_URL = 'http://data.csail.mit.edu/places/ADEchallenge/ADEChallengeData2016.zip'
_BASE = 'ADEChallengeData2016'


def get_ade20k():
    """Download and unpack the benchmark if needed; return the directory
    that holds ``ADEChallengeData2016``."""
    return _download.get_dataset(_ROOT, [_URL], _BASE)


class ADE20KSemanticSegmentationDataset(PairedSegmentationDataset):
    """Semantic segmentation of `ADE20K`_ (the Scene Parsing Benchmark).

    .. _`ADE20K`: http://sceneparsing.csail.mit.edu/

    Args:
        data_dir (str): the directory that holds ``ADEChallengeData2016``;
            ``'auto'`` downloads it under
            ``$CHAINER_DATASET_ROOT/pfnet/chainercv/ade20k``.
        split ({'train', 'val'}): the split.

    The keys are ``'img'`` (float32 ``(3, H, W)``) and ``'label'`` (int32
    ``(H, W)``, indices in :obj:`ade20k_semantic_segmentation_label_names`,
    -1 for "other").
    """

    def __init__(self, data_dir='auto', split='train'):
        super().__init__()
        owner = type(self).__name__
        _io.check_choice(owner, 'split', split, ('train', 'val'))
        if data_dir == 'auto':
            data_dir = get_ade20k()
        self.data_dir = data_dir
        folder = 'training' if split == 'train' else 'validation'
        img_dir = _io.require(os.path.join(data_dir, _BASE, 'images', folder),
                              owner, data_dir)
        label_dir = _io.require(
            os.path.join(data_dir, _BASE, 'annotations', folder),
            owner, data_dir)
        self.img_paths = sorted(glob.glob(os.path.join(img_dir, '*.jpg')))
        for img in self.img_paths:
            name = os.path.splitext(os.path.basename(img))[0] + '.png'
            self.label_paths.append(
                _io.require(os.path.join(label_dir, name), owner, data_dir))

    def _convert_label(self, label):
        # 0 is "other", left out of the 150 classes.
        return label - 1
