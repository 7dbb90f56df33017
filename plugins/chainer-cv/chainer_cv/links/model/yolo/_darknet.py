"""The convolution Darknet builds its networks from."""
import chainer_core.functions as F

from chainer_cv.links.connection import Conv2DBNActiv


def leaky_relu(x):
    return F.leaky_relu(x, slope=0.1)


def darknet_conv(in_channels, out_channels, ksize, stride=1):
    """Convolution without bias, batch normalization and leaky ReLU (slope
    0.1), padded to keep the size at stride 1 (Darknet's ``pad=1``)."""
    return Conv2DBNActiv(in_channels, out_channels, ksize, stride=stride,
                         pad=ksize // 2, activ=leaky_relu)
