"""split_axis: cut an array into pieces along an axis."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check


@kernels.declare('split_axis')
def _split_axis(xp, x, indices_or_sections, axis):
    """x cut along axis (numpy.split), as a tuple of views."""
    return tuple(xp.split(x, indices_or_sections, axis))


class SplitAxis(function_node.FunctionNode):
    """Split an array into pieces along an axis."""

    def __init__(self, indices_or_sections, axis):
        self.axis = _util.check_int(axis, 'split_axis', 'axis')
        if _util.is_int(indices_or_sections):
            self.sections = int(indices_or_sections)
            if self.sections <= 0:
                raise ValueError(
                    'split_axis: indices_or_sections as a number of sections '
                    'must be positive, got {}'.format(self.sections))
            self.indices = None
        else:
            try:
                indices = [int(i) if _util.is_int(i) else None
                           for i in indices_or_sections]
            except TypeError:
                indices = [None]
            if None in indices:
                raise TypeError(
                    'split_axis: indices_or_sections must be an int or a '
                    'sequence of ints, got {!r}'.format(indices_or_sections))
            self.indices = tuple(indices)
            self.sections = None

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        _util.expect_axis(x_type, self.axis, 'axis')
        if self.sections is not None:
            sections = type_check.make_variable(self.sections, 'sections')
            type_check.expect(x_type.shape[self.axis] % sections == 0)

    def _bounds(self, size):
        # As numpy.split: negative indices count from the end, indices past
        # the end give empty pieces; unsorted ones would make pieces
        # overlap, which the gradient (a concat) cannot undo.
        bounds = [min(max(i + size if i < 0 else i, 0), size)
                  for i in self.indices]
        if any(a > b for a, b in zip(bounds, bounds[1:])):
            raise ValueError(
                'split_axis: indices_or_sections must be sorted (after '
                'negative indices count from the end), got {} for an axis '
                'of size {}'.format(list(self.indices), size))
        return bounds

    def forward(self, inputs):
        x, = inputs
        self.axis %= x.ndim
        if self.indices is not None:
            cut = self._bounds(x.shape[self.axis])
        else:
            cut = self.sections
        ys = kernels.lookup('split_axis', x)(x, cut, self.axis)
        self._shapes = [y.shape for y in ys]
        return ys

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.concat import concat
        gys = _util.fill_none_grads(grad_outputs, self._shapes,
                                    self.inputs[0].dtype)
        if len(gys) == 1:
            return gys[0],
        return concat(gys, self.axis),


def split_axis(x, indices_or_sections, axis, force_tuple=True):
    """Split ``x`` into pieces along ``axis``.

    Args:
        x (Variable or array): input.
        indices_or_sections (int or sequence of int): a number of sections
            of equal size (which must divide the axis), or the sorted
            positions along ``axis`` where the pieces start (as
            ``numpy.split``).
        axis (int): the axis to split.
        force_tuple (bool): return a tuple even for a single piece; with
            False a single piece is returned as a Variable.

    Returns:
        tuple of Variable (or a Variable): the pieces. Gradients of pieces
        that are not used downstream count as zeros.
    """
    ys = SplitAxis(indices_or_sections, axis).apply((x,))
    if not force_tuple and len(ys) == 1:
        return ys[0]
    return ys
