"""Convolution2D: the two-dimensional convolution as a link."""
from chainer_core import initializers
from chainer_core.functions.connection.convolution_2d import convolution_2d
from chainer_core.link import Link
from chainer_core.links._checks import check_bias_size, check_size
from chainer_core.variable import Parameter


def _pair(x):
    # NumPy integers have __getitem__ too: only sequences are pairs.
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return x, x


def _pop_conv_kwargs(name, kwargs, defaults):
    """Keyword-only options of a convolution link; Chainer's removed
    ``deterministic`` argument and unknown names are errors."""
    if 'deterministic' in kwargs:
        raise ValueError(
            "{}: the deterministic argument is not supported anymore; use "
            "chainer.using_config('cudnn_deterministic', value)".format(name))
    values = [kwargs.pop(key, default) for key, default in defaults]
    if kwargs:
        raise TypeError('{}: unexpected keyword arguments {}'.format(
            name, ', '.join(sorted(kwargs))))
    return values


def _check_groups(name, groups, out_channels):
    if isinstance(groups, bool) or int(groups) != groups or groups < 1:
        raise ValueError('{}: groups must be a positive int, got {!r}'.format(
            name, groups))
    if out_channels % groups != 0:
        raise ValueError('{}: the number of output channels ({}) must be '
                         'divisible by the number of groups ({})'.format(
                             name, out_channels, groups))
    return int(groups)


def _check_in_channels(name, in_channels, groups):
    if in_channels % groups != 0:
        raise ValueError('{}: the number of input channels ({}) must be '
                         'divisible by the number of groups ({})'.format(
                             name, in_channels, groups))


def _bias(nobias, initial_bias, shape=None):
    """The bias parameter of a layer (zeros unless ``initial_bias``)."""
    if nobias:
        return None
    if initial_bias is None:
        initial_bias = 0
    return Parameter(initializers._get_initializer(initial_bias), shape)


class Convolution2D(Link):
    """Two-dimensional convolutional layer (see
    :func:`~chainer_core.functions.convolution_2d`).

    ``Convolution2D(out_channels, ksize)`` (``ksize`` given as the second
    argument) is short for ``Convolution2D(None, out_channels, ksize)``;
    with ``in_channels=None`` the weight is allocated on the first call.

    Args:
        in_channels (int or None): input channels.
        out_channels (int): output channels.
        ksize (int or pair of ints): filter size.
        stride (int or pair of ints): stride.
        pad (int or pair of ints): spatial zero padding.
        nobias (bool): no bias term.
        initialW: initializer of ``W`` (default: LeCun normal).
        initial_bias: initializer of ``b`` (default: zeros).
        dilate (int or pair of ints): keyword only; filter dilation.
        groups (int): keyword only; the number of channel groups.

    Attributes:
        W (Parameter): ``(out_channels, in_channels / groups, kh, kw)``.
        b (Parameter): ``(out_channels,)``, or None.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None, **kwargs):
        super().__init__()
        dilate, groups = _pop_conv_kwargs(
            'Convolution2D', kwargs, (('dilate', 1), ('groups', 1)))
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        self.in_channels = check_size('Convolution2D', 'in_channels',
                                      in_channels, allow_none=True)
        self.out_channels = out_channels = check_size(
            'Convolution2D', 'out_channels', out_channels)
        self.ksize = ksize
        self.stride = _pair(stride)
        self.pad = _pair(pad)
        self.dilate = _pair(dilate)
        self.groups = _check_groups('Convolution2D', groups, out_channels)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_channels is not None:
                self._initialize_params(in_channels)
            self.b = _bias(nobias, initial_bias, out_channels)

    def _initialize_params(self, in_channels):
        _check_in_channels('Convolution2D', in_channels, self.groups)
        kh, kw = _pair(self.ksize)
        self.W.initialize((self.out_channels, in_channels // self.groups,
                           kh, kw))

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, **kwargs):
        """A Convolution2D holding the filter ``W`` ``(out_channels,
        in_channels / groups, kh, kw)`` and ``b`` ``(out_channels,)``
        (ignored with ``nobias``), copied into parameters of the default
        dtype; ``kwargs`` are ``dilate`` and ``groups``."""
        out_channels, in_per_group, kh, kw = W.shape
        check_bias_size(cls.__name__, b, out_channels)
        in_channels = in_per_group * kwargs.get('groups', 1)
        return cls(in_channels, out_channels, (kh, kw), stride, pad, nobias,
                   initialW=W, initial_bias=b, **kwargs)

    @property
    def printable_specs(self):
        yield 'in_channels', self.in_channels
        yield 'out_channels', self.out_channels
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'pad', self.pad
        yield 'nobias', self.b is None
        yield 'dilate', self.dilate
        yield 'groups', self.groups

    def forward(self, x):
        """Convolve ``x`` of shape ``(N, C, H, W)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return convolution_2d(x, self.W, self.b, self.stride, self.pad,
                              dilate=self.dilate, groups=self.groups)
