"""binary_accuracy: the fraction of correct sign predictions."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.utils import type_check


@kernels.declare('binary_accuracy')
def _binary_accuracy(xp, y, t, ignore_label):
    """0-dim array: the fraction of (y >= 0) == t among labels that are not
    ignore_label (0 when all are ignored)."""
    count = max(int((t != ignore_label).sum()), 1)
    correct = ((y >= 0) == t).sum()
    return xp.asarray(correct / count, dtype=y.dtype)


class BinaryAccuracy(function_node.FunctionNode):
    """Binary classification accuracy (not differentiable)."""

    ignore_label = -1

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('y', 't'))
        y_type, t_type = in_types
        type_check.expect(
            y_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            t_type.shape == y_type.shape,
        )

    def forward(self, inputs):
        y, t = inputs
        return kernels.lookup('binary_accuracy', y)(y, t, self.ignore_label),


def binary_accuracy(y, t):
    """Accuracy of binary predictions: the label predicted for ``y[i]`` is 1
    when ``y[i] >= 0``, else 0.

    Args:
        y (Variable or array): scores of the positive class, any shape,
            float16/32/64.
        t (Variable or array): labels of ``y``'s shape: 1 (positive), 0
            (negative) or -1 (left out).

    Returns:
        Variable: a 0-dim array of ``y``'s dtype; 0 when every label is -1.
    """
    return BinaryAccuracy().apply((y, t))[0]
