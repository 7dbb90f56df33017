"""bilinear: the bilinear form of two inputs, with optional linear terms."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.connection import _convolution as _cv
from chainer_core.utils import type_check


@kernels.declare('bilinear')
def _bilinear(xp, e1, e2, W, V1, V2, b):
    """y (N, L) with y[i, l] = sum_jk e1[i, j] e2[i, k] W[j, k, l], plus
    e1 V1 + e2 V2 + b when V1, V2, b are not None; e1 (N, J), e2 (N, K)."""
    n, j = e1.shape
    k = e2.shape[1]
    outer = (e1[:, :, None] * e2[:, None, :]).reshape(n, j * k)
    y = _cv.matmul_acc(xp, outer, W.reshape(j * k, -1))
    if V1 is not None:
        y += _cv.matmul_acc(xp, e1, V1)
        y += _cv.matmul_acc(xp, e2, V2)
        y += b
    return y


class BilinearFunction(function_node.FunctionNode):
    """``y = e1^T W e2 (+ V1^T e1 + V2^T e2 + b)`` per sample."""

    def check_type_forward(self, in_types):
        n_in = type_check.eval(in_types.size())
        if n_in != 3 and n_in != 6:
            type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('e1', 'e2', 'W', 'V1', 'V2', 'b'))
        e1_type, e2_type, w_type = in_types[:3]
        prod = type_check.make_variable(_prod, 'prod')
        type_check.expect(
            e1_type.dtype.kind == 'f',
            e1_type.ndim >= 2,
            e2_type.dtype == e1_type.dtype,
            e2_type.ndim >= 2,
            e1_type.shape[0] == e2_type.shape[0],
            w_type.dtype == e1_type.dtype,
            w_type.ndim == 3,
            prod(e1_type.shape[1:]) == w_type.shape[0],
            prod(e2_type.shape[1:]) == w_type.shape[1],
        )
        if n_in == 6:
            v1_type, v2_type, b_type = in_types[3:]
            type_check.expect(
                v1_type.dtype == e1_type.dtype,
                v1_type.ndim == 2,
                v1_type.shape[0] == w_type.shape[0],
                v1_type.shape[1] == w_type.shape[2],
                v2_type.dtype == e1_type.dtype,
                v2_type.ndim == 2,
                v2_type.shape[0] == w_type.shape[1],
                v2_type.shape[1] == w_type.shape[2],
                b_type.dtype == e1_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[2],
            )

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        e1, e2, W = inputs[:3]
        e1 = e1.reshape(len(e1), _prod(e1.shape[1:]))
        e2 = e2.reshape(len(e2), _prod(e2.shape[1:]))
        V1, V2, b = inputs[3:] if len(inputs) == 6 else (None, None, None)
        return kernels.lookup('bilinear', e1)(e1, e2, W, V1, V2, b),

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.broadcast import broadcast_to
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.math.matmul import matmul
        from chainer_core.functions.math.sum import sum as sum_
        inputs = self.get_retained_inputs()
        e1_in, e2_in, W = inputs[:3]
        gy, = grad_outputs
        n = e1_in.shape[0]
        j, k, l_ = W.shape
        e1 = reshape(e1_in, (n, j))
        e2 = reshape(e2_in, (n, k))
        ret = {}
        if 0 in indexes or 1 in indexes:
            # gy W^T as (N, J, K): the coefficients of e1_j e2_k.
            gyw = reshape(matmul(gy, reshape(W, (j * k, l_)), transb=True),
                          (n, j, k))
            if 0 in indexes:
                e2b = broadcast_to(reshape(e2, (n, 1, k)), (n, j, k))
                ge1 = sum_(gyw * e2b, axis=2)
                if len(inputs) == 6:
                    ge1 = ge1 + matmul(gy, inputs[3], transb=True)
                ret[0] = reshape(ge1, e1_in.shape)
            if 1 in indexes:
                e1b = broadcast_to(reshape(e1, (n, j, 1)), (n, j, k))
                ge2 = sum_(gyw * e1b, axis=1)
                if len(inputs) == 6:
                    ge2 = ge2 + matmul(gy, inputs[4], transb=True)
                ret[1] = reshape(ge2, e2_in.shape)
        if 2 in indexes:
            outer = broadcast_to(reshape(e1, (n, j, 1)), (n, j, k)) * \
                broadcast_to(reshape(e2, (n, 1, k)), (n, j, k))
            gW = matmul(reshape(outer, (n, j * k)), gy, transa=True)
            ret[2] = reshape(gW, (j, k, l_))
        if 3 in indexes:
            ret[3] = matmul(e1, gy, transa=True)
        if 4 in indexes:
            ret[4] = matmul(e2, gy, transa=True)
        if 5 in indexes:
            ret[5] = sum_(gy, axis=0)
        return tuple(ret[i] for i in indexes)


def _prod(shape):
    out = 1
    for s in shape:
        out *= s
    return out


def bilinear(e1, e2, W, V1=None, V2=None, b=None):
    """Bilinear function of two inputs.

    .. math::
        y_{i,l} = \\sum_{j,k} e^1_{i,j} e^2_{i,k} W_{j,k,l}
            + \\sum_j e^1_{i,j} V^1_{j,l} + \\sum_k e^2_{i,k} V^2_{k,l}
            + b_l

    The linear terms are present only when ``V1``, ``V2`` and ``b`` are all
    given. Axes of ``e1`` and ``e2`` after the first are flattened.

    Args:
        e1 (Variable or array): left input of shape ``(N, J)`` (or
            ``(N, ...)`` with ``J`` elements per sample).
        e2 (Variable or array): right input of shape ``(N, K)`` (or
            ``(N, ...)``).
        W (Variable or array): the bilinear coefficients ``(J, K, L)``.
        V1 (Variable or array): left linear coefficients ``(J, L)``.
        V2 (Variable or array): right linear coefficients ``(K, L)``.
        b (Variable or array): bias ``(L,)``.

    Returns:
        Variable of shape ``(N, L)``.

    Raises:
        ValueError: only some of ``V1``, ``V2`` and ``b`` are given.
    """
    given = [v is not None for v in (V1, V2, b)]
    if any(given) and not all(given):
        raise ValueError('bilinear: V1, V2 and b must be given together or '
                         'all be None; got V1 {}, V2 {}, b {}'.format(
                             *['given' if g else 'None' for g in given]))
    args = (e1, e2, W) if not any(given) else (e1, e2, W, V1, V2, b)
    return BilinearFunction().apply(args)[0]
