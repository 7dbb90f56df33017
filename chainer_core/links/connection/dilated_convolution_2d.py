"""DilatedConvolution2D: the dilated two-dimensional convolution as a
link."""
from chainer_core import initializers
from chainer_core.functions.connection.dilated_convolution_2d import (
    dilated_convolution_2d)
from chainer_core.link import Link
from chainer_core.links.connection.convolution_2d import _bias, _pair
from chainer_core.variable import Parameter


class DilatedConvolution2D(Link):
    """Two-dimensional dilated convolutional layer (see
    :func:`~chainer_core.functions.dilated_convolution_2d`).

    ``DilatedConvolution2D(out_channels, ksize)`` is short for
    ``DilatedConvolution2D(None, out_channels, ksize)``; with
    ``in_channels=None`` the weight is allocated on the first call.

    Args:
        in_channels (int or None): input channels.
        out_channels (int): output channels.
        ksize (int or pair of ints): filter size.
        stride (int or pair of ints): stride.
        pad (int or pair of ints): spatial zero padding.
        dilate (int or pair of ints): distance between filter taps.
        nobias (bool): no bias term.
        initialW: initializer of ``W`` (default: LeCun normal).
        initial_bias: initializer of ``b`` (default: zeros).

    Attributes:
        W (Parameter): ``(out_channels, in_channels, kh, kw)``.
        b (Parameter): ``(out_channels,)``, or None.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 dilate=1, nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        self.W.initialize((self.out_channels, in_channels, kh, kw))

    @property
    def printable_specs(self):
        yield 'in_channels', self.in_channels
        yield 'out_channels', self.out_channels
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'pad', self.pad
        yield 'dilate', self.dilate
        yield 'nobias', self.b is None

    def forward(self, x):
        """Convolve ``x`` of shape ``(N, C, H, W)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return dilated_convolution_2d(x, self.W, self.b, self.stride,
                                      self.pad, self.dilate)
