"""Experimental links, where ChainerCV 0.13 has them: PSPNet."""
from chainer_cv.links.model.pspnet import PSPNetResNet101  # NOQA
from chainer_cv.links.model.pspnet import PSPNetResNet50  # NOQA
