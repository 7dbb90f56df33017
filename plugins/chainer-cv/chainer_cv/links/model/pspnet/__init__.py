from chainer_cv.links.model.pspnet.pspnet import DilatedResNet  # NOQA
from chainer_cv.links.model.pspnet.pspnet import PSPNet  # NOQA
from chainer_cv.links.model.pspnet.pspnet import PSPNetResNet101  # NOQA
from chainer_cv.links.model.pspnet.pspnet import PSPNetResNet50  # NOQA
from chainer_cv.links.model.pspnet.pspnet import PyramidPoolingModule  # NOQA
from chainer_cv.links.model.pspnet.transforms import convolution_crop  # NOQA
