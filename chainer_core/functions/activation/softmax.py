"""softmax: normalised exponentials along an axis."""
from chainer_core._runtime import graphs, kernels
from chainer_core import function_node
from chainer_core.functions.array import broadcast as _broadcast_kernels  # NOQA: declares rule kernels of its rules
from chainer_core.functions.math import exponential as _exp_kernels  # NOQA: declares rule kernels of its rules
from chainer_core.functions.math import sum as _sum_kernels  # NOQA: declares rule kernels of its rules
from chainer_core.functions.activation import _params
from chainer_core.functions.activation.log_softmax import _check_axis


@kernels.declare('softmax')
def _softmax(xp, x, axis):
    """y = exp(x) / sum(exp(x), axis), shifted by the max for stability."""
    if x.size == 0:
        # max has no identity: a zero-length axis would raise in the shift.
        return xp.empty_like(x)
    y = xp.exp(x - x.max(axis=axis, keepdims=True))
    y /= y.sum(axis=axis, keepdims=True)
    return y


class Softmax(function_node.FunctionNode):
    """Softmax along one axis."""

    graph_kernel = graphs.declare(
        'softmax', ('axis',), 'exp(x) / sum(exp(x), axis), axis an int.',
        derivative='''
            gyy = mul(y0, gy0)
            s = broadcast_to(sum(gyy, axis=axis, keepdims=True),
                             shape=x0.shape)
            gx0 = sub(gyy, mul(y0, s))''')

    def __init__(self, axis=1):
        self.axis = axis

    def graph_kernel_params(self, inputs):
        return {'axis': self.axis}

    def check_type_forward(self, in_types):
        _check_axis(in_types, self.axis)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('softmax', x)(x, self.axis),


def softmax(x, axis=1):
    """Softmax along ``axis``: :math:`y_i = e^{x_i} / \\sum_j e^{x_j}`.

    Args:
        x (Variable or array): input, float16/32/64, ``ndim > axis``.
        axis (int): the axis to normalise over.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    axis = _params.integer(axis, 'softmax', 'axis')
    return Softmax(axis).apply((x,))[0]
