"""Utilities with ChainerCV's API (``chainercv.utils``): image files, box
and mask geometry, non-maximum suppression, batch application over
iterators, pre-trained weights and test assertions."""
from chainer_cv.utils.apply_to_iterator import apply_to_iterator  # NOQA
from chainer_cv.utils.bbox_iou import bbox_iou  # NOQA
from chainer_cv.utils.convert_bbox import convert_bbox  # NOQA
from chainer_cv.utils.generate_random_bbox import generate_random_bbox  # NOQA
from chainer_cv.utils.link import download_model  # NOQA
from chainer_cv.utils.link import model_path  # NOQA
from chainer_cv.utils.link import prepare_pretrained_model  # NOQA
from chainer_cv.utils.mask_iou import mask_iou  # NOQA
from chainer_cv.utils.mask_to_bbox import mask_to_bbox  # NOQA
from chainer_cv.utils.non_maximum_suppression import (  # NOQA
    non_maximum_suppression, non_maximum_suppression_batched)
from chainer_cv.utils.progress_hook import ProgressHook  # NOQA
from chainer_cv.utils.read_image import read_image, read_label  # NOQA
from chainer_cv.utils.scale_mask import scale_mask  # NOQA
from chainer_cv.utils.tile_images import tile_images  # NOQA
from chainer_cv.utils.unzip import unzip  # NOQA
from chainer_cv.utils.write_image import write_image  # NOQA
from chainer_cv.utils.testing import (  # NOQA
    assert_is_bbox, assert_is_bbox_dataset, assert_is_detection_link,
    assert_is_image, assert_is_instance_segmentation_dataset,
    assert_is_instance_segmentation_link, assert_is_label_dataset,
    assert_is_point, assert_is_point_dataset,
    assert_is_semantic_segmentation_dataset,
    assert_is_semantic_segmentation_link, ConstantStubLink)
