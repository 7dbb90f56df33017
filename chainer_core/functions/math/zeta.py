"""zeta: the Hurwitz zeta function, differentiable in its offset."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math import _special
from chainer_core.functions.math._util import compute_dtype
from chainer_core.utils import type_check


@kernels.declare('zeta')
def _zeta(xp, x, q):
    """y = sum_k (q + k)^-x, x and q broadcast, in q's dtype (float16 is
    evaluated in float32); +inf at x = 1 and q = 0, -1, ..., NaN for
    x < 1 and for q < 0 with a non-integer x."""
    dtype = compute_dtype(q.dtype)
    y = _special.hurwitz_zeta(xp, x.astype(dtype, copy=False),
                              q.astype(dtype, copy=False))
    return y.astype(q.dtype, copy=False)


class Zeta(function_node.FunctionNode):
    """Elementwise Hurwitz zeta function; differentiable in ``q`` only."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 'q'))
        x_type, q_type = in_types
        type_check.expect(q_type.dtype.kind == 'f')
        if type_check.eval(x_type.dtype.kind) not in ('i', 'u', 'f'):
            raise type_check.InvalidType(
                'x.dtype.kind in (i, u, f)',
                'x.dtype = {}'.format(type_check.eval(x_type.dtype).name))
        type_check.expect_broadcast_shapes(x_type.shape, q_type.shape)

    def forward(self, inputs):
        x, q = inputs
        self.retain_inputs((0, 1))
        return kernels.lookup('zeta', q)(x, q),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sum import sum_to
        x, q = self.get_retained_inputs()
        if 1 not in indexes:
            return (None,) * len(indexes)
        # d/dq sum_k (q + k)^-x = -x sum_k (q + k)^-(x + 1).
        s = x.array.astype(q.dtype, copy=False)
        higher = Zeta().apply((x.xp.asarray(s + 1), q))[0]
        g = grad_outputs[0] * higher * x.xp.asarray(-s)
        if g.shape != q.shape:
            g = sum_to(g, q.shape)
        return tuple(None if i == 0 else g for i in indexes)


def zeta(x, q):
    """Elementwise Hurwitz zeta function:
    :math:`y = \\zeta(x, q) = \\sum_{k=0}^\\infty (q + k)^{-x}`.

    ``zeta(x, 1)`` is the Riemann zeta function. The sum converges for
    :math:`x > 1`; it is :math:`+\\infty` at :math:`x = 1` and at the poles
    :math:`q = 0, -1, -2, \\ldots`, and NaN for :math:`x < 1` (and for
    negative ``q`` with a non-integer ``x``). The gradient is taken with
    respect to ``q`` only:
    :math:`\\partial y / \\partial q = -x\\, \\zeta(x + 1, q)`. No SciPy is
    needed.

    Args:
        x (array or scalar): the exponent, broadcasting with ``q``; not
            differentiated.
        q (Variable or array): the offset, float16/32/64.

    Returns:
        Variable of the broadcast shape of ``x`` and ``q``, of the dtype
        of ``q``.

    .. admonition:: Example

        >>> F.zeta(np.array([2.0, 3.0]), np.array([1.0, 1.0])).array
        array([1.64493407, 1.2020569 ])
    """
    from chainer_core.backend import get_array_module
    from chainer_core.variable import Variable
    if not hasattr(q, 'dtype'):
        raise TypeError('zeta: q must be a Variable or an array, got '
                        '{}'.format(type(q).__name__))
    if isinstance(x, Variable):
        x = x.array
    if not hasattr(x, 'dtype'):
        x = get_array_module(q).asarray(x, dtype=q.dtype)
    return Zeta().apply((x, q))[0]
