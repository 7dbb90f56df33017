import chainer_core as chainer
from chainer_core.functions import identity
from chainer_core.functions import relu
from chainer_core.links import Convolution2D

from chainer_cv.links.connection.conv_2d_bn_activ import normalization


class SeparableConv2DBNActiv(chainer.Chain):
    """A depthwise separable convolution, each half followed by batch
    normalization and an activation.

    The children are ``depthwise`` (a convolution with one group per
    input channel), ``dw_bn``, ``pointwise`` (a 1x1 convolution) and
    ``pw_bn``, as ChainerCV names them.

    Args:
        in_channels (int): input channels.
        out_channels (int): output channels.
        ksize (int or pair of ints): kernel size of the depthwise half.
        stride (int or pair of ints): its stride.
        pad (int or pair of ints): its padding.
        dilate (int or pair of ints): its dilation.
        nobias (bool): no convolution biases when True.
        dw_initialW, pw_initialW (callable): weight initializers of the
            two halves.
        dw_initial_bias, pw_initial_bias (callable): their bias
            initializers.
        dw_activ, pw_activ (callable): the activations after each half
            (None: none); by default none after the depthwise half and
            ReLU after the pointwise one.
        bn_kwargs (dict): keyword arguments of the normalizations; with a
            communicator ``comm``, ChainerMN's
            ``MultiNodeBatchNormalization`` is used.
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 dilate=1, nobias=False, dw_initialW=None, pw_initialW=None,
                 dw_initial_bias=None, pw_initial_bias=None,
                 dw_activ=identity, pw_activ=relu, bn_kwargs={}):
        self.dw_activ = identity if dw_activ is None else dw_activ
        self.pw_activ = identity if pw_activ is None else pw_activ
        super().__init__()
        with self.init_scope():
            self.depthwise = Convolution2D(
                in_channels, in_channels, ksize, stride, pad, nobias,
                dw_initialW, dw_initial_bias, dilate=dilate,
                groups=in_channels)
            self.pointwise = Convolution2D(
                in_channels, out_channels, 1, 1, 0, nobias, pw_initialW,
                pw_initial_bias)
            self.dw_bn = normalization(in_channels, bn_kwargs)
            self.pw_bn = normalization(out_channels, bn_kwargs)

    def forward(self, x):
        h = self.dw_activ(self.dw_bn(self.depthwise(x)))
        return self.pw_activ(self.pw_bn(self.pointwise(h)))
