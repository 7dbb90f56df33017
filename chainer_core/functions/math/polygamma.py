"""polygamma: the derivatives of the digamma function."""
import numbers

import numpy

from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import compute_dtype
from chainer_core.utils import type_check


@kernels.declare('polygamma')
def _polygamma(xp, n, x):
    """y = the n-th derivative of digamma at x, for integers n >= 0 (an
    array broadcasting with x); NaN where n < 0 and at 0, -1, -2, ...
    (float16 is evaluated in float32)."""
    w = x.astype(compute_dtype(x.dtype), copy=False)
    return _special.polygamma(xp, n, w).astype(x.dtype, copy=False)


class PolyGamma(function_node.FunctionNode):
    """Elementwise polygamma function; differentiable in ``x`` only."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('n', 'x'))
        n_type, x_type = in_types
        type_check.expect(n_type.dtype.kind == 'i',
                          x_type.dtype.kind == 'f')
        type_check.expect_broadcast_shapes(n_type.shape, x_type.shape)

    def forward(self, inputs):
        n, x = inputs
        self.retain_inputs((0, 1))
        return kernels.lookup('polygamma', x)(n, x),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum_to
        n, x = self.get_retained_inputs()
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(None)
            else:
                higher = n.xp.asarray(n.array + 1)
                g = grad_outputs[0] * PolyGamma().apply((higher, x))[0]
                ret.append(g if g.shape == x.shape else sum_to(g, x.shape))
        return tuple(ret)


def polygamma(n, x):
    """Elementwise polygamma function: the :math:`n`-th derivative of the
    digamma function, :math:`y = \\psi^{(n)}(x)`.

    ``polygamma(0, x)`` is :func:`digamma`. It is NaN at the poles
    :math:`0, -1, -2, \\ldots` and where ``n`` is negative. No SciPy is
    needed.

    Args:
        n (int, Variable or array): the orders, non-negative integers; an
            array broadcasts with ``x``. Not differentiated.
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the broadcast shape of ``n`` and ``x``, of the dtype of
        ``x``.
    """
    if isinstance(n, numbers.Integral) and not isinstance(n, bool):
        from chainer_core.backend import get_array_module
        if not hasattr(x, 'dtype'):
            raise TypeError('polygamma: x must be a Variable or an array, '
                            'got {}'.format(type(x).__name__))
        n = get_array_module(x).asarray(int(n), dtype=numpy.int64)
    return PolyGamma().apply((n, x))[0]
