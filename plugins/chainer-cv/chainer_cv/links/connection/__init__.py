from chainer_cv.links.connection.conv_2d_activ import Conv2DActiv  # NOQA
from chainer_cv.links.connection.conv_2d_bn_activ import Conv2DBNActiv  # NOQA
from chainer_cv.links.connection.seblock import SEBlock  # NOQA
from chainer_cv.links.connection.separable_conv_2d_bn_activ import SeparableConv2DBNActiv  # NOQA
