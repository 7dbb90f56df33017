"""shift: each group of channels moved by its own spatial offset (the
shift operation of Wu et al., 2017, a parameter-free alternative to a
spatial convolution).

The offsets are the positions of a ``kh x kw`` window around its centre,
row-major with the centre and the last swapped; channel group ``g`` takes the
``g``-th of them, and the channels left over after ``kh * kw`` equal groups
join the last (unshifted) group. The gradient moves the output gradient
back, which is the shift with the opposite offsets.
"""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import conv_nd
from chainer_core.utils import type_check


def _offsets(ksize, dilate):
    """The (dy, dx) offset of each channel group: row-major over the
    window, with the centre and the last swapped (so the last group stays
    in place)."""
    kh, kw = ksize
    positions = [(i, j) for i in range(kh) for j in range(kw)]
    centre = len(positions) // 2
    positions[centre], positions[-1] = positions[-1], positions[centre]
    return [((i - kh // 2) * dilate[0], (j - kw // 2) * dilate[1])
            for i, j in positions]


def _span(offset, size):
    """(destination, source) slices of an axis of ``size`` moved by
    ``offset`` (y[i] = x[i - offset]); empty when it moves out."""
    lo, hi = max(offset, 0), min(size, size + offset)
    if lo >= hi:
        return slice(0, 0), slice(0, 0)
    return slice(lo, hi), slice(lo - offset, hi - offset)


@kernels.declare('shift')
def _shift(xp, x, ksize, dilate):
    """y (N, C, H, W): channel group g of x (C // (kh kw) channels, the
    rest in the last group) moved by the g-th window offset (row-major
    over the (kh, kw) window times dilate, the centre swapped with the
    last), zeros
    shifted in; y[.., i, j] = x[.., i - dy, j - dx]."""
    groups = ksize[0] * ksize[1]
    channels, height, width = x.shape[1:]
    size = channels // groups
    y = xp.zeros_like(x)
    for g, (dy, dx) in enumerate(_offsets(ksize, dilate)):
        end = channels if g == groups - 1 else (g + 1) * size
        rows, src_rows = _span(dy, height)
        cols, src_cols = _span(dx, width)
        y[:, g * size:end, rows, cols] = x[:, g * size:end, src_rows,
                                           src_cols]
    return y


class Shift(function_node.FunctionNode):
    """Shift channel groups of a 4-D input by window offsets."""

    def __init__(self, ksize=3, dilate=1):
        self.ksize = self._pair(ksize, 'ksize')
        if any(k % 2 == 0 or k < 1 for k in self.ksize):
            raise ValueError('shift: ksize must be odd and positive, got '
                             '{!r}'.format(ksize))
        self.dilate = self._pair(dilate, 'dilate')

    @staticmethod
    def _pair(value, name):
        try:
            return conv_nd.as_tuple(value, 2, name)
        except (TypeError, ValueError) as e:
            raise type(e)('shift: {}'.format(e)) from None

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
            x_type.shape[1] >= type_check.make_variable(
                self.ksize[0] * self.ksize[1], 'kh * kw'),
        )

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('shift', x)(x, self.ksize, self.dilate),

    def backward(self, indexes, grad_outputs):
        back = Shift(self.ksize, tuple(-d for d in self.dilate))
        return back.apply(grad_outputs)


def shift(x, ksize=3, dilate=1):
    """Shifts each group of channels by its own spatial offset.

    The channels are split into ``kh * kw`` groups of ``C // (kh kw)``
    (the remainder joins the last group). Group ``g`` is moved by the
    ``g``-th offset of the window,

    .. math::
        y_{n,c,i,j} = x_{n,c,\\; i - d_Y (u_g - \\lfloor k_H / 2 \\rfloor),
        \\; j - d_X (v_g - \\lfloor k_W / 2 \\rfloor)}

    with zeros where that falls outside ``x``, where :math:`(u_g, v_g)`
    runs over the window positions row by row, with the centre and the
    last position swapped (so the last group stays in place).

    Args:
        x (Variable or array): input of shape ``(N, C, H, W)`` with
            ``C >= kh * kw``.
        ksize (int or pair of ints): the window ``(kh, kw)``, odd sizes.
        dilate (int or pair of ints): the distance between window
            positions.

    Returns:
        Variable of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.zeros((1, 9, 3, 3), 'f')
        >>> x[0, :, 1, 1] = 1
        >>> y = F.shift(x)
        >>> y.array[0, 0]  # the first group moves up and left
        array([[1., 0., 0.],
               [0., 0., 0.],
               [0., 0., 0.]], dtype=float32)
    """
    return Shift(ksize, dilate).apply((x,))[0]
