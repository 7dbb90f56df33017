from chainer_cv.links.model.senet.se_resnet import SEResNet  # NOQA
from chainer_cv.links.model.senet.se_resnet import SEResNet101  # NOQA
from chainer_cv.links.model.senet.se_resnet import SEResNet152  # NOQA
from chainer_cv.links.model.senet.se_resnet import SEResNet50  # NOQA
from chainer_cv.links.model.senet.se_resnext import SEResNeXt  # NOQA
from chainer_cv.links.model.senet.se_resnext import SEResNeXt101  # NOQA
from chainer_cv.links.model.senet.se_resnext import SEResNeXt50  # NOQA
