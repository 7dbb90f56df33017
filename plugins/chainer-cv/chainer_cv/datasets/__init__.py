"""Data sets of ChainerCV (``chainercv.datasets``): loaders of public
data sets with their on-disk layouts and downloads, data set wrappers, and
a synthetic data set of shapes for offline work.

Each loader is a sliceable :class:`~chainer_cv.chainer_experimental.\
datasets.sliceable.GetterDataset`, so ``dataset.slice[:, 'label']`` reads
no image.
"""
from chainer_cv.datasets.ade20k import (  # NOQA
    ade20k_semantic_segmentation_label_names,
    ADE20KSemanticSegmentationDataset,
)
from chainer_cv.datasets.camvid import (  # NOQA
    camvid_ignore_label_color,
    camvid_label_colors,
    camvid_label_names,
    CamVidDataset,
)
from chainer_cv.datasets.cityscapes import (  # NOQA
    cityscapes_semantic_segmentation_label_colors,
    cityscapes_semantic_segmentation_label_names,
    CityscapesSemanticSegmentationDataset,
)
from chainer_cv.datasets.coco import (  # NOQA
    coco_bbox_label_names,
    coco_instance_segmentation_label_names,
    COCOBboxDataset,
    COCOInstanceSegmentationDataset,
)
from chainer_cv.datasets.cub import cub_label_names, CUBLabelDataset  # NOQA
from chainer_cv.datasets.directory_parsing import (  # NOQA
    directory_parsing_label_names,
    DirectoryParsingLabelDataset,
)
from chainer_cv.datasets.mixup_soft_label import MixUpSoftLabelDataset  # NOQA
from chainer_cv.datasets.online_products import (  # NOQA
    online_products_super_label_names,
    OnlineProductsDataset,
)
from chainer_cv.datasets.shapes import (  # NOQA
    shapes_label_names,
    shapes_semantic_segmentation_label_names,
    ShapesDataset,
)
from chainer_cv.datasets.siamese import SiameseDataset  # NOQA
from chainer_cv.datasets.voc import (  # NOQA
    voc_bbox_label_names,
    voc_instance_segmentation_label_names,
    voc_semantic_segmentation_label_colors,
    voc_semantic_segmentation_label_names,
    VOCBboxDataset,
    VOCInstanceSegmentationDataset,
    VOCSemanticSegmentationDataset,
)
