"""swish: x times the sigmoid of beta x."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.activation import _params
from chainer_core.utils import type_check


def _sigmoid(xp, t):
    half = t.dtype.type(0.5)
    return xp.tanh(t * half) * half + half


@kernels.declare('swish')
def _swish(xp, x, beta):
    """y = x * sigmoid(beta * x); beta is broadcast along axis 0 and the
    trailing axes of x it does not cover."""
    b = beta.reshape(_params.extended_shape(beta.shape, x.ndim))
    return x * _sigmoid(xp, b * x)


@kernels.declare('swish_grad')
def _swish_grad(xp, x, beta, gy):
    """(gx, gbeta): gx = gy * (s + beta * y * (1 - s)) and gbeta = the sum of
    gy * x * y * (1 - s) over the axes beta was broadcast along, with
    s = sigmoid(beta * x) and y = x * s."""
    b = beta.reshape(_params.extended_shape(beta.shape, x.ndim))
    s = _sigmoid(xp, b * x)
    one_minus_s = 1 - s
    y = x * s
    gx = gy * (s + b * y * one_minus_s)
    gbeta = (gy * x * y * one_minus_s).sum(
        axis=_params.reduction_axes(beta.ndim, x.ndim))
    return gx, xp.asarray(gbeta, dtype=beta.dtype).reshape(beta.shape)


class Swish(function_node.FunctionNode):
    """Swish with a (broadcast) parameter beta."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('x', 'beta'))
        x_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            beta_type.dtype == x_type.dtype,
            beta_type.ndim <= x_type.ndim - 1,
        )
        n = type_check.eval(beta_type.ndim)
        type_check.expect(beta_type.shape == x_type.shape[1:1 + n])

    def forward(self, inputs):
        x, beta = inputs
        self.retain_inputs((0, 1))
        return kernels.lookup('swish', x)(x, beta),

    def backward(self, indexes, grad_outputs):
        x, beta = self.get_retained_inputs()
        gx, gbeta = SwishGrad().apply((x, beta, grad_outputs[0]))
        return tuple(gx if i == 0 else gbeta for i in indexes)


class SwishGrad(function_node.FunctionNode):
    """``(gx, gbeta)`` of swish as a function of x, beta and gy."""

    def forward(self, inputs):
        x, beta, gy = inputs
        self.retain_inputs((0, 1, 2))
        return kernels.lookup('swish_grad', x)(x, beta, gy)

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.activation.sigmoid import sigmoid
        from chainer_core.functions.array.broadcast import broadcast_to
        from chainer_core.functions.array.reshape import reshape
        from chainer_core.functions.math.sum import sum as sum_
        x, beta, gy = self.get_retained_inputs()
        ggx, ggbeta = grad_outputs
        shape = _params.extended_shape(beta.shape, x.ndim)
        axes = _params.reduction_axes(beta.ndim, x.ndim)
        b = broadcast_to(reshape(beta, shape), x.shape)
        s = sigmoid(b * x)
        ds = s * (1 - s)
        y = x * s
        # With D = dy/dx = s + b y (1 - s) and E = dy/dbeta = x y (1 - s):
        # dD/dx = b k, dD/dbeta = dE/dx = x k, dE/dbeta = x^3 s' (1 - 2s),
        # where k = s' (2 + b x (1 - 2s)) and s' = s (1 - s).
        k = ds * (2 + b * x * (1 - 2 * s))
        g_x = g_beta = g_gy = None
        if ggx is not None:
            g_gy = ggx * (s + b * y * (1 - s))
            g_x = ggx * gy * b * k
            g_beta = ggx * gy * x * k
        if ggbeta is not None:
            ggb = broadcast_to(reshape(ggbeta, shape), x.shape)
            t = ggb * x * y * (1 - s)
            g_gy = t if g_gy is None else g_gy + t
            t = ggb * gy * x * k
            g_x = t if g_x is None else g_x + t
            t = ggb * gy * x * x * x * ds * (1 - 2 * s)
            g_beta = t if g_beta is None else g_beta + t
        if g_beta is not None:
            g_beta = reshape(sum_(g_beta, axis=axes), beta.shape)
        return tuple((g_x, g_beta, g_gy)[i] for i in indexes)


def swish(x, beta):
    """Swish: :math:`y = x \\, \\sigma(\\beta x)`.

    :math:`\\beta = 0` gives :math:`x / 2`; as :math:`\\beta \\to \\infty`
    it tends to the rectifier. ``beta`` holds one value per entry of the
    leading axes of ``x`` after the batch axis: its shape must equal
    ``x.shape[1:1 + beta.ndim]``, and it is broadcast along axis 0 and along
    the trailing axes it does not cover.

    Args:
        x (Variable or array): input, float16/32/64, ``ndim > beta.ndim``.
        beta (Variable or array): :math:`\\beta`, of the dtype of ``x``.

    Returns:
        Variable: output of the shape and dtype of ``x``.
    """
    return Swish().apply((x, beta))[0]
