"""Data sets of ChainerCV (``chainercv.datasets``): loaders of public
data sets with their on-disk layouts and downloads, data set wrappers, and
a synthetic data set of shapes for offline work.

Each loader is a sliceable :class:`~chainer_cv.chainer_experimental.\
datasets.sliceable.GetterDataset`, so ``dataset.slice[:, 'label']`` reads
no image.
"""
from chainer_cv.datasets.ade20k import ade20k_semantic_segmentation_label_names  # NOQA
from chainer_cv.datasets.ade20k import ADE20KSemanticSegmentationDataset  # NOQA
from chainer_cv.datasets.camvid import camvid_ignore_label_color  # NOQA
from chainer_cv.datasets.camvid import camvid_label_colors  # NOQA
from chainer_cv.datasets.camvid import camvid_label_names  # NOQA
from chainer_cv.datasets.camvid import CamVidDataset  # NOQA
from chainer_cv.datasets.cityscapes import cityscapes_semantic_segmentation_label_colors  # NOQA
from chainer_cv.datasets.cityscapes import cityscapes_semantic_segmentation_label_names  # NOQA
from chainer_cv.datasets.cityscapes import CityscapesSemanticSegmentationDataset  # NOQA
from chainer_cv.datasets.coco import coco_bbox_label_names  # NOQA
from chainer_cv.datasets.coco import coco_instance_segmentation_label_names  # NOQA
from chainer_cv.datasets.coco import COCOBboxDataset  # NOQA
from chainer_cv.datasets.coco import COCOInstanceSegmentationDataset  # NOQA
from chainer_cv.datasets.cub import cub_label_names  # NOQA
from chainer_cv.datasets.cub import CUBLabelDataset  # NOQA
from chainer_cv.datasets.directory_parsing import directory_parsing_label_names  # NOQA
from chainer_cv.datasets.directory_parsing import DirectoryParsingLabelDataset  # NOQA
from chainer_cv.datasets.mixup_soft_label import MixUpSoftLabelDataset  # NOQA
from chainer_cv.datasets.online_products import online_products_super_label_names  # NOQA
from chainer_cv.datasets.online_products import OnlineProductsDataset  # NOQA
from chainer_cv.datasets.shapes import shapes_label_names  # NOQA
from chainer_cv.datasets.shapes import shapes_semantic_segmentation_label_names  # NOQA
from chainer_cv.datasets.shapes import ShapesDataset  # NOQA
from chainer_cv.datasets.siamese import SiameseDataset  # NOQA
from chainer_cv.datasets.voc import voc_bbox_label_names  # NOQA
from chainer_cv.datasets.voc import voc_instance_segmentation_label_names  # NOQA
from chainer_cv.datasets.voc import voc_semantic_segmentation_label_colors  # NOQA
from chainer_cv.datasets.voc import voc_semantic_segmentation_label_names  # NOQA
from chainer_cv.datasets.voc import VOCBboxDataset  # NOQA
from chainer_cv.datasets.voc import VOCInstanceSegmentationDataset  # NOQA
from chainer_cv.datasets.voc import VOCSemanticSegmentationDataset  # NOQA
