"""MobileNetV2 with the layout of TensorFlow-Slim's, and its blocks."""
from chainer_cv.links.model.mobilenet.expanded_conv_2d import ExpandedConv2D  # NOQA
from chainer_cv.links.model.mobilenet.mobilenet_v2 import MobileNetV2  # NOQA
from chainer_cv.links.model.mobilenet.tf_conv_2d_bn_activ import TFConv2DBNActiv  # NOQA
from chainer_cv.links.model.mobilenet.tf_convolution_2d import TFConvolution2D  # NOQA
