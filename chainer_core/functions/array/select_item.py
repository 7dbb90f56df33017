"""select_item: pick one element per row."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('select_item')
def _select_item(xp, x, t):
    """y[i] = x[i, t[i]] for a 2-D x and 1-D integer t."""
    return x[xp.arange(t.shape[0]), t]


@kernels.declare('select_item_grad')
def _select_item_grad(xp, gy, t, n_columns):
    """gx of shape (len(t), n_columns): gy[i] at (i, t[i]), zeros
    elsewhere."""
    gx = xp.zeros((t.shape[0], n_columns), dtype=gy.dtype)
    gx[xp.arange(t.shape[0]), t] = gy
    return gx


def _check_range(t, n_columns):
    if t.size:
        lo, hi = int(t.min()), int(t.max())
        if lo < 0 or hi >= n_columns:
            raise ValueError(
                'select_item: t holds {} which is out of range for x with {} '
                'columns (0 <= t < {})'.format(
                    lo if lo < 0 else hi, n_columns, n_columns))


class SelectItem(function_node.FunctionNode):
    """``y[i] = x[i, t[i]]``."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            t_type.dtype.kind == 'i',
            x_type.ndim == 2,
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
        )

    def forward(self, inputs):
        x, t = inputs
        _check_range(t, x.shape[1])
        self._t = t
        return kernels.lookup('select_item', x)(x, t),

    def backward(self, indexes, grad_outputs):
        if 0 not in indexes:
            return None,
        gx, = SelectItemGrad(self._t, self.inputs[0].shape[1]).apply(
            grad_outputs)
        return (gx,) + (None,) * (len(indexes) - 1)


class SelectItemGrad(function_node.FunctionNode):
    """Place ``gy[i]`` at ``(i, t[i])`` of a zero matrix."""

    def __init__(self, t, n_columns):
        self._t = t
        self._n_columns = n_columns

    def forward(self, inputs):
        gy, = inputs
        return kernels.lookup('select_item_grad', gy)(
            gy, self._t, self._n_columns),

    def backward(self, indexes, grad_outputs):
        return SelectItem().apply((grad_outputs[0], self._t))[0],


def select_item(x, t):
    """Select one element of each row: ``y[i] = x[i, t[i]]``.

    Args:
        x (Variable or array): input of shape ``(B, N)``.
        t (Variable or array): signed integer array of shape ``(B,)`` with
            ``0 <= t[i] < N``.

    Returns:
        Variable: output of shape ``(B,)``; differentiable in ``x``.
    """
    return SelectItem().apply((x, t))[0]
