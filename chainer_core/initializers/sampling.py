"""Filters that make a convolution downsample, or a deconvolution upsample,
each channel by linear interpolation."""
import numpy

from chainer_core.initializer import Initializer
from chainer_core.initializers._random import _fill


def _linear_kernel(size, ndim):
    """The separable tent (bilinear, trilinear...) kernel of ``size`` taps
    along each of ``ndim`` axes, peaking at the centre."""
    factor = (size + 1) // 2
    # An even size has its peak between the two middle taps.
    center = factor - 1.0 if size % 2 == 1 else factor - 0.5
    taps = 1.0 - numpy.abs(numpy.arange(size) - center) / factor
    kernel = numpy.ones(())
    for _ in range(ndim):
        kernel = numpy.multiply.outer(kernel, taps)
    return kernel


class _SamplingFilter(Initializer):

    _normalize = False

    def __init__(self, interpolation='linear', dtype=None):
        if interpolation != 'linear':
            raise ValueError("{}: interpolation must be 'linear', got {!r}"
                             .format(type(self).__name__, interpolation))
        self.interpolation = interpolation
        super().__init__(dtype)

    def __call__(self, array):
        name = type(self).__name__
        self._check_dtype(array)
        if array.ndim < 3:
            raise ValueError('{}: expected a filter (c0, c1, k, ...) of at '
                             'least 3 axes, got shape {}'.format(
                                 name, array.shape))
        c0, c1 = array.shape[:2]
        ksizes = set(array.shape[2:])
        if len(ksizes) != 1:
            raise ValueError('{}: the kernel must be the same size along '
                             'every axis, got shape {}'.format(
                                 name, array.shape))
        if c0 != c1 and c1 != 1:
            raise ValueError('{}: the first two axes must be equal, or the '
                             'second 1, got shape {}'.format(
                                 name, array.shape))
        kernel = _linear_kernel(ksizes.pop(), array.ndim - 2)
        if self._normalize:
            kernel /= kernel.sum()
        if c1 == 1:
            # One input channel per group (depthwise): every filter is the
            # kernel.
            filt = numpy.broadcast_to(kernel, array.shape)
        else:
            # Channel i maps to channel i only.
            filt = numpy.zeros(array.shape)
            filt[numpy.arange(c0), numpy.arange(c0)] = kernel
        _fill(array, filt)


class UpsamplingDeconvFilter(_SamplingFilter):
    """A deconvolution filter that upsamples each channel by linear
    interpolation (bilinear for 2-D kernels).

    The filter ``(in_channels, out_channels, k, ..., k)`` maps channel ``i``
    to channel ``i`` with the tent kernel of ``k`` taps (1 at the centre);
    with ``out_channels == 1`` every filter is the kernel. Use it with
    ``Deconvolution2D(c, c, ksize=2 * f - f % 2, stride=f,
    pad=int(numpy.ceil((f - 1) / 2.)))`` to upsample by ``f``.

    Args:
        interpolation (str): only 'linear'.
        dtype: the dtype of the arrays it fills (None: the default dtype).
    """


class DownsamplingConvFilter(_SamplingFilter):
    """A convolution filter that downsamples each channel by averaging
    with linear-interpolation weights.

    As :class:`UpsamplingDeconvFilter`, with the kernel normalised to sum
    to 1, for filters ``(out_channels, in_channels, k, ..., k)`` of a
    convolution with ``stride`` the downsampling factor.

    Args:
        interpolation (str): only 'linear'.
        dtype: the dtype of the arrays it fills (None: the default dtype).
    """

    _normalize = True
