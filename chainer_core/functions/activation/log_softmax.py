"""log_softmax: logarithm of the softmax, computed stably."""
from chainer_core._runtime import graphs, kernels
from chainer_core import function_node
from chainer_core.functions.array import broadcast as _broadcast_kernels  # NOQA: declares rule kernels of its rules
from chainer_core.functions.math import exponential as _exp_kernels  # NOQA: declares rule kernels of its rules
from chainer_core.functions.math import sum as _sum_kernels  # NOQA: declares rule kernels of its rules
from chainer_core.functions.activation import _params
from chainer_core.utils import type_check


def _logsumexp(xp, x, axis):
    m = x.max(axis=axis, keepdims=True)
    return m + xp.log(xp.exp(x - m).sum(axis=axis, keepdims=True))


@kernels.declare('log_softmax')
def _log_softmax(xp, x, axis):
    """y = x - log(sum(exp(x), axis)); float16 is computed in float32."""
    if x.size == 0:
        # max has no identity: a zero-length axis would raise in the shift.
        return xp.empty_like(x)
    if x.dtype.kind == 'f' and x.dtype.itemsize < 4:
        xf = x.astype('float32')
        return (xf - _logsumexp(xp, xf, axis)).astype(x.dtype)
    return x - _logsumexp(xp, x, axis)


def _check_axis(in_types, axis):
    type_check.expect(in_types.size() == 1)
    type_check.argname(in_types, ('x',))
    x_type = in_types[0]
    type_check.expect(x_type.dtype.kind == 'f')
    axis_var = type_check.make_variable(axis, 'axis')
    if axis >= 0:
        type_check.expect(x_type.ndim > axis_var)
    else:
        type_check.expect(x_type.ndim >= -axis_var)


class LogSoftmax(function_node.FunctionNode):
    """Log-softmax along one axis."""

    graph_kernel = graphs.declare(
        'log_softmax', ('axis',), 'x - log(sum(exp(x), axis)), axis an int.',
        derivative='''
            s = broadcast_to(sum(gy0, axis=axis, keepdims=True),
                             shape=x0.shape)
            gx0 = sub(gy0, mul(exp(y0), s))''')

    def __init__(self, axis=1):
        self.axis = axis

    def graph_kernel_params(self, inputs):
        return {'axis': self.axis}

    def check_type_forward(self, in_types):
        _check_axis(in_types, self.axis)

    def forward(self, inputs):
        x, = inputs
        return kernels.lookup('log_softmax', x)(x, self.axis),


def log_softmax(x, axis=1):
    """Log of the softmax along ``axis``:
    :math:`y_i = x_i - \\log \\sum_j e^{x_j}`.

    Computed without forming the softmax, so it stays finite where
    ``log(softmax(x))`` would underflow.

    Args:
        x (Variable or array): input, float16/32/64, ``ndim > axis``.
        axis (int): the axis to normalise over.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    axis = _params.integer(axis, 'log_softmax', 'axis')
    return LogSoftmax(axis).apply((x,))[0]
