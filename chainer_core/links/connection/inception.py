"""Inception: the GoogLeNet inception module."""
from chainer_core.functions.activation.relu import relu
from chainer_core.functions.array.concat import concat
from chainer_core.functions.pooling.max_pooling_2d import max_pooling_2d
from chainer_core.link import Chain
from chainer_core.links.connection.convolution_2d import Convolution2D


class Inception(Chain):
    """Inception module of GoogLeNet (Szegedy et al., 2015): four branches
    (1x1 convolution; 1x1 then 3x3; 1x1 then 5x5; 3x3 max pooling then
    1x1) concatenated along the channels and rectified.

    Args:
        in_channels (int or None): input channels.
        out1 (int): output channels of the 1x1 branch.
        proj3 (int): channels of the 1x1 projection before the 3x3 conv.
        out3 (int): output channels of the 3x3 branch.
        proj5 (int): channels of the 1x1 projection before the 5x5 conv.
        out5 (int): output channels of the 5x5 branch.
        proj_pool (int): output channels of the pooling branch.
        conv_init: initializer of the convolution weights.
        bias_init: initializer of the convolution biases.
    """

    def __init__(self, in_channels, out1, proj3, out3, proj5, out5, proj_pool,
                 conv_init=None, bias_init=None):
        super().__init__()
        init = dict(initialW=conv_init, initial_bias=bias_init)
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, out1, 1, **init)
            self.proj3 = Convolution2D(in_channels, proj3, 1, **init)
            self.conv3 = Convolution2D(proj3, out3, 3, pad=1, **init)
            self.proj5 = Convolution2D(in_channels, proj5, 1, **init)
            self.conv5 = Convolution2D(proj5, out5, 5, pad=2, **init)
            self.projp = Convolution2D(in_channels, proj_pool, 1, **init)

    def forward(self, x):
        """Apply the module to ``x`` of shape ``(N, C, H, W)``; the output
        has ``out1 + out3 + out5 + proj_pool`` channels."""
        out1 = self.conv1(x)
        out3 = self.conv3(relu(self.proj3(x)))
        out5 = self.conv5(relu(self.proj5(x)))
        pool = self.projp(max_pooling_2d(x, 3, stride=1, pad=1))
        return relu(concat((out1, out3, out5, pool), axis=1))
