from chainer_cv.links.model.resnet.resblock import Bottleneck  # NOQA
from chainer_cv.links.model.resnet.resblock import ResBlock  # NOQA
from chainer_cv.links.model.resnet.resnet import ResNet  # NOQA
from chainer_cv.links.model.resnet.resnet import ResNet101  # NOQA
from chainer_cv.links.model.resnet.resnet import ResNet152  # NOQA
from chainer_cv.links.model.resnet.resnet import ResNet50  # NOQA
