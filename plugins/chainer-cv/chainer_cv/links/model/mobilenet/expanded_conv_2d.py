import chainer_core as chainer
from chainer_core.functions import clipped_relu

from chainer_cv.links.model.mobilenet.tf_conv_2d_bn_activ import \
    TFConv2DBNActiv
from chainer_cv.links.model.mobilenet.util import expand_input_by_factor


def _relu6(x):
    return clipped_relu(x, 6.)


class ExpandedConv2D(chainer.Chain):
    """MobileNetV2's inverted residual block.

    A 1x1 expansion (``expand``, only when the inner width exceeds the
    input's), a depthwise convolution (``depthwise``), both with ReLU6,
    and a linear 1x1 projection (``project``), each a
    :class:`TFConv2DBNActiv`; the input is added back when the output has
    its shape. The order of the first two arguments is ChainerCV's
    (``out_channels`` first); pass them by name.

    Args:
        out_channels (int): Output channels.
        in_channels (int): Input channels.
        expansion_size (int or callable): The inner width, or a function
            of the input channels giving it (default six times them, see
            :func:`expand_input_by_factor`).
        expand_pad, depthwise_pad, project_pad (int, 'SAME' or 'VALID'):
            Padding of the three convolutions.
        depthwise_stride (int or pair of ints): Stride of the depthwise
            convolution.
        depthwise_ksize (int or pair of ints): Its kernel size.
        initialW (callable): Initializer of the convolution weights.
        bn_kwargs (dict): Keyword arguments of the normalizations.
    """

    def __init__(self, out_channels, in_channels,
                 expansion_size=expand_input_by_factor(6), expand_pad='SAME',
                 depthwise_stride=1, depthwise_ksize=3, depthwise_pad='SAME',
                 project_pad='SAME', initialW=None, bn_kwargs={}):
        if callable(expansion_size):
            self.inner_size = expansion_size(num_inputs=in_channels)
        else:
            self.inner_size = expansion_size
        super().__init__()
        with self.init_scope():
            if self.inner_size > in_channels:
                self.expand = TFConv2DBNActiv(
                    in_channels, self.inner_size, ksize=1, pad=expand_pad,
                    nobias=True, initialW=initialW, activ=_relu6,
                    bn_kwargs=bn_kwargs)
                depthwise_in_channels = self.inner_size
            else:
                depthwise_in_channels = in_channels
            self.depthwise = TFConv2DBNActiv(
                depthwise_in_channels, self.inner_size, ksize=depthwise_ksize,
                stride=depthwise_stride, pad=depthwise_pad, nobias=True,
                initialW=initialW, groups=depthwise_in_channels,
                activ=_relu6, bn_kwargs=bn_kwargs)
            self.project = TFConv2DBNActiv(
                self.inner_size, out_channels, ksize=1, pad=project_pad,
                nobias=True, initialW=initialW, activ=None,
                bn_kwargs=bn_kwargs)

    def forward(self, x):
        h = self.expand(x) if hasattr(self, 'expand') else x
        h = self.project(self.depthwise(h))
        if h.shape == x.shape:
            h = h + x
        return h
