"""ConvolutionND (and Convolution1D/3D): N-dimensional convolution links."""
from chainer_core import initializers
from chainer_core.functions.connection.convolution_nd import convolution_nd
from chainer_core.link import Link
from chainer_core.links._checks import check_bias_size, check_size
from chainer_core.links.connection.convolution_2d import (
    _bias, _check_groups, _check_in_channels)
from chainer_core.utils import conv_nd
from chainer_core.variable import Parameter


class ConvolutionND(Link):
    """N-dimensional convolutional layer (see
    :func:`~chainer_core.functions.convolution_nd`).

    ``ConvolutionND(ndim, out_channels, ksize)`` is short for
    ``ConvolutionND(ndim, None, out_channels, ksize)``; with
    ``in_channels=None`` the weight is allocated on the first call.

    Args:
        ndim (int): the number of spatial axes.
        in_channels (int or None): input channels.
        out_channels (int): output channels.
        ksize (int or tuple of ints): filter size.
        stride (int or tuple of ints): stride.
        pad (int or tuple of ints): spatial zero padding.
        nobias (bool): no bias term.
        initialW: initializer of ``W`` (default: LeCun normal).
        initial_bias: initializer of ``b`` (default: zeros).
        cover_all (bool): extra output positions so that every input
            element is covered.
        dilate (int or tuple of ints): filter dilation.
        groups (int): the number of channel groups.

    Attributes:
        W (Parameter): ``(out_channels, in_channels / groups) + ksize``.
        b (Parameter): ``(out_channels,)``, or None.
    """

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1,
                 pad=0, nobias=False, initialW=None, initial_bias=None,
                 cover_all=False, dilate=1, groups=1):
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
        self.cover_all = cover_all
        self.groups = _check_groups('ConvolutionND', groups, out_channels)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        _check_in_channels('ConvolutionND', in_channels, self.groups)
        self.W.initialize((self.out_channels, in_channels // self.groups) +
                          self.ksize)

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, **kwargs):
        """A ConvolutionND holding the filter ``W`` ``(out_channels,
        in_channels / groups, k_1, ..., k_N)`` and ``b``
        ``(out_channels,)`` (ignored with ``nobias``), copied into
        parameters of the default dtype; ``kwargs`` are ``cover_all``,
        ``dilate`` and ``groups``."""
        out_channels, in_per_group = W.shape[:2]
        check_bias_size(cls.__name__, b, out_channels)
        in_channels = in_per_group * kwargs.get('groups', 1)
        return cls(W.ndim - 2, in_channels, out_channels, W.shape[2:],
                   stride, pad, nobias, initialW=W, initial_bias=b, **kwargs)

    @property
    def printable_specs(self):
        yield 'ndim', self.ndim
        yield 'in_channels', self.in_channels
        yield 'out_channels', self.out_channels
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'pad', self.pad
        yield 'nobias', self.b is None
        yield 'cover_all', self.cover_all
        yield 'dilate', self.dilate
        yield 'groups', self.groups

    def forward(self, x):
        """Convolve ``x`` of shape ``(N, C, d_1, ..., d_ndim)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return convolution_nd(x, self.W, self.b, self.stride, self.pad,
                              cover_all=self.cover_all, dilate=self.dilate,
                              groups=self.groups)


class Convolution1D(ConvolutionND):
    """:class:`ConvolutionND` with ``ndim=1``."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None,
                 cover_all=False, dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad,
                         nobias, initialW, initial_bias, cover_all, dilate,
                         groups)


class Convolution3D(ConvolutionND):
    """:class:`ConvolutionND` with ``ndim=3``."""

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None,
                 cover_all=False, dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad,
                         nobias, initialW, initial_bias, cover_all, dilate,
                         groups)
