"""tensordot: sums of products over paired axes of two arrays."""
import numbers

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('tensordot')
def _tensordot(xp, a, b, a_axes, b_axes, perm):
    """xp.tensordot(a, b, (a_axes, b_axes)): the free axes of a, then those
    of b; then transposed by perm unless it is None. The result has the
    dtype the operands promote to."""
    y = xp.tensordot(a, b, axes=(list(a_axes), list(b_axes)))
    if perm is not None:
        y = y.transpose(perm)
    return xp.asarray(y)


def _argsort(seq):
    return tuple(sorted(range(len(seq)), key=seq.__getitem__))


class TensorDot(function_node.FunctionNode):
    """Contraction of ``a_axes`` of ``a`` with ``b_axes`` of ``b``.

    The result's axes are the free axes of ``a`` then those of ``b`` (each
    in their order), permuted by ``perm`` when given. ``dtype`` fixes the
    output dtype (the promoted dtype when None).
    """

    def __init__(self, a_axes, b_axes, perm=None, dtype=None):
        self.a_axes = tuple(a_axes)
        self.b_axes = tuple(b_axes)
        self.perm = perm
        self.dtype = dtype

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(a_type.dtype.kind == 'f',
                          b_type.dtype.kind == 'f')
        for i, j in zip(self.a_axes, self.b_axes):
            type_check.expect(a_type.shape[i] == b_type.shape[j])

    def forward(self, inputs):
        a, b = inputs
        self.retain_inputs((0, 1))
        self._free_a = tuple(i for i in range(a.ndim)
                             if i not in self.a_axes)
        self._free_b = tuple(i for i in range(b.ndim)
                             if i not in self.b_axes)
        y = kernels.lookup('tensordot', a)(
            a, b, self.a_axes, self.b_axes, self.perm)
        if self.dtype is not None and y.dtype != self.dtype:
            y = y.astype(self.dtype)
        return y,

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        gy, = grad_outputs
        free_a, free_b = self._free_a, self._free_b
        n_a = len(free_a)
        n_out = n_a + len(free_b)
        perm = self.perm if self.perm is not None else tuple(range(n_out))
        # Axis k of gy is axis perm[k] of the unpermuted product.
        position = _argsort(perm)
        ret = []
        if 0 in indexes:
            # Contract gy with b over b's free axes; what is left is a's
            # free axes (in gy's order) and b's contracted axes (sorted),
            # each of which names an axis of a.
            gy_axes = [position[n_a + t] for t in range(len(free_b))]
            kept = [k for k in range(n_out) if k not in gy_axes]
            names = [free_a[perm[k]] for k in kept] + [
                self.a_axes[self.b_axes.index(j)]
                for j in sorted(self.b_axes)]
            ret.append(self._apply(gy, b, gy_axes, free_b, names, a.dtype))
        if 1 in indexes:
            gy_axes = [position[u] for u in range(n_a)]
            kept = [k for k in range(n_out) if k not in gy_axes]
            names = [self.b_axes[self.a_axes.index(i)]
                     for i in sorted(self.a_axes)] + [
                free_b[perm[k] - n_a] for k in kept]
            ret.append(self._apply(a, gy, free_a, gy_axes, names, b.dtype))
        return tuple(ret)

    @staticmethod
    def _apply(x, y, x_axes, y_axes, names, dtype):
        perm = _argsort(names)
        if perm == tuple(range(len(perm))):
            perm = None
        return TensorDot(x_axes, y_axes, perm, dtype).apply((x, y))[0]


def _axes_list(axes, ndim, operand):
    if isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        axes = (axes,)
    try:
        axes = tuple(axes)
    except TypeError:
        raise TypeError('tensordot: axes must be an int or a pair of ints or '
                        'sequences of ints, got {!r}'.format(axes)) from None
    out = []
    for a in axes:
        if not isinstance(a, numbers.Integral) or isinstance(a, bool):
            raise TypeError('tensordot: axes must hold ints, got {!r}'.format(
                a))
        if not -ndim <= a < ndim:
            raise ValueError('tensordot: axis {} is out of bounds for {} of '
                             'ndim {}'.format(a, operand, ndim))
        out.append(int(a) % ndim)
    if len(set(out)) != len(out):
        raise ValueError('tensordot: axes {} name an axis of {} twice'.format(
            axes, operand))
    return tuple(out)


def tensordot(a, b, axes=2):
    """Tensor dot product: sums of products over paired axes, as
    :func:`numpy.tensordot`.

    The result's axes are the remaining axes of ``a`` followed by those of
    ``b``.

    Args:
        a (Variable or array): first operand, of a float dtype.
        b (Variable or array): second operand, of a float dtype.
        axes (int or pair): an int ``n`` pairs the last ``n`` axes of ``a``
            with the first ``n`` of ``b``; a pair ``(a_axes, b_axes)`` of
            ints or equally long sequences of ints pairs them one by one.

    Returns:
        Variable: the contraction, of the dtype the operands promote to.

    .. admonition:: Example

        >>> a = numpy.ones((5, 3, 2), numpy.float32)
        >>> b = numpy.ones((3, 2, 4), numpy.float32)
        >>> F.tensordot(a, b, axes=2).shape
        (5, 4)
    """
    for name, x in (('a', a), ('b', b)):
        if not hasattr(x, 'ndim'):
            raise TypeError('tensordot: {} must be a Variable or an array, '
                            'got {}'.format(name, type(x).__name__))
    if isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        if not 0 <= axes <= min(a.ndim, b.ndim):
            raise ValueError(
                'tensordot: axes={} must be between 0 and the ndim of a ({}) '
                'and of b ({})'.format(axes, a.ndim, b.ndim))
        a_axes = tuple(range(a.ndim - axes, a.ndim))
        b_axes = tuple(range(axes))
    else:
        if not isinstance(axes, (tuple, list)) or len(axes) != 2:
            raise TypeError('tensordot: axes must be an int or a pair '
                            '(a_axes, b_axes), got {!r}'.format(axes))
        a_axes = _axes_list(axes[0], a.ndim, 'a')
        b_axes = _axes_list(axes[1], b.ndim, 'b')
        if len(a_axes) != len(b_axes):
            raise ValueError('tensordot: axes pair {} axes of a with {} of b'
                             .format(len(a_axes), len(b_axes)))
    return TensorDot(a_axes, b_axes).apply((a, b))[0]
