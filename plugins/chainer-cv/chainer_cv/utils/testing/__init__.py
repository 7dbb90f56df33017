"""Assertions and stand-ins for testing code written with ChainerCV's
conventions (``chainercv.utils.testing``)."""
from chainer_cv.utils.generate_random_bbox import generate_random_bbox  # NOQA
from chainer_cv.utils.testing.assert_is_bbox import assert_is_bbox  # NOQA
from chainer_cv.utils.testing.assert_is_dataset import (  # NOQA
    assert_is_bbox_dataset, assert_is_instance_segmentation_dataset,
    assert_is_label_dataset, assert_is_point_dataset,
    assert_is_semantic_segmentation_dataset)
from chainer_cv.utils.testing.assert_is_image import assert_is_image  # NOQA
from chainer_cv.utils.testing.assert_is_link import (  # NOQA
    assert_is_detection_link, assert_is_instance_segmentation_link,
    assert_is_semantic_segmentation_link)
from chainer_cv.utils.testing.assert_is_point import assert_is_point  # NOQA
from chainer_cv.utils.testing.constant_stub_link import (  # NOQA
    ConstantStubLink)
