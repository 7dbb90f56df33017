from chainer_core.functions import relu

from chainer_cv.links.connection.conv_2d_bn_activ import ConvBNActiv
from chainer_cv.links.model.mobilenet.tf_convolution_2d import \
    TFConvolution2D


class TFConv2DBNActiv(ConvBNActiv):
    """:class:`TFConvolution2D`, batch normalization and an activation.

    As :class:`~chainercv.links.Conv2DBNActiv`, but the convolution
    (child ``conv``) pads as TensorFlow does (``pad='SAME'`` by default);
    the normalization is the child ``bn`` (ChainerMN's
    ``MultiNodeBatchNormalization`` when ``bn_kwargs`` holds ``comm``).
    ``TFConv2DBNActiv(out_channels, ksize, ...)`` leaves ``in_channels``
    to be inferred.

    Args:
        in_channels (int or None): Input channels (None: inferred).
        out_channels (int): Output channels.
        ksize (int or pair of ints): Kernel size.
        stride (int or pair of ints): Stride.
        pad (int, 'SAME' or 'VALID'): Padding, see :class:`TFConvolution2D`.
        dilate (int or pair of ints): Dilation.
        groups (int): Groups of channels (``in_channels`` for depthwise).
        nobias (bool): No convolution bias (the default).
        initialW (callable): Initializer of the convolution weight.
        initial_bias (callable): Initializer of the convolution bias.
        activ (callable): The activation, ``relu`` by default, or None.
        bn_kwargs (dict): Keyword arguments of the normalization.
    """

    _convolution = TFConvolution2D

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad='SAME', dilate=1, groups=1, nobias=True, initialW=None,
                 initial_bias=None, activ=relu, bn_kwargs={}):
        super().__init__(in_channels, out_channels, ksize, stride, pad,
                         dilate, groups, nobias, initialW, initial_bias,
                         activ, bn_kwargs)
