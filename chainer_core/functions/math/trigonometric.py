"""Trigonometric functions and their inverses: sin, cos, tan, arcsin,
arccos, arctan, arctan2."""
from chainer_core._runtime import kernels
from chainer_core import function_node
from chainer_core.functions.math._util import (
    check_float_inputs, check_unary_float, sum_to_shape)
from chainer_core.utils import type_check


@kernels.declare('sin')
def _sin(xp, x):
    """y = sin(x) (radians)."""
    return xp.sin(x)


@kernels.declare('cos')
def _cos(xp, x):
    """y = cos(x) (radians)."""
    return xp.cos(x)


@kernels.declare('tan')
def _tan(xp, x):
    """y = tan(x) (radians)."""
    return xp.tan(x)


@kernels.declare('arcsin')
def _arcsin(xp, x):
    """y = inverse sine of x, in [-pi/2, pi/2]."""
    return xp.arcsin(x)


@kernels.declare('arccos')
def _arccos(xp, x):
    """y = inverse cosine of x, in [0, pi]."""
    return xp.arccos(x)


@kernels.declare('arctan')
def _arctan(xp, x):
    """y = inverse tangent of x, in (-pi/2, pi/2)."""
    return xp.arctan(x)


@kernels.declare('arctan2')
def _arctan2(xp, x1, x2):
    """y = angle of the point (x2, x1), in [-pi, pi], with broadcasting."""
    return xp.arctan2(x1, x2)


class _Unary(function_node.FunctionNode):
    _kernel = None

    check_type_forward = staticmethod(check_unary_float)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return kernels.lookup(self._kernel, x)(x),


class Sin(_Unary):
    """Elementwise sine."""

    _kernel = 'sin'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * cos(x),


class Cos(_Unary):
    """Elementwise cosine."""

    _kernel = 'cos'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * -sin(x),


class Tan(_Unary):
    """Elementwise tangent."""

    _kernel = 'tan'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        c = cos(x)
        return grad_outputs[0] / (c * c),


class Arcsin(_Unary):
    """Elementwise inverse sine."""

    _kernel = 'arcsin'

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sqrt import rsqrt
        x, = self.get_retained_inputs()
        return grad_outputs[0] * rsqrt(1.0 - x * x),


class Arccos(_Unary):
    """Elementwise inverse cosine."""

    _kernel = 'arccos'

    def backward(self, indexes, grad_outputs):
        from chainer_core.functions.math.sqrt import rsqrt
        x, = self.get_retained_inputs()
        return -grad_outputs[0] * rsqrt(1.0 - x * x),


class Arctan(_Unary):
    """Elementwise inverse tangent."""

    _kernel = 'arctan'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (x * x + 1.0),


class Arctan2(function_node.FunctionNode):
    """Elementwise two-argument inverse tangent, with broadcasting."""

    def check_type_forward(self, in_types):
        check_float_inputs(in_types, ('x1', 'x2'))
        type_check.expect_broadcast_shapes(in_types[0].shape,
                                           in_types[1].shape)

    def forward(self, inputs):
        x1, x2 = inputs
        self.retain_inputs((0, 1))
        return kernels.lookup('arctan2', x1)(x1, x2),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        gy, = grad_outputs
        # d atan2(a, b) = (b da - a db) / (a^2 + b^2).
        g = gy / (x1 * x1 + x2 * x2)
        ret = []
        if 0 in indexes:
            ret.append(sum_to_shape(g * x2, x1.shape))
        if 1 in indexes:
            ret.append(sum_to_shape(-g * x1, x2.shape))
        return tuple(ret)


def sin(x):
    """Elementwise sine: :math:`y = \\sin x` (radians).

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Sin().apply((x,))[0]


def cos(x):
    """Elementwise cosine: :math:`y = \\cos x` (radians).

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Cos().apply((x,))[0]


def tan(x):
    """Elementwise tangent: :math:`y = \\tan x` (radians).

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Tan().apply((x,))[0]


def arcsin(x):
    """Elementwise inverse sine: :math:`y = \\arcsin x`, in
    :math:`[-\\pi/2, \\pi/2]`; NaN outside :math:`[-1, 1]`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Arcsin().apply((x,))[0]


def arccos(x):
    """Elementwise inverse cosine: :math:`y = \\arccos x`, in
    :math:`[0, \\pi]`; NaN outside :math:`[-1, 1]`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Arccos().apply((x,))[0]


def arctan(x):
    """Elementwise inverse tangent: :math:`y = \\arctan x`, in
    :math:`(-\\pi/2, \\pi/2)`.

    Args:
        x (Variable or array): input, float16/32/64.

    Returns:
        Variable of the shape and dtype of ``x``.
    """
    return Arctan().apply((x,))[0]


def arctan2(x1, x2):
    """Elementwise two-argument inverse tangent: the angle of the point
    :math:`(x_2, x_1)`, :math:`y = \\arctan(x_1 / x_2)` corrected to the
    quadrant, in :math:`[-\\pi, \\pi]`.

    Args:
        x1 (Variable or array): the y-coordinates, float16/32/64.
        x2 (Variable or array): the x-coordinates, of the dtype of ``x1``;
            the two broadcast together.

    Returns:
        Variable of the broadcast shape, of the dtype of the inputs.
    """
    return Arctan2().apply((x1, x2))[0]
