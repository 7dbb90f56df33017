"""Helpers for distributions (Chainer's ``chainer.distributions.utils``)."""
from chainer_core import backend
from chainer_core import function_node


class ModifiedXLogX(function_node.FunctionNode):
    """``x log x``, taken as 0 where ``x`` is 0 (its limit), for entropies.

    The logarithm is given, as a Variable, so that it is computed once and
    differentiated through: the gradient ``(log x + 1) gy`` (0 where ``x``
    is 0) is itself differentiable.

    Args:
        logx (~chainer_core.Variable): ``log x``; where ``x`` is 0 any
            finite value (e.g. ``log`` of ``x`` with its zeros replaced by
            ones) keeps the gradients finite there.

    Example:
        >>> x = chainer.Variable(numpy.array([0., .5, 2.], numpy.float32))
        >>> safe = F.where(x.array == 0, numpy.ones(3, numpy.float32), x)
        >>> y, = ModifiedXLogX(F.log(safe)).apply((x,))
        >>> y.array
        array([ 0.        , -0.34657359,  1.38629436], dtype=float32)
    """

    def __init__(self, logx):
        self._logx = logx

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self._nonzero = (x != 0).astype(x.dtype)
        y = x * self._logx.array
        return xp.where(x == 0, xp.zeros((), x.dtype), y).astype(
            x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return gy * (self._logx + 1) * self._nonzero,
