"""Checks that a dataset gives examples in ChainerCV's formats.

Each check reads every example, or ``n_example`` of them drawn at random,
and raises :class:`AssertionError` at the first one that does not fit.
"""
import numpy

from chainer_cv.utils.testing._require import (examples, require,
                                               require_array, require_labels)
from chainer_cv.utils.testing.assert_is_bbox import assert_is_bbox
from chainer_cv.utils.testing.assert_is_image import assert_is_image
from chainer_cv.utils.testing.assert_is_point import assert_is_point


def _example(dataset, i, n_value, names):
    example = dataset[i]
    require(isinstance(example, tuple) and len(example) >= n_value,
            'dataset[{}] must be a tuple starting with {}; got {}', i,
            ', '.join(names), type(example).__name__)
    return example


def assert_is_label_dataset(dataset, n_class, n_example=None, color=True):
    """Check an image classification dataset: ``(img, label)`` examples.

    ``img`` passes :func:`assert_is_image` and ``label`` is an ``int32``
    scalar in :math:`[0, n_{class})`.

    Args:
        dataset: The dataset.
        n_class (int): The number of classes.
        n_example (int): How many random examples to check; all when
            :obj:`None`.
        color (bool): Whether the images are in colour.
    """
    for i in examples(dataset, n_example):
        img, label = _example(dataset, i, 2, ('img', 'label'))[:2]
        assert_is_image(img, color=color)
        require(isinstance(label, numpy.int32), 'label of dataset[{}] must '
                'be a numpy.int32; got {}', i, type(label).__name__)
        require(0 <= label < n_class, 'label of dataset[{}] must be in '
                '[0, {}); got {}', i, n_class, label)


def assert_is_bbox_dataset(dataset, n_fg_class, n_example=None):
    """Check a detection dataset: ``(img, bbox, label, ...)`` examples.

    ``img`` passes :func:`assert_is_image`, ``bbox`` passes
    :func:`assert_is_bbox` inside the image and ``label`` is ``int32`` of
    shape :math:`(R,)` in :math:`[0, n_{fg\\_class})`.
    """
    for i in examples(dataset, n_example):
        img, bbox, label = _example(dataset, i, 3,
                                    ('img', 'bbox', 'label'))[:3]
        assert_is_image(img, color=True)
        assert_is_bbox(bbox, size=img.shape[1:])
        require_labels(label, 'label', n_fg_class)
        require(label.shape == (len(bbox),), 'label of dataset[{}] must have '
                'shape ({},); got {}', i, len(bbox), label.shape)


def assert_is_semantic_segmentation_dataset(dataset, n_class,
                                            n_example=None):
    """Check a semantic segmentation dataset: ``(img, label)`` examples.

    ``label`` is ``int32`` of shape :math:`(H, W)` with values in
    :math:`[-1, n_{class})`, :math:`-1` marking pixels to ignore.
    """
    for i in examples(dataset, n_example):
        img, label = _example(dataset, i, 2, ('img', 'label'))[:2]
        assert_is_image(img, color=True)
        require_labels(label, 'label', n_class, low=-1)
        require(label.shape == img.shape[1:], 'label of dataset[{}] must '
                'have shape {}; got {}', i, img.shape[1:], label.shape)


def assert_is_instance_segmentation_dataset(dataset, n_fg_class,
                                            n_example=None):
    """Check an instance segmentation dataset: ``(img, mask, label, ...)``.

    ``mask`` is boolean of shape :math:`(R, H, W)` and ``label`` is
    ``int32`` of shape :math:`(R,)` in :math:`[0, n_{fg\\_class})`.
    """
    for i in examples(dataset, n_example):
        img, mask, label = _example(dataset, i, 3,
                                    ('img', 'mask', 'label'))[:3]
        assert_is_image(img, color=True)
        require_array(mask, 'mask', numpy.bool_, ndim=3)
        require(mask.shape[1:] == img.shape[1:], 'mask of dataset[{}] must '
                'have shape (R, {}, {}); got {}', i, *img.shape[1:],
                mask.shape)
        require_labels(label, 'label', n_fg_class)
        require(label.shape == (len(mask),), 'label of dataset[{}] must have '
                'shape ({},); got {}', i, len(mask), label.shape)


def assert_is_point_dataset(dataset, n_point=None, n_example=None,
                            no_visible=False):
    """Check a keypoint dataset: ``(img, point, visible)`` examples, or
    ``(img, point)`` when ``no_visible``.

    ``point`` passes :func:`assert_is_point` with the visible points inside
    the image.
    """
    n_value = 2 if no_visible else 3
    names = ('img', 'point') if no_visible else ('img', 'point', 'visible')
    for i in examples(dataset, n_example):
        example = _example(dataset, i, n_value, names)
        visible = None if no_visible else example[2]
        assert_is_image(example[0], color=True)
        assert_is_point(example[1], visible, example[0].shape[1:], n_point)
