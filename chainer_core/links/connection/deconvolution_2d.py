"""Deconvolution2D: the two-dimensional transposed convolution as a link."""
from chainer_core import initializers
from chainer_core.functions.connection.deconvolution_2d import (
    deconvolution_2d)
from chainer_core.link import Link
from chainer_core.links._checks import check_size
from chainer_core.links.connection.convolution_2d import (
    _bias, _check_groups, _check_in_channels, _pair, _pop_conv_kwargs)
from chainer_core.variable import Parameter


class Deconvolution2D(Link):
    """Two-dimensional deconvolution (transposed convolution) layer (see
    :func:`~chainer_core.functions.deconvolution_2d`).

    ``Deconvolution2D(out_channels, ksize)`` is short for
    ``Deconvolution2D(None, out_channels, ksize)``; with
    ``in_channels=None`` the weight is allocated on the first call.

    Args:
        in_channels (int or None): input channels.
        out_channels (int): output channels.
        ksize (int or pair of ints): filter size.
        stride (int or pair of ints): stride.
        pad (int or pair of ints): padding removed from the output.
        nobias (bool): no bias term.
        outsize (pair of ints or None): the output spatial size, when the
            stride leaves it ambiguous.
        initialW: initializer of ``W`` (default: LeCun normal).
        initial_bias: initializer of ``b`` (default: zeros).
        dilate (int or pair of ints): keyword only; filter dilation.
        groups (int): keyword only; the number of channel groups.

    Attributes:
        W (Parameter): ``(in_channels, out_channels / groups, kh, kw)``.
        b (Parameter): ``(out_channels,)``, or None.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, outsize=None, initialW=None, initial_bias=None,
                 **kwargs):
        super().__init__()
        dilate, groups = _pop_conv_kwargs(
            'Deconvolution2D', kwargs, (('dilate', 1), ('groups', 1)))
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.in_channels = check_size('Deconvolution2D', 'in_channels',
                                      in_channels, allow_none=True)
        self.out_channels = out_channels = check_size(
            'Deconvolution2D', 'out_channels', out_channels)
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        self.outsize = outsize
        self.groups = _check_groups('Deconvolution2D', groups, out_channels)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        _check_in_channels('Deconvolution2D', in_channels, self.groups)
        kh, kw = _pair(self.ksize)
        self.W.initialize((in_channels, self.out_channels // self.groups,
                           kh, kw))

    @property
    def printable_specs(self):
        yield 'in_channels', self.in_channels
        yield 'out_channels', self.out_channels
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'pad', self.pad
        yield 'nobias', self.b is None
        yield 'outsize', self.outsize
        yield 'dilate', self.dilate
        yield 'groups', self.groups

    def forward(self, x):
        """Deconvolve ``x`` of shape ``(N, C, H, W)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return deconvolution_2d(x, self.W, self.b, self.stride, self.pad,
                                self.outsize, dilate=self.dilate,
                                groups=self.groups)
