"""fft and ifft: the discrete Fourier transform along the last axis, of a
complex array given as the pair (real part, imaginary part).

The transform is linear: the gradient of ``fft`` is ``n`` times ``ifft``
of the output gradient (the adjoint of the DFT matrix is its conjugate),
and that of ``ifft`` is ``fft`` over ``n``.
"""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('fft')
def _fft(xp, real, imag, inverse):
    """(y_real, y_imag): the DFT (inverse DFT when inverse) of real + i imag
    along the last axis, in the dtype of the inputs (float16 through
    complex64)."""
    dtype = real.dtype
    ctype = numpy.complex128 if dtype == numpy.float64 else numpy.complex64
    x = real.astype(ctype) + 1j * imag.astype(ctype)
    y = xp.fft.ifft(x) if inverse else xp.fft.fft(x)
    return (xp.ascontiguousarray(y.real).astype(dtype, copy=False),
            xp.ascontiguousarray(y.imag).astype(dtype, copy=False))


class FFT(function_node.FunctionNode):
    """The (inverse) discrete Fourier transform along the last axis."""

    def __init__(self, inverse):
        self.inverse = inverse

    @property
    def label(self):
        return 'ifft' if self.inverse else 'fft'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('real', 'imag'))
        r_type, i_type = in_types
        type_check.expect(
            r_type.dtype.kind == 'f',
            r_type.ndim >= 1,
            i_type.dtype == r_type.dtype,
            i_type.shape == r_type.shape,
        )

    def forward(self, inputs):
        real, imag = inputs
        return kernels.lookup('fft', real)(real, imag, self.inverse)

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array import _util
        shape = self.inputs[0].shape
        n = shape[-1]
        g_real, g_imag = _util.fill_none_grads(
            grad_outputs, (shape, shape), self.inputs[0].dtype)
        gx = FFT(not self.inverse).apply((g_real, g_imag))
        scale = 1.0 / n if self.inverse else float(n)
        return tuple(gx[i] * scale for i in indexes)


def _transform(x, inverse):
    name = 'ifft' if inverse else 'fft'
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise TypeError('{}: x must be a pair (real, imag) of Variables or '
                        'arrays, got {}'.format(
                            name, type(x).__name__ if not isinstance(
                                x, (tuple, list)) else
                            'a sequence of {}'.format(len(x))))
    return FFT(inverse).apply(tuple(x))


def fft(x):
    """Discrete Fourier transform along the last axis.

    .. math::
        y_k = \\sum_{j=0}^{n-1} x_j e^{-2 \\pi i j k / n}

    The complex input and output are pairs of float arrays (real part,
    imaginary part), as in Chainer.

    Args:
        x (tuple): ``(real, imag)``, Variables or arrays of one shape
            ``(..., n)`` and one float dtype.

    Returns:
        tuple of Variable: ``(y_real, y_imag)``, of the shape and dtype of
        the inputs.

    .. admonition:: Example

        >>> yr, yi = F.fft((np.array([1.0, 0.0, 0.0, 0.0]),
        ...                 np.zeros(4)))
        >>> yr.array, yi.array
        (array([1., 1., 1., 1.]), array([0., 0., 0., 0.]))
    """
    return _transform(x, False)


def ifft(x):
    """Inverse discrete Fourier transform along the last axis.

    .. math::
        y_k = \\frac{1}{n} \\sum_{j=0}^{n-1} x_j e^{2 \\pi i j k / n}

    so that ``ifft(fft(x))`` is ``x``.

    Args:
        x (tuple): ``(real, imag)``, Variables or arrays of one shape
            ``(..., n)`` and one float dtype.

    Returns:
        tuple of Variable: ``(y_real, y_imag)``, of the shape and dtype of
        the inputs.
    """
    return _transform(x, True)
