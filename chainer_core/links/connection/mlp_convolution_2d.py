"""MLPConvolution2D: the "mlpconv" layer of Network in Network (Lin et al.,
2014), a convolution followed by 1x1 convolutions."""
from chainer_core.functions.activation.relu import relu
from chainer_core.link import ChainList
from chainer_core.links.connection.convolution_2d import Convolution2D
from chainer_core.utils import argument

_NO_WSCALE = ('MLPConvolution2D: wscale is not supported anymore; use the '
              'conv_init and bias_init arguments to scale the initial '
              'parameters')


class MLPConvolution2D(ChainList):
    """A convolution of window ``ksize``, then 1x1 convolutions: a small
    fully-connected network applied at every pixel.

    The first :class:`~chainer_core.links.Convolution2D` maps
    ``in_channels`` to ``out_channels[0]`` with ``ksize``, ``stride`` and
    ``pad``; the ``k``-th next one maps ``out_channels[k - 1]`` to
    ``out_channels[k]`` with a 1x1 window. ``activation`` follows every
    convolution but the last. ``MLPConvolution2D(out_channels, ksize)``
    leaves ``in_channels`` to the first input.

    Args:
        in_channels (int or None): input channels (None: from the first
            input).
        out_channels (tuple of ints): the output channels of each
            convolution (at least one).
        ksize (int or pair of ints): the first convolution's window.
        stride (int or pair of ints): the first convolution's stride.
        pad (int or pair of ints): the first convolution's padding.
        activation (callable): applied between the convolutions.
        conv_init: initializer of every filter (keyword; None: LeCun
            normal).
        bias_init: initializer of every bias (keyword; None: zero).

    Attributes:
        activation (callable): as given.

    .. admonition:: Example

        >>> mlpconv = L.MLPConvolution2D(3, (16, 16, 8), ksize=3, pad=1)
        >>> mlpconv(np.zeros((1, 3, 8, 8), np.float32)).shape
        (1, 8, 8, 8)
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 activation=relu, *args, **kwargs):
        if args:
            # Chainer v1 took wscale positionally here.
            raise TypeError(_NO_WSCALE)
        argument.check_unexpected_kwargs(kwargs, wscale=_NO_WSCALE)
        conv_init, bias_init = argument.parse_kwargs(
            kwargs, ('conv_init', None), ('bias_init', None))
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        try:
            out_channels = tuple(out_channels)
        except TypeError:
            raise TypeError('MLPConvolution2D: out_channels must be a tuple '
                            'of ints, got {!r}'.format(out_channels))
        if not out_channels:
            raise ValueError('MLPConvolution2D: out_channels must name at '
                             'least one convolution, got ()')
        convs = [Convolution2D(in_channels, out_channels[0], ksize, stride,
                               pad, initialW=conv_init,
                               initial_bias=bias_init)]
        for n_in, n_out in zip(out_channels, out_channels[1:]):
            convs.append(Convolution2D(n_in, n_out, 1, initialW=conv_init,
                                       initial_bias=bias_init))
        super().__init__(*convs)
        self.activation = activation

    def forward(self, x):
        """``x`` ``(B, in_channels, H, W)`` to ``(B, out_channels[-1], H',
        W')``."""
        convs = list(self)
        for conv in convs[:-1]:
            x = self.activation(conv(x))
        return convs[-1](x)
