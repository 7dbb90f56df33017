"""Transforms with ChainerCV's API (``chainercv.transforms``): images are
CHW, boxes :math:`(y_{min}, x_{min}, y_{max}, x_{max})`, points
:math:`(y, x)`; a random transform's ``return_param`` gives what it drew,
for applying the same change to the annotations."""
from chainer_cv.transforms.bbox.crop_bbox import crop_bbox  # NOQA
from chainer_cv.transforms.bbox.flip_bbox import flip_bbox  # NOQA
from chainer_cv.transforms.bbox.resize_bbox import resize_bbox  # NOQA
from chainer_cv.transforms.bbox.rotate_bbox import rotate_bbox  # NOQA
from chainer_cv.transforms.bbox.translate_bbox import translate_bbox  # NOQA
from chainer_cv.transforms.image.center_crop import center_crop  # NOQA
from chainer_cv.transforms.image.flip import flip  # NOQA
from chainer_cv.transforms.image.pca_lighting import pca_lighting  # NOQA
from chainer_cv.transforms.image.random_crop import random_crop  # NOQA
from chainer_cv.transforms.image.random_expand import random_expand  # NOQA
from chainer_cv.transforms.image.random_flip import random_flip  # NOQA
from chainer_cv.transforms.image.random_rotate import random_rotate  # NOQA
from chainer_cv.transforms.image.random_sized_crop import (  # NOQA
    random_sized_crop)
from chainer_cv.transforms.image.resize import resize  # NOQA
from chainer_cv.transforms.image.resize_contain import resize_contain  # NOQA
from chainer_cv.transforms.image.rotate import rotate  # NOQA
from chainer_cv.transforms.image.scale import scale  # NOQA
from chainer_cv.transforms.image.ten_crop import ten_crop  # NOQA
from chainer_cv.transforms.point.flip_point import flip_point  # NOQA
from chainer_cv.transforms.point.resize_point import resize_point  # NOQA
from chainer_cv.transforms.point.translate_point import (  # NOQA
    translate_point)
from chainer_cv.transforms.random_transform import (  # NOQA
    random_transform, Transformed)
