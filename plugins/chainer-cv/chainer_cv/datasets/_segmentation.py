"""The common shape of the semantic segmentation data sets: lists of image
and label files read in pairs."""
from chainer_cv.chainer_experimental.datasets.sliceable import GetterDataset
from chainer_cv.datasets import _io


class PairedSegmentationDataset(GetterDataset):
    """Keys ``'img'`` and ``'label'`` from parallel lists of files.

    A subclass fills ``img_paths`` and ``label_paths`` and may override
    :meth:`_convert_label` to map the stored values to label indices.
    """

    def __init__(self):
        super().__init__()
        self.img_paths = []
        self.label_paths = []
        self.add_getter('img', self._get_image)
        self.add_getter('label', self._get_label)

    def __len__(self):
        return len(self.img_paths)

    def _get_image(self, i):
        return _io.read_image(self.img_paths[i])

    def _get_label(self, i):
        return self._convert_label(_io.read_label(self.label_paths[i]))

    def _convert_label(self, label):
        return label
