"""SSD (`Liu et al. <https://arxiv.org/abs/1512.02325>`_) with ChainerCV's
API and parameter names: :class:`SSD300` and :class:`SSD512` on VGG-16,
the generic :class:`SSD` with its parts (:class:`Multibox`,
:class:`MultiboxCoder`, :func:`multibox_loss`), SSD's data augmentation,
and :class:`TinySSD`, a small detector for small images built of the same
parts."""
from chainer_cv.links.model.ssd.multibox import Multibox  # NOQA
from chainer_cv.links.model.ssd.multibox_coder import MultiboxCoder  # NOQA
from chainer_cv.links.model.ssd.multibox_loss import multibox_loss  # NOQA
from chainer_cv.links.model.ssd.normalize import Normalize  # NOQA
from chainer_cv.links.model.ssd.ssd import SSD  # NOQA
from chainer_cv.links.model.ssd.ssd_vgg16 import SSD300  # NOQA
from chainer_cv.links.model.ssd.ssd_vgg16 import SSD512  # NOQA
from chainer_cv.links.model.ssd.ssd_vgg16 import VGG16Extractor300  # NOQA
from chainer_cv.links.model.ssd.ssd_vgg16 import VGG16Extractor512  # NOQA
from chainer_cv.links.model.ssd.tiny_ssd import TinyExtractor  # NOQA
from chainer_cv.links.model.ssd.tiny_ssd import TinySSD  # NOQA
from chainer_cv.links.model.ssd.training import MultiboxTrainChain  # NOQA
from chainer_cv.links.model.ssd.training import TrainTransform  # NOQA
from chainer_cv.links.model.ssd.transforms import random_crop_with_bbox_constraints  # NOQA
from chainer_cv.links.model.ssd.transforms import random_distort  # NOQA
from chainer_cv.links.model.ssd.transforms import resize_with_random_interpolation  # NOQA
