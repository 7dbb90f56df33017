import chainer_core as chainer
from chainer_core.functions import relu
from chainer_core.links import Convolution2D


class Conv2DActiv(chainer.Chain):
    """Convolution2D followed by an activation.

    The child ``conv`` is a :class:`chainer.links.Convolution2D`; the
    activation is applied to its output unless ``activ`` is None. As with
    :class:`~chainer.links.Convolution2D`, ``Conv2DActiv(out_channels,
    ksize, ...)`` (``ksize`` given in the place of ``out_channels``)
    leaves ``in_channels`` to be inferred at the first call.

    Args:
        in_channels (int or None): input channels (None: inferred).
        out_channels (int): output channels.
        ksize (int or pair of ints): kernel size.
        stride (int or pair of ints): stride of the filter.
        pad (int or pair of ints): spatial padding.
        dilate (int or pair of ints): dilation of the filter.
        groups (int): number of groups of channels.
        nobias (bool): no bias when True.
        initialW (callable): initializer of the weight.
        initial_bias (callable): initializer of the bias.
        activ (callable): the activation, :func:`chainer.functions.relu`
            by default, or None for none.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, dilate=1, groups=1, nobias=False, initialW=None,
                 initial_bias=None, activ=relu):
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.activ = activ
        super().__init__()
        with self.init_scope():
            self.conv = Convolution2D(
                in_channels, out_channels, ksize, stride, pad, nobias,
                initialW, initial_bias, dilate=dilate, groups=groups)

    def forward(self, x):
        h = self.conv(x)
        return h if self.activ is None else self.activ(h)
