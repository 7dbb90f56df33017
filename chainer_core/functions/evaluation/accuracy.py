"""accuracy: the fraction of correct predictions."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('accuracy')
def _accuracy(xp, y, t, ignore_label):
    """0-dim array: mean of argmax(y, axis=1) == t over labels that are not
    ignore_label (None: all)."""
    pred = y.argmax(axis=1).reshape(t.shape)
    if ignore_label is not None:
        mask = t != ignore_label
        count = int(mask.sum())
        if count == 0:
            return xp.asarray(0.0, dtype=y.dtype)
        return xp.asarray(((pred == t) & mask).sum() / count, dtype=y.dtype)
    return xp.asarray((pred == t).mean(), dtype=y.dtype)


def _expect_label_shape(y_type, t_type):
    """t is (N, d_1, ..., d_k) for y of (N, C, d_1, ..., d_k), where y may
    have further trailing axes of size 1."""
    t_ndim = type_check.eval(t_type.ndim)
    type_check.expect(
        y_type.ndim >= t_type.ndim + 1,
        y_type.shape[0] == t_type.shape[0],
        y_type.shape[2:t_ndim + 1] == t_type.shape[1:],
    )
    for i in range(t_ndim + 1, type_check.eval(y_type.ndim)):
        type_check.expect(y_type.shape[i] == 1)


class Accuracy(function_node.FunctionNode):
    """Classification accuracy (not differentiable)."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('y', 't'))
        y_type, t_type = in_types
        type_check.expect(
            y_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            y_type.ndim >= 2,
            t_type.ndim >= 1,
        )
        _expect_label_shape(y_type, t_type)

    def forward(self, inputs):
        y, t = inputs
        return kernels.lookup('accuracy', y)(y, t, self.ignore_label),


def accuracy(y, t, ignore_label=None):
    """Fraction of samples whose highest score is the label.

    The prediction at ``(n, d_1, ...)`` is the argmax of ``y`` over axis 1.

    Args:
        y (Variable or array): scores ``(N, C)`` or ``(N, C, d_1, ...)``,
            float16/32/64 (trailing axes of size 1 beyond those of ``t``
            are allowed).
        t (Variable or array): signed integer labels ``(N,)`` or
            ``(N, d_1, ...)``.
        ignore_label (int or None): labels to leave out of the count.

    Returns:
        Variable: a 0-dim array of ``y``'s dtype (0 when every label is
        ignored); not differentiable.
    """
    return Accuracy(ignore_label).apply((y, t))[0]
