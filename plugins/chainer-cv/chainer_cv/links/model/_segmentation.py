"""What the ``predict`` of the semantic segmentation models share."""
import numpy

import chainer_core as chainer

from chainer_cv import transforms


def resize(x, size):
    """The CHW array ``x`` (an image or class scores, on the host)
    resized bilinearly to ``size`` by :func:`chainer_cv.transforms.resize`,
    where ChainerCV's models resize with its ``transforms.resize``."""
    return transforms.resize(numpy.asarray(x, numpy.float32), size)


def label_maps(imgs, score):
    """The int32 label map ``(H, W)`` of each image: the argmax over the
    classes of ``score(img)`` (``(n_class, H, W)``), called with
    the image as float32, in test mode and without backprop."""
    labels = []
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        for img in imgs:
            img_score = score(numpy.asarray(img, numpy.float32))
            labels.append(numpy.argmax(img_score, axis=0).astype(numpy.int32))
    return labels
