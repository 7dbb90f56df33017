"""DeformableConvolution2D: a convolution whose taps are moved by offsets
predicted from the input."""
from chainer_core import initializers
from chainer_core.functions.connection.deformable_convolution_2d_sampler \
    import deformable_convolution_2d_sampler
from chainer_core.link import Chain, Link
from chainer_core.links.connection.convolution_2d import (
    Convolution2D, _bias, _pair)
from chainer_core.variable import Parameter


class DeformableConvolution2D(Chain):
    """Deformable convolution: a :class:`Convolution2D` (``offset_conv``)
    predicts the ``2 * kh * kw`` offsets of the taps at every output
    position, and :class:`DeformableConvolution2DSampler` (``deform_conv``)
    convolves the input read at the moved taps.

    Args:
        in_channels (int or None): input channels (None: allocated on the
            first call).
        out_channels (int): output channels.
        ksize (int or pair of ints): filter size.
        stride (int or pair of ints): stride.
        pad (int or pair of ints): spatial zero padding.
        offset_nobias (bool): no bias in the offset convolution.
        offset_initialW: initializer of the offset convolution's weight.
        offset_initial_bias: initializer of its bias (default: zeros).
        deform_nobias (bool): no bias in the deformable convolution.
        deform_initialW: initializer of the deformable convolution's weight
            (default: zeros).
        deform_initial_bias: initializer of its bias (default: zeros).
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 offset_nobias=False, offset_initialW=None,
                 offset_initial_bias=None, deform_nobias=False,
                 deform_initialW=None, deform_initial_bias=None):
        super().__init__()
        kh, kw = _pair(ksize)
        with self.init_scope():
            self.offset_conv = Convolution2D(
                in_channels, 2 * kh * kw, ksize, stride, pad, offset_nobias,
                offset_initialW, offset_initial_bias)
            self.deform_conv = DeformableConvolution2DSampler(
                in_channels, out_channels, ksize, stride, pad, deform_nobias,
                deform_initialW, deform_initial_bias)

    def forward(self, x):
        """Convolve ``x`` of shape ``(N, C, H, W)``."""
        offset = self.offset_conv(x)
        return self.deform_conv(x, offset)


class DeformableConvolution2DSampler(Link):
    """The convolution of :class:`DeformableConvolution2D` with given
    offsets (see
    :func:`~chainer_core.functions.deformable_convolution_2d_sampler`).

    Args:
        in_channels (int or None): input channels.
        out_channels (int): output channels.
        ksize (int or pair of ints): filter size.
        stride (int or pair of ints): stride.
        pad (int or pair of ints): spatial zero padding.
        nobias (bool): no bias term.
        initialW: initializer of ``W`` (default: zeros).
        initial_bias: initializer of ``b`` (default: zeros).

    Attributes:
        W (Parameter): ``(out_channels, in_channels, kh, kw)``.
        b (Parameter): ``(out_channels,)``, or None.
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        if initialW is None:
            initialW = initializers.Zero()
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            self.b = _bias(nobias, initial_bias)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        kh, kw = _pair(self.ksize)
        self.W.initialize((self.out_channels, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize(self.out_channels)

    def forward(self, x, offset):
        """Convolve ``x`` read at the taps moved by ``offset``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return deformable_convolution_2d_sampler(
            x, offset, self.W, self.b, self.stride, self.pad)
