"""Checks that a model's ``predict`` follows ChainerCV's conventions.

Each check feeds two random images of different sizes and checks the
outputs for each.
"""
import numpy

from chainer_cv.utils.testing._require import (require, require_array,
                                               require_labels)
from chainer_cv.utils.testing.assert_is_bbox import assert_is_bbox


def _random_images():
    return [numpy.random.randint(0, 256, size=(3, H, W)).astype(numpy.float32)
            for H, W in ((48, 64), (32, 40))]


def _outputs(link, imgs, n):
    result = link.predict(imgs)
    require(isinstance(result, tuple) and len(result) == n,
            'link.predict must return a tuple of {} values; got {!r}', n,
            type(result).__name__)
    for values in result:
        require(len(values) == len(imgs), 'link.predict must give one value '
                'per image ({}); got {}', len(imgs), len(values))
    return zip(*result)


def _require_scores(score, n):
    require_array(score, 'score', numpy.float32)
    require(score.shape == (n,), 'score must have shape ({},); got {}', n,
            score.shape)


def assert_is_detection_link(link, n_fg_class):
    """Check ``link.predict(imgs) -> (bboxes, labels, scores)``.

    Each image's boxes pass :func:`assert_is_bbox`, its labels are
    ``int32`` in :math:`[0, n_{fg\\_class})` and its scores ``float32``,
    one per box.
    """
    for bbox, label, score in _outputs(link, _random_images(), 3):
        assert_is_bbox(bbox)
        require_labels(label, 'label', n_fg_class)
        require(label.shape == (len(bbox),), 'label must have shape ({},); '
                'got {}', len(bbox), label.shape)
        _require_scores(score, len(bbox))


def assert_is_instance_segmentation_link(link, n_fg_class):
    """Check ``link.predict(imgs) -> (masks, labels, scores)``.

    Each image's masks are boolean of shape :math:`(R, H, W)` matching the
    image, its labels ``int32`` in :math:`[0, n_{fg\\_class})` and its
    scores ``float32``.
    """
    imgs = _random_images()
    for img, (mask, label, score) in zip(imgs, _outputs(link, imgs, 3)):
        require_array(mask, 'mask', numpy.bool_, ndim=3)
        require(mask.shape[1:] == img.shape[1:], 'mask must have shape '
                '(R, {}, {}); got {}', *img.shape[1:], mask.shape)
        require_labels(label, 'label', n_fg_class)
        require(label.shape == (len(mask),), 'label must have shape ({},); '
                'got {}', len(mask), label.shape)
        _require_scores(score, len(mask))


def assert_is_semantic_segmentation_link(link, n_class):
    """Check ``link.predict(imgs) -> labels``: one ``int32`` map of shape
    :math:`(H, W)` per image, with values in :math:`[0, n_{class})`."""
    imgs = _random_images()
    labels = link.predict(imgs)
    require(len(labels) == len(imgs), 'link.predict must give one label per '
            'image ({}); got {}', len(imgs), len(labels))
    for img, label in zip(imgs, labels):
        require_labels(label, 'label', n_class)
        require(label.shape == img.shape[1:], 'label must have shape {}; '
                'got {}', img.shape[1:], label.shape)
