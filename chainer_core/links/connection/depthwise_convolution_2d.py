"""DepthwiseConvolution2D: the depthwise convolution as a link."""
from chainer_core import initializers
from chainer_core.functions.connection.depthwise_convolution_2d import (
    depthwise_convolution_2d)
from chainer_core.link import Link
from chainer_core.links.connection.convolution_2d import _bias, _pair
from chainer_core.variable import Parameter


class DepthwiseConvolution2D(Link):
    """Two-dimensional depthwise convolutional layer (see
    :func:`~chainer_core.functions.depthwise_convolution_2d`): each input
    channel is convolved with its own ``channel_multiplier`` filters.

    Args:
        in_channels (int or None): input channels; None allocates the
            parameters on the first call.
        channel_multiplier (int): filters per input channel; the output
            has ``in_channels * channel_multiplier`` channels.
        ksize (int or pair of ints): filter size.
        stride (int or pair of ints): stride.
        pad (int or pair of ints): spatial zero padding.
        nobias (bool): no bias term.
        initialW: initializer of ``W`` (default: LeCun normal).
        initial_bias: initializer of ``b`` (default: zeros).

    Attributes:
        W (Parameter): ``(channel_multiplier, in_channels, kh, kw)``.
        b (Parameter): ``(in_channels * channel_multiplier,)``, or None.
    """

    def __init__(self, in_channels, channel_multiplier, ksize, stride=1,
                 pad=0, nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        self.in_channels = in_channels
        self.channel_multiplier = channel_multiplier
        self.ksize = _pair(ksize)
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            self.b = _bias(nobias, initial_bias)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        kh, kw = self.ksize
        self.W.initialize((self.channel_multiplier, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize(self.channel_multiplier * in_channels)

    @property
    def printable_specs(self):
        yield 'in_channels', self.in_channels
        yield 'channel_multiplier', self.channel_multiplier
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'pad', self.pad
        yield 'nobias', self.b is None

    def forward(self, x):
        """Convolve ``x`` of shape ``(N, C, H, W)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return depthwise_convolution_2d(x, self.W, self.b, self.stride,
                                        self.pad)
