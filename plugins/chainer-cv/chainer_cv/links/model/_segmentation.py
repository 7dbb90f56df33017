"""What the ``predict`` of the semantic segmentation models share."""
import numpy

import chainer_core as chainer
import chainer_core.functions as F


def resize(x, size):
    """``x`` (a batch, or one CHW image as an array) resized bilinearly
    with pixel centres aligned, as ChainerCV's resize does."""
    if x.ndim == 3:
        return F.resize_images(x[None], size, align_corners=False).array[0]
    return F.resize_images(x, size, align_corners=False)


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
