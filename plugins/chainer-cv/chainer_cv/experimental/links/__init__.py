"""Experimental links, where ChainerCV 0.13 has them: PSPNet and the tiny
YOLOv2 (also in :mod:`chainer_cv.links`)."""
from chainer_cv.links.model.pspnet import PSPNetResNet101  # NOQA
from chainer_cv.links.model.pspnet import PSPNetResNet50  # NOQA
from chainer_cv.links.model.yolo import DarknetTinyExtractor as DarknetExtractor  # NOQA
from chainer_cv.links.model.yolo import YOLOv2Tiny  # NOQA
