"""LocalConvolution2D: the locally connected layer (unshared filters)."""
from chainer_core import initializers
from chainer_core.functions.connection.local_convolution_2d import (
    local_convolution_2d)
from chainer_core.link import Link
from chainer_core.links.connection.convolution_2d import _bias, _pair
from chainer_core.variable import Parameter


class LocalConvolution2D(Link):
    """Two-dimensional local convolutional layer (see
    :func:`~chainer_core.functions.local_convolution_2d`): every output
    position has its own filters.

    Args:
        in_channels (int or None): input channels.
        out_channels (int): output channels.
        in_size (int or pair of ints or None): the input's spatial size.
            When it or ``in_channels`` is None the parameters are
            allocated on the first call.
        ksize (int or pair of ints): filter size.
        stride (int or pair of ints): stride.
        nobias (bool): no bias term.
        initialW: initializer of ``W`` (default: LeCun normal).
        initial_bias: initializer of ``b`` (default: zeros).

    Attributes:
        W (Parameter): ``(out_channels, out_h, out_w, in_channels, kh,
            kw)`` with ``out_h = (h - kh) // stride_y + 1`` (likewise
            ``out_w``).
        b (Parameter): ``(out_channels, out_h, out_w)``, or None.
    """

    def __init__(self, in_channels, out_channels, in_size=None, ksize=None,
                 stride=1, nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        if ksize is None:
            raise TypeError('LocalConvolution2D: ksize is required')
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.in_size = in_size
        self.ksize = _pair(ksize)
        self.stride = _pair(stride)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            self.b = _bias(nobias, initial_bias)
        if in_channels is not None and in_size is not None:
            self._initialize_params(in_channels, _pair(in_size))

    def _initialize_params(self, in_channels, in_size):
        (kh, kw), (sy, sx) = self.ksize, self.stride
        ih, iw = in_size
        oh = (ih - kh) // sy + 1
        ow = (iw - kw) // sx + 1
        if oh <= 0 or ow <= 0:
            raise ValueError('LocalConvolution2D: the input size {} is '
                             'smaller than the filter {}'.format(
                                 (ih, iw), (kh, kw)))
        self.W.initialize((self.out_channels, oh, ow, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize((self.out_channels, oh, ow))

    @property
    def printable_specs(self):
        yield 'in_channels', self.in_channels
        yield 'out_channels', self.out_channels
        yield 'in_size', self.in_size
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'nobias', self.b is None

    def forward(self, x):
        """Apply the layer to ``x`` of shape ``(N, C, H, W)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1], x.shape[2:])
        return local_convolution_2d(x, self.W, self.b, self.stride)
