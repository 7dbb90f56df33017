"""DeconvolutionND (and Deconvolution1D/3D): N-dimensional transposed
convolution links."""
from chainer_core import initializers
from chainer_core.functions.connection.deconvolution_nd import (
    deconvolution_nd)
from chainer_core.link import Link
from chainer_core.links._checks import check_size
from chainer_core.links.connection.convolution_2d import (
    _bias, _check_groups, _check_in_channels)
from chainer_core.utils import conv_nd
from chainer_core.variable import Parameter


class DeconvolutionND(Link):
    """N-dimensional deconvolution (transposed convolution) layer (see
    :func:`~chainer_core.functions.deconvolution_nd`).

    ``DeconvolutionND(ndim, out_channels, ksize)`` is short for
    ``DeconvolutionND(ndim, None, out_channels, ksize)``; with
    ``in_channels=None`` the weight is allocated on the first call.

    Args:
        ndim (int): the number of spatial axes.
        in_channels (int or None): input channels.
        out_channels (int): output channels.
        ksize (int or tuple of ints): filter size.
        stride (int or tuple of ints): stride.
        pad (int or tuple of ints): padding removed from the output.
        nobias (bool): no bias term.
        outsize (tuple of ints or None): the output spatial size.
        initialW: initializer of ``W`` (default: LeCun normal).
        initial_bias: initializer of ``b`` (default: zeros).
        dilate (int or tuple of ints): filter dilation.
        groups (int): the number of channel groups.

    Attributes:
        W (Parameter): ``(in_channels, out_channels / groups) + ksize``.
        b (Parameter): ``(out_channels,)``, or None.
    """

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, nobias=False, outsize=None, initialW=None,
                 initial_bias=None, dilate=1, groups=1):
        super().__init__()
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        name = type(self).__name__
        self.ndim = ndim = check_size(name, 'ndim', ndim, allow_zero=False)
        self.in_channels = check_size(name, 'in_channels', in_channels,
                                      allow_none=True)
        self.out_channels = out_channels = check_size(
            name, 'out_channels', out_channels)
        self.ksize = conv_nd.as_tuple(ksize, ndim, 'ksize')
        self.stride = conv_nd.as_tuple(stride, ndim, 'stride')
        self.pad = conv_nd.as_tuple(pad, ndim, 'pad')
        self.dilate = conv_nd.as_tuple(dilate, ndim, 'dilate')
        self.outsize = outsize
        self.groups = _check_groups('DeconvolutionND', groups, out_channels)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        _check_in_channels('DeconvolutionND', in_channels, self.groups)
        self.W.initialize((in_channels, self.out_channels // self.groups) +
                          self.ksize)

    @property
    def printable_specs(self):
        yield 'ndim', self.ndim
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
        """Deconvolve ``x`` of shape ``(N, C, d_1, ..., d_ndim)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return deconvolution_nd(x, self.W, self.b, self.stride, self.pad,
                                outsize=self.outsize, dilate=self.dilate,
                                groups=self.groups)


class Deconvolution1D(DeconvolutionND):
    """:class:`DeconvolutionND` with ``ndim=1``."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, outsize=None, initialW=None, initial_bias=None,
                 dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad,
                         nobias, outsize, initialW, initial_bias, dilate,
                         groups)


class Deconvolution3D(DeconvolutionND):
    """:class:`DeconvolutionND` with ``ndim=3``."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, outsize=None, initialW=None, initial_bias=None,
                 dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad,
                         nobias, outsize, initialW, initial_bias, dilate,
                         groups)
