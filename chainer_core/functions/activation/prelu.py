"""prelu: a leaky rectifier whose slopes are a parameter."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.activation import _params, _select
from chainer_core.utils import type_check


@kernels.declare('prelu')
def _prelu(xp, x, W):
    """y = x where x >= 0, W * x elsewhere; W is broadcast along axis 0 and
    the trailing axes of x it does not cover."""
    Wb = W.reshape(_params.extended_shape(W.shape, x.ndim))
    zero = x.dtype.type(0)
    return xp.maximum(x, zero) + xp.minimum(x, zero) * Wb


@kernels.declare('prelu_grad')
def _prelu_grad(xp, x, W, gy):
    """(gx, gW): gx = gy where x >= 0, W * gy elsewhere; gW = the sum of
    x * gy where x < 0 over the axes W was broadcast along."""
    Wb = W.reshape(_params.extended_shape(W.shape, x.ndim))
    gx = _select.select(x >= 0, gy, gy * Wb)
    gW = (gy * xp.minimum(x, x.dtype.type(0))).sum(
        axis=_params.reduction_axes(W.ndim, x.ndim))
    return gx, xp.asarray(gW, dtype=W.dtype).reshape(W.shape)


@kernels.declare('prelu_negative_part')
def _prelu_negative_part(xp, x, g):
    """g where x < 0, 0 elsewhere."""
    return g * (x < 0)


def _check_x_W(in_types, names):
    type_check.argname(in_types, names)
    x_type, W_type = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        W_type.dtype == x_type.dtype,
        x_type.ndim >= W_type.ndim + 1,
    )
    n = type_check.eval(W_type.ndim)
    type_check.expect(x_type.shape[1:1 + n] == W_type.shape)


class PReLU(function_node.FunctionNode):
    """Parametric rectifier."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        _check_x_W(in_types, ('x', 'W'))

    def forward(self, inputs):
        x, W = inputs
        self.retain_inputs((0, 1))
        return kernels.lookup('prelu', x)(x, W),

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gx, gW = PReLUGrad().apply((x, W, grad_outputs[0]))
        return tuple(gx if i == 0 else gW for i in indexes)


class PReLUGrad(function_node.FunctionNode):
    """``(gx, gW)`` of prelu as a function of x, W and gy."""

    def forward(self, inputs):
        x, W, gy = inputs
        self.retain_inputs((0, 1, 2))
        return kernels.lookup('prelu_grad', x)(x, W, gy)

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.array.broadcast import broadcast_to
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.math.sum import sum as sum_
        x, W, gy = self.get_retained_inputs()
        ggx, ggW = grad_outputs
        shape = _params.extended_shape(W.shape, x.ndim)
        axes = _params.reduction_axes(W.ndim, x.ndim)
        # gx = gy + neg(gy) * (Wb - 1) and gW = sum(neg(gy) * x), where
        # neg keeps the entries at negative x: diagonal, hence its own
        # transpose.
        g_x = g_W = g_gy = None
        if ggW is not None:
            ggWb = broadcast_to(reshape(ggW, shape), x.shape)
            g_x = _negative_part(x.array, gy * ggWb)
            g_gy = _negative_part(x.array, x * ggWb)
        if ggx is not None:
            Wb = broadcast_to(reshape(W, shape), x.shape)
            t = ggx + _negative_part(x.array, ggx * (Wb - 1))
            g_gy = t if g_gy is None else g_gy + t
            g_W = reshape(sum_(_negative_part(x.array, gy * ggx), axis=axes),
                          W.shape)
        return tuple((g_x, g_W, g_gy)[i] for i in indexes)


class NegativePart(function_node.FunctionNode):
    """``g`` where a fixed ``x`` is negative, 0 elsewhere: diagonal, so it
    is its own gradient."""

    def __init__(self, x):
        self.x = x

    def forward(self, inputs):
        g, = inputs
        return kernels.lookup('prelu_negative_part', g)(self.x, g),

    def backward(self, indexes, grad_outputs):
        return NegativePart(self.x).apply(grad_outputs)


def _negative_part(x, g):
    return NegativePart(x).apply((g,))[0]


def prelu(x, W):
    """Parametric rectified linear unit: :math:`y = x` where
    :math:`x \\ge 0` and :math:`y = W x` elsewhere.

    ``W`` holds one slope per entry of the leading axes of ``x`` after the
    batch axis: its shape must equal ``x.shape[1:1 + W.ndim]``, and it is
    broadcast along axis 0 and along the trailing axes it does not cover
    (e.g. ``W`` of shape ``(C,)`` gives one slope per channel of an
    ``(N, C, H, W)`` input).

    Args:
        x (Variable or array): input, float16/32/64, ``ndim > W.ndim``.
        W (Variable or array): the slopes, of the dtype of ``x``.

    Returns:
        Variable: output of the shape and dtype of ``x``.
    """
    return PReLU().apply((x, W))[0]
