"""where: choose elements from two arrays by a condition."""
import numbers

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.array import _util
from chainer_core.utils import type_check
from chainer_core.variable import as_array


@kernels.declare('where')
def _where(xp, condition, x, y):
    """x where condition is true, else y (all three broadcast)."""
    return xp.where(condition, x, y)


class Where(function_node.FunctionNode):
    """Elementwise choice between two arrays."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('condition', 'x', 'y'))
        c_type, x_type, y_type = in_types
        type_check.expect(c_type.dtype.kind == 'b',
                          x_type.dtype == y_type.dtype)
        type_check.expect_broadcast_shapes(c_type.shape, x_type.shape,
                                           y_type.shape)

    def forward(self, inputs):
        c, x, y = inputs
        self._condition = c
        return kernels.lookup('where', x)(c, x, y),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum_to
        gy, = grad_outputs
        zero = _util.zeros(gy.array, (), gy.dtype)
        c = self._condition
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(None)
                continue
            g = where(c, gy, zero) if i == 1 else where(c, zero, gy)
            ret.append(sum_to(g, self.inputs[i].shape))
        return tuple(ret)


def where(condition, x, y):
    """Choose elements: ``x`` where ``condition`` holds, ``y`` elsewhere.

    The three arguments broadcast together (NumPy's rules).

    Args:
        condition (Variable or array): boolean array.
        x (Variable, array or scalar): values where the condition is true.
        y (Variable, array or scalar): values where it is false, of the
            dtype of ``x``. One of ``x`` and ``y`` may be a Python scalar,
            which takes the other's dtype.

    Returns:
        Variable: output of the broadcast shape and the dtype of ``x`` and
        ``y``; differentiable in ``x`` and ``y``.
    """
    x_scalar = isinstance(x, numbers.Number)
    y_scalar = isinstance(y, numbers.Number)
    if x_scalar and y_scalar:
        raise TypeError('where: x and y cannot both be scalars; one must be '
                        'an array or a Variable')
    if x_scalar or y_scalar:
        other = as_array(y if x_scalar else x)
        value = _util.xp_of(other).asarray(x if x_scalar else y,
                                           dtype=other.dtype)
        if x_scalar:
            x = value
        else:
            y = value
    return Where().apply((condition, x, y))[0]
