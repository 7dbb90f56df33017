"""pad: extend an array at its borders."""
import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check

_MODES = ('constant', 'edge', 'reflect', 'symmetric', 'wrap')


@kernels.declare('pad')
def _pad(xp, x, pad_width, mode, constant_values):
    """numpy.pad of x; pad_width is ((before, after),) per axis; the
    constant_values apply to mode 'constant' only."""
    if mode == 'constant':
        return xp.pad(x, pad_width, mode='constant',
                      constant_values=constant_values)
    return xp.pad(x, pad_width, mode=mode)


@kernels.declare('pad_grad')
def _pad_grad(xp, gy, sources, shape):
    """The adjoint of a padding that copies elements, to an array of shape:
    along each axis k, the element of gy at position j is added to position
    sources[k][j] (sources are integer arrays, or None for an axis that
    was not padded)."""
    g = gy
    for axis, src in enumerate(sources):
        if src is None:
            continue
        acc = xp.zeros(g.shape[:axis] + (shape[axis],) + g.shape[axis + 1:],
                       dtype=g.dtype)
        xp.add.at(acc, (slice(None),) * axis + (src,), g)
        g = acc
    return g


def _normalize_pad_width(pad_width, ndim):
    try:
        widths = numpy.asarray(pad_width)
    except (TypeError, ValueError):
        widths = numpy.asarray(None)
    if widths.dtype.kind not in 'iu':
        raise TypeError('pad: pad_width must be an int or (nested) pairs of '
                        'ints, got {!r}'.format(pad_width))
    try:
        widths = numpy.broadcast_to(widths, (ndim, 2))
    except ValueError:
        raise ValueError(
            'pad: pad_width {!r} cannot be broadcast to (ndim, 2) = ({}, 2) '
            'pairs (before, after)'.format(pad_width, ndim)) from None
    if (widths < 0).any():
        raise ValueError('pad: pad_width must not be negative, got {!r}'
                         .format(pad_width))
    return tuple((int(b), int(a)) for b, a in widths)


class Pad(function_node.FunctionNode):
    """Padding at the borders of each axis."""

    def __init__(self, pad_width, mode, constant_values=0):
        if mode not in _MODES:
            raise ValueError('pad: mode must be one of {}, got {!r}'.format(
                ', '.join(repr(m) for m in _MODES), mode))
        self.pad_width = pad_width
        self.mode = mode
        self.constant_values = constant_values

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == 'f')
        if self.mode != 'constant':
            # Only 'constant' can fill an axis that has no element to copy.
            shape = type_check.eval(x_type.shape)
            for axis, (size, widths) in enumerate(
                    zip(shape, self.pad_width)):
                if size == 0 and any(widths):
                    raise type_check.InvalidType(
                        'x.shape[{}] > 0 for mode {!r}'.format(
                            axis, self.mode),
                        'x.shape[{}] == 0'.format(axis))

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('pad', x)(x, self.pad_width, self.mode,
                                        self.constant_values),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        shape = self.inputs[0].shape
        if self.mode == 'constant':
            from chainer_core.functions.array.get_item import get_item
            return get_item(gy, tuple(
                slice(b, b + n) for (b, _), n in zip(self.pad_width, shape))),
        return PadGrad(self.pad_width, self.mode, shape).apply(grad_outputs)


class PadGrad(function_node.FunctionNode):
    """Sum the gradient of each copied element back onto its source."""

    def __init__(self, pad_width, mode, shape):
        self.pad_width = pad_width
        self.mode = mode
        self._shape = shape
        self._sources = [
            None if b == a == 0 else
            numpy.pad(numpy.arange(n), (b, a), mode=mode)
            for (b, a), n in zip(pad_width, shape)]

    def forward(self, inputs):
        gy, = inputs
        device = _util.device_of(gy)
        sources = [None if s is None else device.send(s)
                   for s in self._sources]
        return kernels.lookup('pad_grad', gy)(gy, sources, self._shape),

    def backward(self, indexes, grad_outputs):
        return Pad(self.pad_width, self.mode).apply(grad_outputs)


def pad(x, pad_width, mode, **keywords):
    """Pad ``x`` at the borders of its axes (as ``numpy.pad``).

    Modes: ``'constant'`` (a constant, ``constant_values``, default 0),
    ``'edge'`` (the border element), ``'reflect'`` (mirrored without the
    border element), ``'symmetric'`` (mirrored with it) and ``'wrap'``
    (the other end of the axis). Gradients of the copying modes add up
    over every copy of an element.

    Args:
        x (Variable or array): float input.
        pad_width (int or sequence): the widths ``(before, after)`` per
            axis, or one pair, or one int for every side (NumPy's rules).
        mode (str): one of the modes above.
        constant_values (scalar or sequence): for ``'constant'`` only, the
            fill values (NumPy's rules).

    Returns:
        Variable: output with ``y.shape[i] == x.shape[i] + before_i +
        after_i``.
    """
    if mode != 'constant' and 'constant_values' in keywords:
        raise ValueError('pad: constant_values applies to mode '
                         '\'constant\' only, not {!r}'.format(mode))
    constant_values = keywords.pop('constant_values', 0)
    if keywords:
        raise TypeError('pad: unsupported keyword arguments {}; only '
                        'constant_values (mode \'constant\') is supported'
                        .format(', '.join(sorted(keywords))))
    widths = _normalize_pad_width(pad_width, x.ndim)
    return Pad(widths, mode, constant_values).apply((x,))[0]
