"""The data augmentation of SSD."""
import numpy
import PIL.Image

from chainer_cv import transforms
from chainer_cv.utils import bbox_iou

_DEFAULT_CONSTRAINTS = ((0.1, None), (0.3, None), (0.5, None), (0.7, None),
                        (0.9, None), (None, 1))


def random_crop_with_bbox_constraints(
        img, bbox, min_scale=0.3, max_scale=1, max_aspect_ratio=2,
        constraints=None, max_trial=50, return_param=False):
    """Crop an image at random so that the crop overlaps the boxes as a
    constraint asks.

    For each constraint ``(min_iou, max_iou)`` (None: no bound) up to
    ``max_trial`` crops are drawn, of side ratio ``scale`` in ``[min_scale,
    max_scale]`` and aspect ratio in ``[1 / max_aspect_ratio,
    max_aspect_ratio]`` (kept within ``[scale ** 2, 1 / scale ** 2]``);
    the first whose IoU with every box lies in ``[min_iou, max_iou]`` is
    a candidate. The result is one of the candidates or the whole image,
    at random. Without boxes the image is returned whole.

    Args:
        img (numpy.ndarray): a CHW image.
        bbox (numpy.ndarray): ``(R, 4)`` boxes.
        min_scale, max_scale (float): the range of the scale of a crop.
        max_aspect_ratio (float): the largest aspect ratio of a crop.
        constraints (iterable of tuples): the ``(min_iou, max_iou)``
            constraints; by default SSD's ``(0.1, None), (0.3, None),
            (0.5, None), (0.7, None), (0.9, None), (None, 1)``.
        max_trial (int): the crops drawn per constraint.
        return_param (bool): also return what was drawn.

    Returns:
        numpy.ndarray or (numpy.ndarray, dict): the crop, and with
        ``return_param`` a dict of ``constraint`` (the one satisfied,
        None for the whole image), ``y_slice`` and ``x_slice`` (the
        crop, to apply to the boxes with
        :func:`chainercv.transforms.crop_bbox`).
    """
    if constraints is None:
        constraints = _DEFAULT_CONSTRAINTS
    _, H, W = img.shape
    params = [{'constraint': None,
               'y_slice': slice(0, H), 'x_slice': slice(0, W)}]
    if len(bbox) == 0:
        constraints = ()

    for min_iou, max_iou in constraints:
        min_iou = 0 if min_iou is None else min_iou
        max_iou = 1 if max_iou is None else max_iou
        for _ in range(max_trial):
            scale = numpy.random.uniform(min_scale, max_scale)
            aspect_ratio = numpy.random.uniform(
                max(1 / max_aspect_ratio, scale * scale),
                min(max_aspect_ratio, 1 / (scale * scale)))
            crop_h = int(H * scale / numpy.sqrt(aspect_ratio))
            crop_w = int(W * scale * numpy.sqrt(aspect_ratio))
            if crop_h < 1 or crop_w < 1:
                continue
            top = numpy.random.randint(0, H - crop_h + 1)
            left = numpy.random.randint(0, W - crop_w + 1)
            crop = numpy.array(
                [[top, left, top + crop_h, left + crop_w]], dtype=float)
            iou = bbox_iou(bbox, crop)
            if min_iou <= iou.min() and iou.max() <= max_iou:
                params.append({'constraint': (min_iou, max_iou),
                               'y_slice': slice(top, top + crop_h),
                               'x_slice': slice(left, left + crop_w)})
                break

    param = params[numpy.random.randint(len(params))]
    img = img[:, param['y_slice'], param['x_slice']]
    if return_param:
        return img, param
    return img


def _rgb_to_hsv(rgb):
    """Hue in degrees [0, 360), saturation in [0, 1], value as given."""
    r, g, b = rgb
    value = rgb.max(axis=0)
    chroma = value - rgb.min(axis=0)
    saturation = numpy.where(value > 0, chroma / numpy.maximum(value, 1e-12),
                             0)
    safe = numpy.maximum(chroma, 1e-12)
    hue = numpy.select(
        [chroma == 0, value == r, value == g],
        [0, ((g - b) / safe) % 6, (b - r) / safe + 2],
        (r - g) / safe + 4) * 60
    return hue, saturation, value


def _hsv_to_rgb(hue, saturation, value):
    # The standard formula: channel n is v - v s max(0, min(k, 4 - k, 1))
    # with k = (n + h / 60) mod 6 for n = 5 (red), 3 (green), 1 (blue).
    channels = []
    for n in (5, 3, 1):
        k = (n + hue / 60) % 6
        channels.append(value - value * saturation * numpy.clip(
            numpy.minimum(k, 4 - k), 0, 1))
    return numpy.stack(channels)


def random_distort(img, brightness_delta=32, contrast_low=0.5,
                   contrast_high=1.5, saturation_low=0.5, saturation_high=1.5,
                   hue_delta=18):
    """Distort the colours of an image at random, as SSD's photometric
    augmentation.

    Each of these happens with probability one half: a shift of the
    brightness by up to ``brightness_delta``, a scaling of the contrast
    (the values) in ``[contrast_low, contrast_high]``, a scaling of the
    HSV saturation in ``[saturation_low, saturation_high]`` and a shift of
    the hue by up to ``hue_delta`` (in 8-bit OpenCV hue units, two
    degrees each). The contrast change comes first or last at random;
    the values stay in [0, 255] after each step.

    Args:
        img (numpy.ndarray): a CHW RGB image in [0, 255].

    Returns:
        numpy.ndarray: the distorted image, float32.
    """
    img = img.astype(numpy.float64)

    def brightness(img):
        if numpy.random.randint(2):
            img = img + numpy.random.uniform(
                -brightness_delta, brightness_delta)
        return numpy.clip(img, 0, 255)

    def contrast(img):
        if numpy.random.randint(2):
            img = img * numpy.random.uniform(contrast_low, contrast_high)
        return numpy.clip(img, 0, 255)

    def saturation_and_hue(img):
        hue, saturation, value = _rgb_to_hsv(img)
        if numpy.random.randint(2):
            saturation = numpy.clip(saturation * numpy.random.uniform(
                saturation_low, saturation_high), 0, 1)
        if numpy.random.randint(2):
            hue = hue + 2 * numpy.random.randint(-hue_delta, hue_delta)
        return _hsv_to_rgb(hue % 360, saturation, value)

    img = brightness(img)
    if numpy.random.randint(2):
        img = saturation_and_hue(contrast(img))
    else:
        img = contrast(saturation_and_hue(img))
    return img.astype(numpy.float32)


_INTERPOLATIONS = (PIL.Image.NEAREST, PIL.Image.BILINEAR, PIL.Image.BICUBIC,
                   PIL.Image.LANCZOS)


def resize_with_random_interpolation(img, size, return_param=False):
    """Resize an image with an interpolation drawn at random among
    Pillow's nearest, bilinear, bicubic and Lanczos filters.

    Args:
        img (numpy.ndarray): a CHW image.
        size (tuple of ints): ``(H, W)`` after resizing.
        return_param (bool): also return ``{'interpolation': filter}``.
    """
    interpolation = _INTERPOLATIONS[
        numpy.random.randint(len(_INTERPOLATIONS))]
    img = transforms.resize(img, size, interpolation=interpolation)
    if return_param:
        return img, {'interpolation': interpolation}
    return img
