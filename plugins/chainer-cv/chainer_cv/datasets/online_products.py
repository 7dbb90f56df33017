"""Stanford Online Products: product photos for metric learning."""
import os

import numpy

from chainer_cv.chainer_experimental.datasets.sliceable import GetterDataset
from chainer_cv.datasets import _download
from chainer_cv.datasets import _io

online_products_super_label_names = (
    'bicycle', 'cabinet', 'chair', 'coffee_maker', 'fan', 'kettle', 'lamp',
    'mug', 'sofa', 'stapler', 'table', 'toaster')

_ROOT = 'pfnet/chainercv/online_products'
_URL = 'ftp://cs.stanford.edu/cs/cvgl/Stanford_Online_Products.zip'
_BASE = 'Stanford_Online_Products'


def get_online_products():
    """Download and unpack the data set if needed; return its directory."""
    root = _download.get_dataset(_ROOT, [_URL],
                                 os.path.join(_BASE, 'Ebay_train.txt'))
    return os.path.join(root, _BASE)


class OnlineProductsDataset(GetterDataset):
    """`Stanford Online Products`_.

    .. _`Stanford Online Products`:
        https://cvgl.stanford.edu/projects/lifted_struct/

    Args:
        data_dir (str): the ``Stanford_Online_Products`` directory;
            ``'auto'`` downloads it under
            ``$CHAINER_DATASET_ROOT/pfnet/chainercv/online_products``.
        split ({'train', 'test'}): the split (``Ebay_<split>.txt``).

    The keys are ``'img'`` (float32 ``(3, H, W)``), ``'label'`` (int32,
    the product, from 0) and ``'super_label'`` (int32, an index in
    :obj:`online_products_super_label_names`).
    """

    def __init__(self, data_dir='auto', split='train'):
        super().__init__()
        owner = type(self).__name__
        _io.check_choice(owner, 'split', split, ('train', 'test'))
        if data_dir == 'auto':
            data_dir = get_online_products()
        self.data_dir = data_dir
        list_path = os.path.join(data_dir, 'Ebay_{}.txt'.format(split))
        # The first line names the columns:
        # image_id class_id super_class_id path.
        rows = [line.split()
                for line in _io.read_lines(list_path, owner, data_dir)[1:]]
        try:
            self.paths = [_io.join_inside(data_dir, row[3], owner)
                          for row in rows]
            self._labels = numpy.array([int(row[1]) - 1 for row in rows],
                                       dtype=numpy.int32)
            self._super_labels = numpy.array(
                [int(row[2]) - 1 for row in rows], dtype=numpy.int32)
        except (IndexError, ValueError) as e:
            raise ValueError(
                '{}: {} should have lines "image_id class_id super_class_id '
                'path" after its header: {}'.format(owner, list_path, e)) \
                from e
        self.add_getter('img', self._get_image)
        self.add_getter('label', self._labels.__getitem__)
        self.add_getter('super_label', self._super_labels.__getitem__)

    def __len__(self):
        return len(self.paths)

    def _get_image(self, i):
        return _io.read_image(self.paths[i])
