import chainer_core as chainer
import chainer_core.functions as F

from chainer_cv.links.connection.conv_2d_bn_activ import Conv2DBNActiv
from chainer_cv.links.connection.seblock import SEBlock
from chainer_cv.links.model.pickable_sequential_chain import \
    PickableSequentialChain


class ResBlock(PickableSequentialChain):
    """A stage of bottleneck blocks of a ResNet.

    The first block ``a`` changes the channels and the resolution (with a
    projection ``residual_conv`` on its shortcut); the others, ``b1``,
    ``b2`` ..., keep them.

    Args:
        n_layer (int): blocks in the stage.
        in_channels (int or None): input channels (None: inferred).
        mid_channels (int): channels inside the bottlenecks.
        out_channels (int): output channels.
        stride (int or pair of ints): stride of the first block.
        dilate (int or pair of ints): dilation of the 3x3 convolutions.
        groups (int): groups of the 3x3 convolutions (ResNeXt).
        initialW (callable): weight initializer.
        bn_kwargs (dict): keyword arguments of the normalizations.
        stride_first (bool): stride in the first 1x1 convolution (the
            original ResNet) rather than in the 3x3 one.
        add_seblock (bool): a :class:`~chainercv.links.SEBlock` after the
            last convolution of each block (SENet).
    """

    def __init__(self, n_layer, in_channels, mid_channels, out_channels,
                 stride, dilate=1, groups=1, initialW=None, bn_kwargs={},
                 stride_first=False, add_seblock=False):
        super().__init__()
        kwargs = dict(dilate=dilate, groups=groups, initialW=initialW,
                      bn_kwargs=bn_kwargs, stride_first=stride_first,
                      add_seblock=add_seblock)
        with self.init_scope():
            self.a = Bottleneck(in_channels, mid_channels, out_channels,
                                stride, residual_conv=True, **kwargs)
            for i in range(1, n_layer):
                setattr(self, 'b{}'.format(i), Bottleneck(
                    out_channels, mid_channels, out_channels, 1, **kwargs))


class Bottleneck(chainer.Chain):
    """A bottleneck block: 1x1, 3x3 and 1x1 convolutions
    (``conv1``, ``conv2``, ``conv3``, each with batch normalization),
    optionally an SE block ``se``, plus the shortcut (the projection
    ``residual_conv`` when ``residual_conv`` is True), then ReLU.

    Args: as :class:`ResBlock`, with ``residual_conv`` (bool) adding the
    projection shortcut.
    """

    def __init__(self, in_channels, mid_channels, out_channels, stride=1,
                 dilate=1, groups=1, initialW=None, bn_kwargs={},
                 residual_conv=False, stride_first=False, add_seblock=False):
        first_stride, second_stride = (stride, 1) if stride_first else \
            (1, stride)
        super().__init__()
        with self.init_scope():
            self.conv1 = Conv2DBNActiv(
                in_channels, mid_channels, 1, first_stride, 0, nobias=True,
                initialW=initialW, bn_kwargs=bn_kwargs)
            self.conv2 = Conv2DBNActiv(
                mid_channels, mid_channels, 3, second_stride, dilate, dilate,
                groups, nobias=True, initialW=initialW, bn_kwargs=bn_kwargs)
            self.conv3 = Conv2DBNActiv(
                mid_channels, out_channels, 1, 1, 0, nobias=True,
                initialW=initialW, activ=None, bn_kwargs=bn_kwargs)
            if add_seblock:
                self.se = SEBlock(out_channels)
            if residual_conv:
                self.residual_conv = Conv2DBNActiv(
                    in_channels, out_channels, 1, stride, 0, nobias=True,
                    initialW=initialW, activ=None, bn_kwargs=bn_kwargs)

    def forward(self, x):
        h = self.conv3(self.conv2(self.conv1(x)))
        if hasattr(self, 'se'):
            h = self.se(h)
        shortcut = self.residual_conv(x) if hasattr(
            self, 'residual_conv') else x
        return F.relu(h + shortcut)
