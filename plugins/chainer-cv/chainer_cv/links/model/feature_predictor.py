import numpy

import chainer_core as chainer


def _pair(value):
    return tuple(value) if isinstance(value, (tuple, list)) else \
        (value, value)


def _linear_axis(size_in, size_out):
    """(low, high, frac): the pixel pairs and weights of a resize of one
    axis, pixel centres mapped onto pixel centres."""
    pos = (numpy.arange(size_out) + 0.5) * size_in / size_out - 0.5
    pos = numpy.clip(pos, 0, size_in - 1)
    low = numpy.floor(pos).astype(numpy.int64)
    high = numpy.minimum(low + 1, size_in - 1)
    return low, high, (pos - low).astype(numpy.float32)


def _resize(img, size):
    """A CHW image resized bilinearly to ``size`` ``(H, W)``."""
    y0, y1, fy = _linear_axis(img.shape[1], size[0])
    x0, x1, fx = _linear_axis(img.shape[2], size[1])
    rows = img[:, y0] * (1 - fy)[:, None] + img[:, y1] * fy[:, None]
    return (rows[:, :, x0] * (1 - fx) + rows[:, :, x1] * fx).astype(
        img.dtype)


def _scaled(img, scale_size):
    """A CHW image scaled as ChainerCV's scale (an int: the shorter side
    to it, keeping the aspect ratio) or resized (a pair ``(H, W)``)."""
    if scale_size is None:
        return img
    if isinstance(scale_size, (tuple, list)):
        return _resize(img, tuple(scale_size))
    h, w = img.shape[1:]
    if h < w:
        size = (scale_size, int(scale_size * w / h))
    else:
        size = (int(scale_size * h / w), scale_size)
    return _resize(img, size)


def _crops(img, crop_size, crop):
    """(n_crop, C, crop_h, crop_w): the center crop, or the ten crops (the
    four corners, the center and their mirror images)."""
    crop_h, crop_w = crop_size
    h, w = img.shape[1:]
    if crop_h > h or crop_w > w:
        raise ValueError('FeaturePredictor: crop_size {} is larger than the '
                         'scaled image ({}, {})'.format(crop_size, h, w))
    top, left = (h - crop_h) // 2, (w - crop_w) // 2
    if crop == 'center':
        return img[None, :, top:top + crop_h, left:left + crop_w]
    corners = [(0, 0), (0, w - crop_w), (h - crop_h, 0),
               (h - crop_h, w - crop_w), (top, left)]
    five = [img[:, y:y + crop_h, x:x + crop_w] for y, x in corners]
    return numpy.stack(five + [c[:, :, ::-1] for c in five])


class FeaturePredictor(chainer.Chain):
    """Predicts features of images with a feature extractor.

    Each image is scaled (``scale_size``), cropped (``crop``) to
    ``crop_size``, its mean subtracted, and fed to ``extractor``; the
    features of an image's crops are averaged.

    Args:
        extractor (chainer.Link): the feature extractor, a callable
            taking a batch of images ``(B, C, H, W)`` and returning one
            array or a tuple of arrays.
        crop_size (int or pair of ints): the size ``(H, W)`` of a crop.
        scale_size (int, pair of ints or None): an int scales the shorter
            side of an image to it keeping the aspect ratio; a pair
            ``(H, W)`` resizes to it; None leaves the image.
        crop ({'center', '10'}): one center crop, or ten crops (the four
            corners, the center and their horizontal flips).
        mean (numpy.ndarray): the mean subtracted, ``(C, 1, 1)`` or
            ``(C, H, W)``; by default ``extractor.mean``.
    """

    def __init__(self, extractor, crop_size, scale_size=None, crop='center',
                 mean=None):
        super().__init__()
        if crop not in ('center', '10'):
            raise ValueError("FeaturePredictor: crop must be 'center' or "
                             "'10', got {!r}".format(crop))
        self.scale_size = scale_size
        self.crop_size = _pair(crop_size)
        self.crop = crop
        with self.init_scope():
            self.extractor = extractor
        self.mean = getattr(extractor, 'mean', None) if mean is None \
            else mean

    def _prepare(self, img):
        img = _scaled(numpy.asarray(img, numpy.float32), self.scale_size)
        crops = _crops(img, self.crop_size, self.crop)
        if self.mean is not None:
            crops = crops - numpy.asarray(self.mean, numpy.float32)
        return crops.astype(numpy.float32)

    def predict(self, imgs):
        """Features of images.

        Args:
            imgs (iterable of numpy.ndarray): CHW images, RGB, float in
                ``[0, 255]``; their sizes may differ.

        Returns:
            numpy.ndarray or tuple of numpy.ndarray: the features, the
            first axis indexing the images; a tuple when the extractor
            returns one.
        """
        crops = numpy.stack([self._prepare(img) for img in imgs])
        n_img, n_crop = crops.shape[:2]
        x = self.device.send(crops.reshape((-1,) + crops.shape[2:]))
        with chainer.using_config('train', False), \
                chainer.no_backprop_mode():
            features = self.extractor(x)
        cpu = chainer.backend.CpuDevice()
        single = not isinstance(features, tuple)
        outputs = []
        for feature in ((features,) if single else features):
            array = numpy.asarray(cpu.send(feature.array))
            array = array.reshape((n_img, n_crop) + array.shape[1:])
            outputs.append(array.mean(axis=1))
        return outputs[0] if single else tuple(outputs)
