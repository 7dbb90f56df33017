import collections

from chainer_cv.transforms.bbox.crop_bbox import crop_bbox
from chainer_cv.transforms.bbox.flip_bbox import flip_bbox
from chainer_cv.transforms.bbox.translate_bbox import translate_bbox
from chainer_cv.transforms.image.flip import flip as flip_image
from chainer_cv.transforms.image.random_crop import random_crop
from chainer_cv.transforms.image.random_expand import random_expand
from chainer_cv.transforms.image.random_flip import random_flip
from chainer_cv.transforms.image.random_sized_crop import random_sized_crop
from chainer_cv.transforms.image.resize_contain import paste
from chainer_cv.transforms.point.flip_point import flip_point
from chainer_cv.transforms.point.translate_point import translate_point
from chainer_cv.utils._checks import check_bbox, check_image, check_mask

Transformed = collections.namedtuple('Transformed',
                                     ('img', 'bbox', 'point', 'mask'))
Transformed.__doc__ = """What :func:`random_transform` returns: the image
and the annotations given with it (:obj:`None` for those not given)."""


def _check(img, bbox, mask):
    check_image(img, 'random_transform')
    if bbox is not None:
        check_bbox(bbox, 'random_transform')
    if mask is not None:
        check_mask(mask, 'random_transform')
        if mask.shape[1:] != img.shape[1:]:
            raise ValueError(
                'random_transform: mask must have shape (R, {}, {}) to match '
                'img; got {}'.format(*img.shape[1:], mask.shape))


def _expand(out, max_ratio, fill):
    img, param = random_expand(out.img, max_ratio, fill, return_param=True)
    y, x = param['y_offset'], param['x_offset']
    return Transformed(
        img,
        None if out.bbox is None else translate_bbox(out.bbox, y, x),
        None if out.point is None else translate_point(out.point, y, x),
        None if out.mask is None else
        paste(out.mask, img.shape[1:], y, x, False)), param


def _crop(out, crop, allow_outside_center):
    if isinstance(crop, dict):
        img, param = random_sized_crop(out.img, return_param=True, **crop)
    else:
        img, param = random_crop(out.img, crop, return_param=True)
    y_slice, x_slice = param['y_slice'], param['x_slice']
    bbox, mask = out.bbox, out.mask
    if bbox is not None:
        bbox, kept = crop_bbox(bbox, y_slice, x_slice, allow_outside_center,
                               return_param=True)
        param['index'] = kept['index']
        if mask is not None:
            mask = mask[kept['index']]
    if mask is not None:
        mask = mask[:, y_slice, x_slice]
    point = None if out.point is None else \
        translate_point(out.point, -y_slice.start, -x_slice.start)
    return Transformed(img, bbox, point, mask), param


def _flip(out, y_random, x_random):
    size = out.img.shape[1:]
    img, param = random_flip(out.img, y_random, x_random, return_param=True)
    y, x = param['y_flip'], param['x_flip']
    return Transformed(
        img,
        None if out.bbox is None else flip_bbox(out.bbox, size, y, x),
        None if out.point is None else flip_point(out.point, size, y, x),
        None if out.mask is None else flip_image(out.mask, y, x)), param


def random_transform(img, bbox=None, point=None, mask=None, expand=None,
                     crop=None, flip=None, fill=0, allow_outside_center=True,
                     return_param=False):
    """Apply one random augmentation to an image and its annotations.

    The parameters are drawn once and applied alike to the image, its
    bounding boxes, points and masks, so they stay aligned. The steps, in
    this order, each only when asked for:

    1. ``expand``: zoom out as :func:`random_expand` (boxes and points
       shifted, masks padded with False).
    2. ``crop``: as :func:`random_crop` (``crop`` is ``(H, W)``) or
       :func:`random_sized_crop` (``crop`` is a dict of its keyword
       arguments, ``{}`` for its defaults). Boxes are cut as by
       :func:`crop_bbox`, which may remove some: the masks of removed boxes
       are removed too, and ``param['crop']['index']`` says which remain
       (to index labels with). Points are shifted, not removed: points
       outside the crop get coordinates outside the image.
    3. ``flip``: as :func:`random_flip`; ``'x'`` (left to right), ``'y'``
       (upside down) or ``'xy'`` (each independently).

    Args:
        img (numpy.ndarray): A CHW image.
        bbox (numpy.ndarray): Boxes of shape :math:`(R, 4)`, or :obj:`None`.
        point (numpy.ndarray or list): Points :math:`(y, x)`, as
            :func:`flip_point` takes, or :obj:`None`.
        mask (numpy.ndarray): Masks of shape :math:`(R, H, W)`, or
            :obj:`None`. With ``bbox``, mask :math:`i` belongs to box
            :math:`i`.
        expand (float): The ``max_ratio`` of the zoom out, or :obj:`None`.
        crop (tuple or dict): The crop as above, or :obj:`None`.
        flip (str): ``'x'``, ``'y'``, ``'xy'`` or :obj:`None`.
        fill (float or tuple): The image's value on the expanded area.
        allow_outside_center (bool): As for :func:`crop_bbox`.
        return_param (bool): Also return the parameters drawn.

    Returns:
        Transformed or (Transformed, dict): The namedtuple
        ``(img, bbox, point, mask)``, :obj:`None` for the annotations not
        given; with ``return_param``, also a dict with one entry per step
        taken, the ``return_param`` dict of its ChainerCV transform:

        * **expand**: ``ratio``, ``y_offset``, ``x_offset``.
        * **crop**: ``y_slice``, ``x_slice`` (and ``scale_ratio``,
          ``aspect_ratio`` for a sized crop), plus ``index`` with ``bbox``.
        * **flip**: ``y_flip``, ``x_flip``.

    .. admonition:: Example

        >>> out, param = random_transform(
        ...     img, bbox=bbox, mask=mask, expand=4, crop={}, flip='x',
        ...     fill=(124, 116, 104), return_param=True)
        >>> label = label[param['crop']['index']]
        >>> img, bbox, _, mask = out
    """
    _check(img, bbox, mask)
    if flip not in (None, 'x', 'y', 'xy'):
        raise ValueError("random_transform: flip must be None, 'x', 'y' or "
                         "'xy'; got {!r}".format(flip))
    out = Transformed(img, bbox, point, mask)
    param = {}
    if expand is not None:
        out, param['expand'] = _expand(out, expand, fill)
    if crop is not None:
        out, param['crop'] = _crop(out, crop, allow_outside_center)
    if flip is not None:
        out, param['flip'] = _flip(out, 'y' in flip, 'x' in flip)
    if return_param:
        return out, param
    return out
